import { globalStyle, style, styleVariants } from '@vanilla-extract/css';
import * as ui from '../../../components/ui/ui.css.ts';
import { vars } from '../../../styles/theme.css.ts';

const last = { selectors: { '&:last-child': { marginBottom: 0 } } };
export const head = style({ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: vars.space.sm, marginBottom: vars.space.sm });
export const title = style({ margin: 0, fontSize: 16, fontWeight: 600 });
/** A title with no badge beside it: the space below it is its own. */
export const titleAlone = style([title, { marginBottom: vars.space.sm }]);
export const text = style({ margin: `0 0 ${vars.space.md}`, lineHeight: 1.6, ...last });
export const small = style({ margin: `0 0 ${vars.space.md}`, lineHeight: 1.5, color: vars.color.textMuted, fontSize: vars.font.small, ...last });
export const steps = style({ margin: `0 0 ${vars.space.md}`, paddingLeft: vars.space.xl, display: 'grid', gap: vars.space.xs, lineHeight: 1.5 });
export const warning = style({
  color: vars.color.warning,
  background: vars.color.surfaceAlt,
  borderRadius: vars.radius.md,
  padding: vars.space.md,
  margin: `0 0 ${vars.space.md}`,
  lineHeight: 1.5,
  fontSize: vars.font.small,
  ...last,
});

const badgeBase = style({ display: 'inline-block', padding: '2px 10px', borderRadius: 10, fontSize: 12, fontWeight: 600, whiteSpace: 'nowrap' });
export const badge = styleVariants({
  on: [badgeBase, { background: vars.color.primarySoft, color: vars.color.success }],
  off: [badgeBase, { background: vars.color.surfaceAlt, color: vars.color.textMuted }],
});

/** A labelled on/off switch, a whole row to tap (48 px). */
export const switchRow = style({
  display: 'flex',
  alignItems: 'center',
  gap: vars.space.md,
  width: '100%',
  minHeight: 48,
  margin: `0 0 ${vars.space.sm}`,
  padding: 0,
  border: 0,
  background: 'transparent',
  color: vars.color.text,
  textAlign: 'left',
  cursor: 'pointer',
  selectors: { '&:disabled': { cursor: 'default', opacity: 0.6 } },
});
export const switchLabel = style({ flex: 1, fontWeight: 500 });
export const track = style({ width: 48, height: 28, borderRadius: 14, background: vars.color.border, position: 'relative', flexShrink: 0, transition: 'background 150ms' });
export const trackOn = style([track, { background: vars.color.primary }]);
export const thumb = style({ position: 'absolute', top: 3, left: 3, width: 22, height: 22, borderRadius: '50%', background: '#fff', transition: 'transform 150ms' });
export const thumbOn = style([thumb, { transform: 'translateX(20px)' }]);

/** One kind per row: its name (wrapping) and the three-way choice beside it. */
export const kinds = style({ listStyle: 'none', margin: 0, padding: 0 });
export const kind = style({ display: 'flex', alignItems: 'center', gap: vars.space.sm, padding: `${vars.space.sm} 0` });
globalStyle(`${kinds} > li + li`, { borderTop: `1px solid ${vars.color.border}` });
export const kindText = style({ flex: 1, minWidth: 0, display: 'grid', gap: 2 });
export const kindName = style({ lineHeight: 1.4 });
export const kindNote = style({ color: vars.color.textMuted, fontSize: 12, lineHeight: 1.4 });

/** A segmented choice of three: 44 px high to tap, drawn as one 32 px pill. */
export const segmented = style({ display: 'flex', flexShrink: 0, margin: 0, padding: 0, border: 0 });
export const segment = style({
  position: 'relative',
  display: 'inline-flex',
  alignItems: 'center',
  justifyContent: 'center',
  boxSizing: 'border-box',
  height: 44,
  // 48, not 44: a tap 21.5 px right of a 44 px segment's centre fell on its neighbour after rounding.
  minWidth: 48,
  padding: `0 ${vars.space.md}`,
  border: '6px solid transparent',
  borderLeftWidth: 0,
  borderRightWidth: 0,
  backgroundClip: 'padding-box',
  backgroundColor: vars.color.surfaceAlt,
  color: vars.color.text,
  fontSize: vars.font.small,
  whiteSpace: 'nowrap',
  cursor: 'pointer',
  selectors: {
    '&:first-child': { borderRadius: '8px 0 0 8px' },
    '&:last-child': { borderRadius: '0 8px 8px 0' },
    '&:has(input:checked)': { backgroundColor: vars.color.primary, color: vars.color.primaryText, fontWeight: 600 },
    '&:has(input:focus-visible)': ui.focusRing,
    '&:has(input:disabled)': { cursor: 'default', opacity: 0.6 },
  },
});

export const times = style({ display: 'grid', gridTemplateColumns: '1fr 1fr', gap: vars.space.md });
export const actions = style({ display: 'grid', gridTemplateColumns: '1fr 1fr', gap: vars.space.md });

const mono = 'ui-monospace, SFMono-Regular, Menlo, monospace';
export const code = style({ fontFamily: mono, fontSize: 12, overflowWrap: 'anywhere' });
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
export const secret = style({ fontFamily: mono, fontSize: 13, overflowWrap: 'anywhere', lineHeight: 1.5, minWidth: 0 });
export const copyButton = ui.smallButton;
export const current = style({ fontFamily: mono, fontSize: vars.font.small, overflowWrap: 'anywhere', margin: `0 0 ${vars.space.md}` });
