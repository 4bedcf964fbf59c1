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
/** A toast's live region (role status or alert), around its button. */
export const item = style({ display: 'grid', justifyItems: 'center' });
/** The toast itself: a button (a tap dismisses it or does its action), drawn as a plain box of text. */
const base = style({
  display: 'block',
  maxWidth: 420,
  width: 'fit-content',
  margin: 0,
  border: 0,
  textAlign: 'start',
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
