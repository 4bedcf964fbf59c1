import { globalStyle, style } from '@vanilla-extract/css';
import * as ui from '../../../components/ui/ui.css.ts';
import { vars } from '../../../styles/theme.css.ts';

export const row = style({
  display: 'grid',
  gridTemplateColumns: '30px 1fr 64px 96px',
  alignItems: 'center',
  gap: vars.space.sm,
  // The star and the pair are 44 px high already: a little air around them.
  padding: `${vars.space.xs} 0`,
  borderBottom: `1px solid ${vars.color.border}`,
  vars: { '--market-up': vars.color.up, '--market-down': vars.color.down },
  // Below 375 px the pair's name ("DOGE/USDT") ran under the sparkline: the sparkline and the price
  // columns give up the width the name needs.
  '@media': { '(max-width: 374px)': { gridTemplateColumns: '30px 1fr 36px minmax(72px, max-content)' } },
});
// The sparkline (an <svg> 64 px wide) fits its narrower column there, drawn smaller instead of under the price.
globalStyle(`${row} > svg`, { '@media': { '(max-width: 374px)': { width: '100%' } } });
// The star and the pair are 44 px high; the star's column is 30 px wide, its ::after widens it to 44.
const hitArea = (inset: string) => ({ position: 'relative' as const, selectors: { '&::after': { content: '""', position: 'absolute' as const, inset } } });
export const star = style({ background: 'none', border: 0, padding: 0, width: 30, height: 44, fontSize: 18, color: vars.color.textMuted, cursor: 'pointer', ...hitArea('0 -7px') });
export const starOn = style([star, { color: vars.color.warning }]);
export const pair = style({
  background: 'none',
  border: 0,
  padding: 0,
  textAlign: 'left',
  color: vars.color.text,
  font: 'inherit',
  fontWeight: 600,
  cursor: 'pointer',
  minWidth: 0,
  height: 44,
  whiteSpace: 'nowrap',
});
export const price = style({ textAlign: 'right', fontVariantNumeric: 'tabular-nums' });
export const search = style({ marginBottom: vars.space.md });
export const change = style({ fontSize: 12 });
export const futuresChange = style({ fontSize: 11 });
export const futuresNote = style([ui.formError, { background: 'transparent' }]);
/** Says the list shows the Paper market because the chosen exchange cannot be reached. */
export const fallback = style({
  margin: `0 0 ${vars.space.md}`,
  padding: `${vars.space.sm} ${vars.space.md}`,
  borderRadius: vars.radius.md,
  background: vars.color.surfaceAlt,
  color: vars.color.text,
  fontSize: vars.font.small,
});
