import { style } from '@vanilla-extract/css';
import * as ui from '../../../components/ui/ui.css.ts';
import * as blocks from '../../../shared/blocks.css.ts';
import { vars } from '../../../styles/theme.css.ts';

/**
 * The custom bot's form: a condition is a compact card (left side, comparison, right
 * side stacked), never a wide row, so 5 of them read at 320 px; both themes through the theme's vars.
 */
export const condition = style({
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.md,
  background: vars.color.surfaceAlt,
  padding: vars.space.sm,
  marginBottom: vars.space.sm,
  minWidth: 0,
});
export const conditionHead = style({ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: vars.space.sm, marginBottom: vars.space.xs });
export const conditionTitle = style({ fontSize: vars.font.small, fontWeight: 600 });
/** A side: its kind, then its settings two to a row. */
export const side = style({ display: 'grid', gridTemplateColumns: 'repeat(2, minmax(0, 1fr))', gap: `0 ${vars.space.sm}`, alignItems: 'start' });
export const sideWide = style({ gridColumn: '1 / -1' });
export const compactField = style([ui.field, { marginBottom: vars.space.sm, minWidth: 0 }]);
export const compactSelect = style([blocks.select, { height: 44, minWidth: 0, padding: `0 ${vars.space.sm}` }]);
export const compactInput = style({ height: 44, minWidth: 0, padding: `0 ${vars.space.sm}` });
export const operator = style([compactSelect, { fontWeight: 600 }]);
export const removeButton = style([blocks.dangerSmall]);
export const addButton = style([blocks.smallButton, { width: '100%', marginBottom: vars.space.sm }]);
/** The rules in words: the trader reads what the bot will do before the backtest. */
export const explanation = style({
  margin: `0 0 ${vars.space.md}`,
  padding: vars.space.sm,
  borderRadius: vars.radius.md,
  background: vars.color.primarySoft,
  color: vars.color.text,
  fontSize: vars.font.small,
  overflowWrap: 'anywhere',
  display: 'grid',
  gap: 2,
});
export const explainLine = style({ margin: 0 });
export const ruleError = style([blocks.errorLine, { display: 'block', marginBottom: vars.space.sm }]);
