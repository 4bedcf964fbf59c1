import { style } from '@vanilla-extract/css';
import * as ui from '../../../components/ui/ui.css.ts';
import { vars } from '../../../styles/theme.css.ts';

export const title = style({ margin: `0 0 ${vars.space.sm}`, fontSize: 16, fontWeight: 600 });
export const small = style({ margin: `0 0 ${vars.space.md}`, lineHeight: 1.5, color: vars.color.textMuted, fontSize: vars.font.small });
export const rows = style({ listStyle: 'none', margin: `0 0 ${vars.space.md}`, padding: 0 });
export const row = style({
  display: 'flex',
  alignItems: 'center',
  justifyContent: 'space-between',
  gap: vars.space.sm,
  padding: `${vars.space.sm} 0`,
  borderBottom: `1px solid ${vars.color.border}`,
  selectors: { '&:last-child': { borderBottom: 'none' } },
});
export const info = style({ minWidth: 0, display: 'grid', gap: 2 });
export const device = style({ display: 'flex', alignItems: 'center', gap: vars.space.sm, fontWeight: 600, overflowWrap: 'anywhere' });
export const meta = style({ color: vars.color.textMuted, fontSize: vars.font.small, overflowWrap: 'anywhere' });
export const badge = style({
  display: 'inline-block',
  padding: '1px 8px',
  borderRadius: 10,
  fontSize: 12,
  fontWeight: 600,
  whiteSpace: 'nowrap',
  background: vars.color.primarySoft,
  color: vars.color.success,
});
export const endButton = style([ui.smallButton, { flexShrink: 0 }]);
export const stale = style({ display: 'grid', gap: vars.space.sm });
