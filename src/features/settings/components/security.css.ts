import { style, styleVariants } from '@vanilla-extract/css';
import * as ui from '../../../components/ui/ui.css.ts';
import { vars } from '../../../styles/theme.css.ts';

const mono = 'ui-monospace, SFMono-Regular, Menlo, monospace';

export const head = style({ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: vars.space.sm, marginBottom: vars.space.sm });
export const title = style({ margin: 0, fontSize: 16, fontWeight: 600 });
const last = { selectors: { '&:last-child': { marginBottom: 0 } } };
export const text = style({ margin: `0 0 ${vars.space.md}`, lineHeight: 1.6, color: vars.color.text, ...last });
export const small = style({ margin: `0 0 ${vars.space.md}`, lineHeight: 1.5, color: vars.color.textMuted, fontSize: vars.font.small, ...last });

const badgeBase = style({ display: 'inline-block', padding: '2px 10px', borderRadius: 10, fontSize: 12, fontWeight: 600, whiteSpace: 'nowrap' });
export const badge = styleVariants({
  on: [badgeBase, { background: vars.color.primarySoft, color: vars.color.success }],
  off: [badgeBase, { background: vars.color.surfaceAlt, color: vars.color.textMuted }],
});

export const stepTitle = style({ margin: `${vars.space.md} 0 ${vars.space.sm}`, fontSize: vars.font.size, fontWeight: 600 });
export const qrBox = style({ display: 'grid', placeItems: 'center', margin: `${vars.space.sm} 0 ${vars.space.md}` });
export const qr = style({ display: 'block', width: 180, height: 180, borderRadius: vars.radius.md, background: '#fff', padding: 6 });
export const qrWait = style({ width: 180, height: 180, borderRadius: vars.radius.md, background: vars.color.surfaceAlt });
export const secretRow = style({
  display: 'flex',
  alignItems: 'center',
  justifyContent: 'space-between',
  gap: vars.space.sm,
  padding: `${vars.space.sm} ${vars.space.md}`,
  borderRadius: vars.radius.md,
  background: vars.color.surfaceAlt,
  marginBottom: vars.space.md,
});
export const secret = style({ fontFamily: mono, fontSize: 14, letterSpacing: '0.04em', overflowWrap: 'anywhere', lineHeight: 1.5 });

export const warning = style({
  color: vars.color.warning,
  background: vars.color.surfaceAlt,
  borderRadius: vars.radius.md,
  padding: vars.space.md,
  marginBottom: vars.space.md,
  fontSize: vars.font.small,
  lineHeight: 1.5,
  fontWeight: 600,
});
export const codes = style({
  listStyle: 'none',
  margin: `0 0 ${vars.space.md}`,
  padding: vars.space.md,
  display: 'grid',
  gridTemplateColumns: '1fr 1fr',
  gap: `${vars.space.sm} ${vars.space.lg}`,
  borderRadius: vars.radius.md,
  border: `1px dashed ${vars.color.border}`,
  fontFamily: mono,
  fontSize: 16,
  letterSpacing: '0.06em',
  textAlign: 'center',
});
export const actions = style({ display: 'grid', gridTemplateColumns: '1fr 1fr', gap: vars.space.md });
export const stack = style({ display: 'grid', gap: vars.space.md });
export const tips = style({ margin: 0, paddingLeft: vars.space.xl, display: 'grid', gap: vars.space.xs, lineHeight: 1.5, color: vars.color.textMuted, fontSize: vars.font.small });
export const mono13 = style({ fontFamily: mono, fontSize: 13, overflowWrap: 'anywhere' });
export const done = style({ margin: `0 0 ${vars.space.md}`, color: vars.color.success, fontWeight: 600, ...last });
export const copyButton = style([ui.smallButton, { flexShrink: 0 }]);
