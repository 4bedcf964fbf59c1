import { style, styleVariants } from '@vanilla-extract/css';
import { vars } from '../../styles/theme.css.ts';

export const region = style({
  position: 'fixed',
  top: 'calc(env(safe-area-inset-top, 0px) + 12px)',
  left: 0,
  right: 0,
  zIndex: 100,
  display: 'grid',
  justifyItems: 'center',
  gap: vars.space.sm,
  pointerEvents: 'none',
  padding: `0 ${vars.space.lg}`,
});
const base = style({
  maxWidth: 420,
  width: 'fit-content',
  padding: `${vars.space.md} ${vars.space.lg}`,
  borderRadius: vars.radius.md,
  color: vars.color.toastText,
  fontSize: vars.font.size,
  lineHeight: 1.4,
  boxShadow: '0 6px 24px rgba(0,0,0,0.25)',
  pointerEvents: 'auto',
});
export const toast = styleVariants({
  success: [base, { background: vars.color.success }],
  error: [base, { background: vars.color.danger }],
  warning: [base, { background: vars.color.warning }],
  info: [base, { background: vars.color.info }],
});
