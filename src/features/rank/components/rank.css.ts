import { style, styleVariants } from '@vanilla-extract/css';
import { vars } from '../../../styles/theme.css.ts';

const place = style({
  width: 28,
  height: 28,
  borderRadius: '50%',
  display: 'inline-grid',
  placeItems: 'center',
  fontSize: 13,
  fontWeight: 700,
  fontVariantNumeric: 'tabular-nums',
  flex: 'none',
});
/** The first three places as medals (gold, silver, bronze: dark text on each in both themes), the rest plain. */
export const medal = styleVariants({
  1: [place, { background: '#f2c94c', color: '#3d2e00' }],
  2: [place, { background: '#c9d1da', color: '#1f2933' }],
  3: [place, { background: '#e0a574', color: '#3a1f08' }],
  other: [place, { color: vars.color.textMuted }],
});
export const row = style({
  display: 'flex',
  alignItems: 'center',
  gap: vars.space.md,
  padding: '8px 0',
  selectors: { '&[data-me]': { fontWeight: 700 } },
});
export const who = style({ flex: 1, minWidth: 0 });
export const name = style({ display: 'block', overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' });
export const empty = style({ margin: `${vars.space.xs} 0 0` });
/** A ranked bot's ROI above its copy button. */
export const figures = style({ display: 'grid', justifyItems: 'end', gap: vars.space.xs, flex: 'none' });
