import { style, styleVariants } from '@vanilla-extract/css';
import { vars } from '../../../styles/theme.css.ts';

export const strip = style({
  display: 'grid',
  gridAutoFlow: 'column',
  gridAutoColumns: '86%',
  gap: vars.space.md,
  overflowX: 'auto',
  scrollSnapType: 'x mandatory',
  marginBottom: vars.space.md,
  paddingBottom: 2,
  scrollbarWidth: 'none',
  // With a mouse (no swipe), a thin scrollbar to drag: the banners scroll on a desktop too.
  '@media': { '(pointer: fine)': { scrollbarWidth: 'thin', paddingBottom: vars.space.xs } },
});
const base = style({
  display: 'block',
  scrollSnapAlign: 'start',
  borderRadius: vars.radius.lg,
  padding: vars.space.lg,
  minHeight: 84,
  textDecoration: 'none',
  color: vars.color.text,
  border: `1px solid ${vars.color.border}`,
});
export const banner = styleVariants({
  blue: [base, { background: vars.color.primarySoft }],
  green: [base, { background: vars.color.surface, borderLeft: `4px solid ${vars.color.success}` }],
  orange: [base, { background: vars.color.surface, borderLeft: `4px solid ${vars.color.warning}` }],
});
export const title = style({ display: 'block', fontWeight: 700, marginBottom: 4 });
export const subtitle = style({ display: 'block', fontSize: vars.font.small, color: vars.color.textMuted, lineHeight: 1.4 });
