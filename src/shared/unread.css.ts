import { style } from '@vanilla-extract/css';
import { vars } from '../styles/theme.css.ts';

/**
 * A small count on a tab, a row or the bell: white on a deep red in both themes (the dark theme's lighter
 * danger colour under white text falls short of a readable contrast: 2.8:1; this one is 5.6:1).
 */
export const badge = style({
  display: 'inline-grid',
  placeItems: 'center',
  minWidth: 18,
  height: 18,
  padding: '0 5px',
  borderRadius: 9,
  background: '#c62828',
  color: '#ffffff',
  fontSize: 11,
  fontWeight: 700,
  lineHeight: 1,
  fontVariantNumeric: 'tabular-nums',
  boxSizing: 'border-box',
});

/** On an icon: its top right corner. */
export const onIcon = style({ position: 'absolute', top: 2, right: 0, transform: 'translateX(40%)' });
export const iconHolder = style({ position: 'relative', display: 'inline-grid', placeItems: 'center' });

/** The bell in a header: a 44px tap target like the back button. */
export const bell = style({ display: 'grid', placeItems: 'center', width: 44, height: 44, color: vars.color.text });
