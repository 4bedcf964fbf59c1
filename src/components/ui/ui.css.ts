import { globalStyle, style, styleVariants } from '@vanilla-extract/css';
import { vars } from '../../styles/theme.css.ts';

export const page = style({ padding: `0 ${vars.space.lg} ${vars.space.xl}`, minHeight: '100dvh' });

export const header = style({
  position: 'sticky',
  top: 0,
  zIndex: 5,
  display: 'grid',
  // The title stays centred; the sides share the rest, so a wider action (全部已读 / Mark all read) fits.
  gridTemplateColumns: 'minmax(44px, 1fr) auto minmax(44px, 1fr)',
  columnGap: vars.space.xs,
  alignItems: 'center',
  height: 48,
  margin: `0 calc(-1 * ${vars.space.lg}) ${vars.space.md}`,
  padding: `0 ${vars.space.xs}`,
  background: vars.color.bg,
});
globalStyle(`${header} > :last-child`, { justifySelf: 'end' });
export const headerTitle = style({ margin: 0, textAlign: 'center', fontSize: vars.font.title, fontWeight: 600 });
export const iconButton = style({
  display: 'grid',
  placeItems: 'center',
  width: 44,
  height: 44,
  border: 0,
  background: 'transparent',
  color: vars.color.text,
  cursor: 'pointer',
  borderRadius: vars.radius.md,
});

export const card = style({
  background: vars.color.surface,
  borderRadius: vars.radius.lg,
  border: `1px solid ${vars.color.border}`,
  padding: vars.space.lg,
  marginBottom: vars.space.md,
});

export const field = style({ display: 'grid', gap: vars.space.xs, marginBottom: vars.space.md });
export const label = style({ fontSize: vars.font.small, color: vars.color.textMuted });
export const input = style({
  width: '100%',
  height: 48,
  padding: `0 ${vars.space.md}`,
  borderRadius: vars.radius.md,
  border: `1px solid ${vars.color.border}`,
  background: vars.color.surface,
  color: vars.color.text,
  outline: 'none',
  selectors: {
    '&:focus': { borderColor: vars.color.primary, boxShadow: `0 0 0 3px ${vars.color.primarySoft}` },
    '&[aria-invalid="true"]': { borderColor: vars.color.danger },
    '&:read-only': { background: vars.color.surfaceAlt },
  },
});
export const fieldError = style({ color: vars.color.danger, fontSize: vars.font.small, minHeight: 0 });
export const formError = style({
  color: vars.color.danger,
  background: vars.color.surfaceAlt,
  borderRadius: vars.radius.md,
  padding: vars.space.md,
  marginBottom: vars.space.md,
  fontSize: vars.font.small,
});

/** A load that failed: what failed, and the retry beside it (or under it, when the words are long). */
export const loadFailed = style([formError, { display: 'flex', flexWrap: 'wrap', alignItems: 'center', justifyContent: 'space-between', gap: vars.space.sm }]);

const buttonBase = style({
  width: '100%',
  height: 48,
  border: 0,
  borderRadius: vars.radius.md,
  fontWeight: 600,
  cursor: 'pointer',
  selectors: { '&:disabled': { opacity: 0.6, cursor: 'default' } },
});
export const button = styleVariants({
  primary: [buttonBase, { background: vars.color.primary, color: vars.color.primaryText }],
  secondary: [buttonBase, { background: vars.color.surfaceAlt, color: vars.color.text }],
  danger: [buttonBase, { background: 'transparent', color: vars.color.danger, border: `1px solid ${vars.color.danger}` }],
});

export const list = style({
  listStyle: 'none',
  margin: `0 0 ${vars.space.md}`,
  padding: 0,
  background: vars.color.surface,
  borderRadius: vars.radius.lg,
  border: `1px solid ${vars.color.border}`,
  overflow: 'hidden',
});
export const listRow = style({
  display: 'flex',
  alignItems: 'center',
  gap: vars.space.md,
  minHeight: 52,
  padding: `0 ${vars.space.lg}`,
  color: vars.color.text,
  width: '100%',
  border: 0,
  background: 'transparent',
  textAlign: 'left',
  cursor: 'pointer',
});
globalStyle(`${list} > li + li`, { borderTop: `1px solid ${vars.color.border}` });
export const listLabel = style({ flex: 1 });
export const listValue = style({ color: vars.color.textMuted, fontSize: vars.font.small, overflowWrap: 'anywhere', textAlign: 'right' });
export const muted = style({ color: vars.color.textMuted, fontSize: vars.font.small });
/**
 * A small text link (全部 ›, 详情 ›, a toolbar's links): its line to the eye, a 44 px high hit area to
 * the finger (the ::after reaches 13 px above and below, 6 px to the sides).
 */
export const textLink = style({
  position: 'relative',
  selectors: { '&::after': { content: '""', position: 'absolute', inset: '-13px -6px' } },
});
export const mutedLink = style([muted, textLink]);
export const spacer = style({ height: vars.space.lg });
export const linkButton = style({
  border: 0,
  padding: 0,
  background: 'transparent',
  color: 'inherit',
  textDecoration: 'underline',
  cursor: 'pointer',
});

/** The transparent border above and below a small button's 36 px face that makes it a 44 px target. */
const SMALL_AIR = 4;
/**
 * A small secondary button (copy, all, mark all read): 44 px high to the finger, 36 px outlined to the
 * eye. The 4 px above and below the face are a transparent border (the fill stops at the padding), so
 * the whole 44 px take the tap; the outline is an inset shadow. A variant colours that shadow, and its
 * fill through backgroundColor: the background shorthand would reset the clip.
 */
export const smallButton = style({
  position: 'relative',
  boxSizing: 'border-box',
  height: 44,
  padding: `0 ${vars.space.md}`,
  border: `${SMALL_AIR}px solid transparent`,
  borderLeftWidth: 0,
  borderRightWidth: 0,
  borderRadius: `${vars.radius.md} / calc(${vars.radius.md} + ${SMALL_AIR}px)`,
  backgroundClip: 'padding-box',
  boxShadow: `inset 0 0 0 1px ${vars.color.border}`,
  backgroundColor: vars.color.surface,
  color: vars.color.text,
  fontSize: vars.font.small,
  cursor: 'pointer',
  whiteSpace: 'nowrap',
  selectors: {
    '&:disabled': { opacity: 0.5, cursor: 'default' },
  },
});

/** Text hidden from sight but read by assistive technology. */
export const visuallyHidden = style({
  position: 'absolute',
  width: 1,
  height: 1,
  margin: -1,
  padding: 0,
  border: 0,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  clipPath: 'inset(50%)',
  whiteSpace: 'nowrap',
});
/**
 * A radio drawn by its <label> (a chip, a list row): the input covers the whole label, transparent, so a
 * tap anywhere on the label lands on the radio itself; the label is `position: relative` (radioLabel).
 */
export const coverInput = style({ position: 'absolute', inset: 0, width: '100%', height: '100%', margin: 0, opacity: 0, cursor: 'pointer', appearance: 'none' });
/** The keyboard focus ring a button shows by itself, for a <label> whose transparent input has the focus. */
export const focusRing = { outline: ['2px solid Highlight', '-webkit-focus-ring-color auto 1px'] };
/** A list row that is the <label> of a radio (coverInput), ringed when the radio has the keyboard's focus. */
export const listRadioRow = style([listRow, { position: 'relative', selectors: { '&:has(input:focus-visible)': focusRing } }]);
