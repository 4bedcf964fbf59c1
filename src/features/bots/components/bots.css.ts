import { createVar, globalStyle, style, styleVariants } from '@vanilla-extract/css';
import * as ui from '../../../components/ui/ui.css.ts';
import * as blocks from '../../../shared/blocks.css.ts';
import { vars } from '../../../styles/theme.css.ts';

/** The round "+" in the strategy list's header: a square small button. */
// 44 px square, like the header's other buttons (the back arrow): a whole tap target.
export const createIcon = style([blocks.primarySmallLink, { width: 44, height: 44, padding: 0, borderWidth: 0, borderRadius: vars.radius.md }]);
export const selectAll = style([blocks.checkbox, { verticalAlign: 'middle', marginRight: 6 }]);
export const bindLink = style([blocks.linkButton.secondary, { marginBottom: vars.space.sm }]);
export const gridLink = style([blocks.linkButton.secondary, { marginTop: vars.space.sm }]);
/** While selecting, the fixed batch bar covers the list's end: room for it below. */
export const botList = styleVariants({
  plain: [blocks.plainList],
  selecting: [blocks.plainList, { paddingBottom: 64 }],
});

export const grid2Spaced = style([blocks.grid2, { marginBottom: vars.space.md }]);
export const progress = style([blocks.progress, { marginTop: vars.space.sm }]);
export const backtestResult = style({ marginTop: vars.space.md });
export const riskLabel = style([ui.label, { marginBottom: 6 }]);
export const aiNote = style([ui.muted, { margin: `${vars.space.xs} 0 ${vars.space.sm}` }]);
export const rowSpaced = style([blocks.row, { marginTop: vars.space.sm }]);
/** "620 USDT / 1,000" beside its label: the label wraps, the figure stays on one line (at 320 px it broke after "USDT /"). */
export const levelsTotal = style({ whiteSpace: 'nowrap', textAlign: 'right' });

/** Home cards that are links: the card's look, not a link's colour. */
export const billCard = style([ui.card, blocks.grid2, { display: 'grid', color: 'inherit', textDecoration: 'none' }]);
/** The total PnL line under a bill's two figures, across both columns. */
export const totalPnl = style({ gridColumn: '1 / -1', fontSize: vars.font.small, marginTop: vars.space.xs });
export const cardLink = style([ui.card, { display: 'block', color: 'inherit', textDecoration: 'none' }]);
export const figures4 = style([blocks.figures]);
globalStyle(`${figures4} > *`, { flexBasis: '20%' });
export const figuresSpaced = style([blocks.figures, { marginBottom: vars.space.sm }]);
export const cardMeta = style([blocks.figureLabel, { marginBottom: 6 }]);

export const simBalances = style([blocks.plainList, { margin: `${vars.space.sm} 0` }]);
export const simActions = style([blocks.actions, { margin: `${vars.space.sm} 0` }]);

/** The bill's daily bars: the height is each day's profit against the period's peak. */
export const barHeight = createVar();
const barBase = style([blocks.barCol, { height: barHeight }]);
export const barCol = styleVariants({
  up: [barBase, { background: vars.color.up }],
  down: [barBase, { background: vars.color.down }],
  flat: [barBase, { background: vars.color.border }],
});
export const chipsSpaced = style([blocks.chips, { marginTop: vars.space.md }]);

export const plainFieldset = style({ border: 0, padding: 0, margin: 0 });
export const equityChart = style([blocks.chart, { height: 200 }]);

/** The free balance under the investment field, and the warning when the bot needs more. */
export const availableHint = style({ display: 'grid', gap: 2, marginTop: -8, marginBottom: vars.space.md });
export const availableShort = style({ color: vars.color.danger, fontSize: vars.font.small });
/** The martin form's warning that a trailing take profit's deviation can sell below the take profit (and at a loss). */
export const trailingWarning = style({ color: vars.color.danger, fontSize: vars.font.small, margin: `0 0 ${vars.space.xs}` });
/** The trailing take profit's rule and worst sale under its field. */
export const trailingNote = style([ui.muted, { margin: `0 0 ${vars.space.md}` }]);

// The all-bots log's date filters, two to a row: a date input's own width never pushes out of the card.
export const dateField = style([ui.field, { minWidth: 0 }]);
export const dateInput = style([ui.input, { minWidth: 0, boxSizing: 'border-box', padding: `0 ${vars.space.sm}` }]);
/** The bot list's tools (bill, logs, positions, ...): a row of chips beside the batch button, scrolling when narrow. */
export const toolChips = style([blocks.chips, { flex: 1, margin: 0 }]);

// The martin levels table: six columns at 320 px, so a header never wraps (it broke "Take-profit price"
// at its hyphen); its texts are short enough to stay on one line.
export const levelTable = style({});
globalStyle(`${levelTable} th`, { whiteSpace: 'nowrap' });

/** A bot's state said in words where its figures alone would mislead (a grid out of its range). */
export const stateNote = style({
  color: vars.color.warning,
  background: vars.color.surfaceAlt,
  borderRadius: vars.radius.md,
  padding: vars.space.md,
  margin: `${vars.space.sm} 0`,
  fontSize: vars.font.small,
  lineHeight: 1.5,
});

/** A custom bot's indicators under its chart: one line each, what it is, its levels, where it is drawn. */
export const indicatorLegend = style({ listStyle: 'none', margin: `${vars.space.sm} 0 0`, padding: 0, display: 'grid', gap: vars.space.xs, fontSize: vars.font.small });
