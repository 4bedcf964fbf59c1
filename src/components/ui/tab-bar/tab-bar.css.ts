import { style } from '@vanilla-extract/css';
import { vars } from '../../../styles/theme.css.ts';
import { TAB_BAR_HEIGHT } from './tabs.ts';
import { inColumn } from '../../../styles/layout.ts';

export const bar = style({
  position: 'fixed',
  ...inColumn,
  bottom: 0,
  zIndex: 10,
  height: TAB_BAR_HEIGHT,
  display: 'grid',
  gridTemplateColumns: 'repeat(5, 1fr)',
  background: vars.color.surface,
  // A shadow, not a border: the bar stays exactly 60px (plus the safe-area inset on notched phones).
  boxShadow: `0 -1px 0 ${vars.color.border}`,
  boxSizing: 'content-box',
  paddingBottom: 'env(safe-area-inset-bottom, 0px)',
});
export const tab = style({
  display: 'grid',
  placeItems: 'center',
  alignContent: 'center',
  gap: 2,
  fontSize: 12,
  color: vars.color.textMuted,
  selectors: { '&[aria-current="page"]': { color: vars.color.primary, fontWeight: 600 } },
});
