import { createVar, globalStyle, keyframes, style, styleVariants } from '@vanilla-extract/css';
import * as ui from '../components/ui/ui.css.ts';
import { vars } from '../styles/theme.css.ts';
import { inColumn } from '../styles/layout.ts';

/** The transparent border above and below a chip's 32 px pill that makes it a 44 px target. */
const CHIP_AIR = 6;

export const profit = styleVariants({
  up: { color: vars.color.up },
  down: { color: vars.color.down },
  flat: { color: vars.color.text },
});

const badgeBase = style({
  display: 'inline-block',
  padding: '2px 8px',
  borderRadius: 10,
  fontSize: 12,
  fontWeight: 600,
  whiteSpace: 'nowrap',
});
export const badge = styleVariants({
  running: [badgeBase, { background: vars.color.primarySoft, color: vars.color.success }],
  paused: [badgeBase, { background: vars.color.surfaceAlt, color: vars.color.warning }],
  stopped: [badgeBase, { background: vars.color.surfaceAlt, color: vars.color.textMuted }],
});

// A row of chips: a <div> (tabs, a radio group) or a <fieldset> (a group of toggles), so fieldset's own border, padding, margin and min-width are reset.
// Its chips are 44 px high to the finger and 32 px to the eye (chip below): the row's top margin puts the
// pills where the row begins. A row wider than the column scrolls inside itself, never the page, and
// shows no scrollbar (its track took the taps on the chips' lower edge); it still scrolls by touch,
// trackpad and shift + wheel, and fades at an edge with more chips behind it.
const fadeStart = createVar({ syntax: '<length>', inherits: false, initialValue: '0px' });
const fadeEnd = createVar({ syntax: '<length>', inherits: false, initialValue: '0px' });
// Driven by the row's own scrolling: at the start only the end fades, in the middle both, at the end only
// the start. A row that fits has no scroll range, its timeline is inactive and nothing fades. Browsers
// without scroll-driven animations scroll the row unfaded.
const edgeFade = keyframes({
  '0%': { vars: { [fadeStart]: '0px', [fadeEnd]: '28px' } },
  '8%': { vars: { [fadeStart]: '28px' } },
  '92%': { vars: { [fadeEnd]: '28px' } },
  '100%': { vars: { [fadeStart]: '28px', [fadeEnd]: '0px' } },
});
/** A box that scrolls sideways inside itself (a row of chips, a wide table), fading at an edge with more behind it. */
export const sideways = style({
  overflowX: 'auto',
  maskImage: `linear-gradient(to right, transparent, #000 ${fadeStart}, #000 calc(100% - ${fadeEnd}), transparent)`,
  animationName: edgeFade,
  animationTimingFunction: 'linear',
  animationFillMode: 'both',
  animationTimeline: 'scroll(self inline)',
});
/** A table wider than a phone's column, scrolling in its own box; its width never widens the card around it. */
export const wideTable = style([sideways, { contain: 'inline-size' }]);
export const chips = style([
  sideways,
  {
    display: 'flex',
    gap: vars.space.sm,
    scrollbarWidth: 'none',
    // With a mouse there are no taps to steal: a thin scrollbar to drag a row wider than the column.
    '@media': { '(pointer: fine)': { scrollbarWidth: 'thin' } },
    // 17 px from the pills to what follows, as between two stacked rows of chips.
    margin: `-${CHIP_AIR}px 0 calc(${vars.space.md} + 5px - ${CHIP_AIR}px)`,
    padding: 0,
    border: 0,
    minWidth: 0,
  },
]);
/**
 * Chips that wrap onto a second row instead of scrolling: a choice of a few (a DCA bot's five starts)
 * where every option should be seen at once. A scrolling row inside a form card sized the card to its
 * chips, wider than a phone.
 */
export const chipsWrap = style([chips, { flexWrap: 'wrap', overflowX: 'visible', rowGap: `calc(${vars.space.md} - 2 * ${CHIP_AIR}px)`, maskImage: 'none', animationName: 'none' }]);
const chosenChip = { backgroundColor: vars.color.primary, boxShadow: `inset 0 0 0 1px ${vars.color.primary}`, color: vars.color.primaryText };
/**
 * A chip: a toggle button (aria-pressed), a tab (aria-selected) or a radio (aria-checked) drawn filled when chosen.
 * 44 px high, the pill 32 of them: the 6 px above and below it are a transparent border (the background
 * stops at the padding), so the whole 44 px take the tap; the pill's line is an inset shadow.
 */
