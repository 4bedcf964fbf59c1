import { style } from '@vanilla-extract/css';
import { vars } from '../../styles/theme.css.ts';

export const overlay = style({ position: 'fixed', inset: 0, background: vars.color.overlay, zIndex: 50 });
export const content = style({
  position: 'fixed',
  left: '50%',
  top: '50%',
  transform: 'translate(-50%, -50%)',
  width: 'min(92vw, 400px)',
  background: vars.color.surface,
  color: vars.color.text,
  borderRadius: vars.radius.lg,
  padding: vars.space.xl,
  zIndex: 51,
  boxShadow: '0 12px 40px rgba(0,0,0,0.3)',
});
export const title = style({ margin: `0 0 ${vars.space.sm}`, fontSize: vars.font.title });
export const description = style({ margin: `0 0 ${vars.space.lg}`, color: vars.color.textMuted });
export const actions = style({ display: 'grid', gridTemplateColumns: '1fr 1fr', gap: vars.space.md });