export const chip = style({
  flexShrink: 0,
  position: 'relative',
  display: 'inline-flex',
  alignItems: 'center',
  justifyContent: 'center',
  boxSizing: 'border-box',
  height: 44,
  minWidth: 44,
  padding: `0 ${vars.space.md}`,
  border: `${CHIP_AIR}px solid transparent`,
  borderLeftWidth: 0,
  borderRightWidth: 0,
  // Round ends on the 32 px pill: 16 px across, 16 + 6 down the outer edge (the border takes 6 of them).
  borderRadius: `16px / ${16 + CHIP_AIR}px`,
  backgroundClip: 'padding-box',
  boxShadow: `inset 0 0 0 1px ${vars.color.border}`,
  // The colour alone: the background shorthand would reset the clip above.
  backgroundColor: vars.color.surface,
  color: vars.color.text,
  fontSize: vars.font.small,
  whiteSpace: 'nowrap',
  cursor: 'pointer',
  selectors: {
    '&[aria-pressed="true"], &[aria-selected="true"], &[aria-checked="true"]': chosenChip,
  },
});
/** A chip that is the <label> of an <input type="radio"> (ui.coverInput): filled when its radio is checked, ringed when it has the keyboard's focus. */
export const chipOption = style([
  chip,
  {
    position: 'relative',
    display: 'inline-flex',
    alignItems: 'center',
    selectors: {
      '&:has(input:checked)': chosenChip,
      '&:has(input:focus-visible)': ui.focusRing,
    },
  },
]);

export const toolbar = style({ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: vars.space.sm, marginBottom: vars.space.md });
export const smallButton = ui.smallButton;
export const primarySmall = style([smallButton, { backgroundColor: vars.color.primary, boxShadow: `inset 0 0 0 1px ${vars.color.primary}`, color: vars.color.primaryText }]);

export const botCard = style({
  display: 'grid',
  gridTemplateColumns: 'auto 1fr',
  gap: vars.space.md,
  alignItems: 'start',
  background: vars.color.surface,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.lg,
  padding: vars.space.md,
  marginBottom: vars.space.sm,
});
export const botLink = style({ color: 'inherit', textDecoration: 'none', display: 'block', minWidth: 0 });
export const botHead = style({ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: vars.space.sm, marginBottom: vars.space.xs });
export const botTitle = style({ fontWeight: 600, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' });
/**
 * A stat grid: equal columns while the figures fit, and a figure too wide for its column moves to the
 * next line whole; a number never breaks (at 320 px "12,345.67" was cut after "12,345.").
 */
export const figures = style({ display: 'flex', flexWrap: 'wrap', gap: vars.space.xs });
// At most three a row (a basis of 30 %); a column never narrower than its number.
globalStyle(`${figures} > *`, { flex: '1 1 30%', minWidth: 'min-content' });
export const figure = style({ minWidth: 'min-content' });
export const figureValue = style({ fontWeight: 600, fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' });
export const figureLabel = style({ color: vars.color.textMuted, fontSize: 12 });
export const checkbox = style({ width: 22, height: 22, marginTop: 2, accentColor: vars.color.primary });
export const errorLine = style({ color: vars.color.danger, fontSize: 12, marginTop: vars.space.xs });

export const batchBar = style({
  position: 'fixed',
  ...inColumn,
  bottom: 60,
  zIndex: 6,
  display: 'flex',
  gap: vars.space.xs,
  overflowX: 'auto',
  padding: vars.space.sm,
  background: vars.color.surface,
  borderTop: `1px solid ${vars.color.border}`,
});

export const table = style({ width: '100%', borderCollapse: 'collapse', fontSize: 12, fontVariantNumeric: 'tabular-nums' });
globalStyle(`${table} th`, { color: vars.color.textMuted, fontWeight: 500, textAlign: 'right', padding: '4px 2px' });
globalStyle(`${table} td`, { textAlign: 'right', padding: '6px 2px', borderTop: `1px solid ${vars.color.border}` });
globalStyle(`${table} th:first-child, ${table} td:first-child`, { textAlign: 'left' });

export const sectionTitle = style({ margin: `0 0 ${vars.space.sm}`, fontSize: vars.font.size, fontWeight: 600 });
export const row = style({ display: 'flex', justifyContent: 'space-between', gap: vars.space.md, padding: '4px 0' });
export const grid2 = style({ display: 'grid', gridTemplateColumns: '1fr 1fr', gap: vars.space.md });
export const big = style({ fontSize: 24, fontWeight: 700, fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' });
export const chart = style({ height: 240, margin: `0 calc(-1 * ${vars.space.sm})` });
/**
 * A row of buttons: equal widths while their words fit; a button whose words need more takes that width
 * (never more than the row), the others share the rest, and a row too narrow wraps. Equal grid columns
 * ran "Add / close" and "Withdraw" past their borders at 320 px.
 */
export const actions = style({ display: 'flex', flexWrap: 'wrap', gap: vars.space.sm, marginBottom: vars.space.md });
globalStyle(`${actions} > *`, { flex: '1 1 0', minWidth: 'fit-content' });
export const logItem = style({ padding: `${vars.space.sm} 0` });
globalStyle(`${logItem} + ${logItem}`, { borderTop: `1px solid ${vars.color.border}` });
export const switchRow = style({ display: 'flex', alignItems: 'center', justifyContent: 'space-between', minHeight: 44, marginBottom: vars.space.md });
export const progress = style({ width: '100%', height: 8, accentColor: vars.color.primary });
export const select = style({
  width: '100%',
  height: 48,
  padding: `0 ${vars.space.md}`,
  borderRadius: vars.radius.md,
  border: `1px solid ${vars.color.border}`,
  background: vars.color.surface,
  color: vars.color.text,
});
export const bar = style({ display: 'flex', alignItems: 'flex-end', gap: 2, height: 80 });
export const barCol = style({ flex: 1, minWidth: 2, borderRadius: 2 });
export const pager = style({ display: 'flex', justifyContent: 'center', gap: vars.space.md, alignItems: 'center', margin: `${vars.space.md} 0` });
export const spacer = style({ height: vars.space.md });
export const dangerSmall = style([smallButton, { color: vars.color.danger, boxShadow: `inset 0 0 0 1px ${vars.color.danger}` }]);
export const offline = style({
  margin: `0 0 ${vars.space.md}`,
  padding: `${vars.space.sm} ${vars.space.md}`,
  borderRadius: vars.radius.md,
  background: vars.color.surfaceAlt,
  color: vars.color.warning,
  fontSize: vars.font.small,
  fontWeight: 600,
});

// Variants of the blocks above, for the places that need a little more or less of them.
export const plainList = style({ listStyle: 'none', margin: 0, padding: 0 });
export const rowTight = style([row, { padding: 0 }]);
export const botCardSingle = style([botCard, { gridTemplateColumns: '1fr' }]);
export const numeric = style({ fontVariantNumeric: 'tabular-nums' });
export const chipLink = style([chip, { display: 'inline-flex', alignItems: 'center', textDecoration: 'none' }]);
/** ui.muted text with the paragraph's top or bottom margin dropped. */
export const mutedTight = styleVariants({
  top: [ui.muted, { marginTop: 0 }],
  bottom: [ui.muted, { marginBottom: 0 }],
});

// A link drawn as a button: a <button> centres its label by itself, a link needs a grid to do it.
const centred = { display: 'grid', placeItems: 'center', textDecoration: 'none' } as const;
export const linkButton = styleVariants({
  primary: [ui.button.primary, centred],
  secondary: [ui.button.secondary, centred],
});
export const smallLink = style([smallButton, centred]);
export const primarySmallLink = style([primarySmall, centred]);

/** A dialog's choice between options (radios with a line of explanation each), e.g. what a stop does with the coins. */
export const stopChoice = style({ border: 0, padding: 0, margin: `0 0 ${vars.space.lg}`, display: 'grid', gap: vars.space.sm });
export const choice = style({
  display: 'grid',
  gridTemplateColumns: 'auto 1fr',
  gap: vars.space.sm,
  alignItems: 'start',
  minHeight: 44,
  padding: vars.space.sm,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.md,
  cursor: 'pointer',
  selectors: { '&:has(input:checked)': { borderColor: vars.color.primary, background: vars.color.primarySoft } },
});
globalStyle(`${choice} > span`, { display: 'grid', gap: 2 });
