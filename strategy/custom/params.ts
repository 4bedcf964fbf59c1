import { z } from 'zod';
import { decimal } from '../core/param-fields.ts';

/** A decimal that may be negative (a custom condition's number). */
const signedDecimal = z.string().regex(/^-?(0|[1-9]\d{0,17})(\.\d{1,18})?$/, 'format');
/** The candle lengths a custom condition reads (strategy/custom/rules.ts timeframes). */
export const customTimeframes = ['1m', '3m', '5m', '15m', '30m', '1h', '2h', '4h', '6h', '12h', '1d'] as const;
const customTimeframe = z.enum(customTimeframes);
const period = z.number().int();
/** One side of a custom condition (strategy/custom/rules.ts Operand; validateCustom checks the bounds). */
export const customOperandSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('price') }),
  z.strictObject({ kind: z.literal('value'), value: signedDecimal }),
  z.strictObject({ kind: z.literal('sma'), period, timeframe: customTimeframe }),
  z.strictObject({ kind: z.literal('ema'), period, timeframe: customTimeframe }),
  z.strictObject({ kind: z.literal('rsi'), period, timeframe: customTimeframe }),
  z.strictObject({ kind: z.literal('bb'), band: z.enum(['upper', 'middle', 'lower']), period, deviation: decimal, timeframe: customTimeframe }),
  z.strictObject({ kind: z.literal('macd'), line: z.enum(['macd', 'signal', 'histogram']), fast: period, slow: period, signal: period, timeframe: customTimeframe }),
  z.strictObject({ kind: z.literal('change'), period, timeframe: customTimeframe }),
]);
/** Up to 5 conditions joined by one AND or OR. */
export const customRuleSchema = z.strictObject({
  join: z.enum(['and', 'or']),
  conditions: z.array(z.strictObject({ left: customOperandSchema, op: z.enum(['>', '<', 'crossesAbove', 'crossesBelow']), right: customOperandSchema })).max(5),
});
/** A custom bot's parameters (strategy/custom/rules.ts CustomParams and README.md have their meaning). */
export const customParamsSchema = z.strictObject({
  investment: decimal,
  size: z.discriminatedUnion('kind', [z.strictObject({ kind: z.literal('fixed'), quote: decimal }), z.strictObject({ kind: z.literal('share'), percent: decimal })]),
  entry: customRuleSchema,
  /** Sell everything when it holds (null or absent: no exit rule). */
  exit: customRuleSchema.nullable().optional(),
  takeProfit: z.union([z.literal(''), decimal]).optional(),
  stopLoss: z.union([z.literal(''), decimal]).optional(),
  /** Trailing take profit's fall from the high, percent ('' or absent: off; needs takeProfit; strategy/custom/README.md). */
  trailingDeviation: z.union([z.literal(''), decimal]).optional(),
  /** The stop loss trails the high since the entry (needs stopLoss). */
  trailingStop: z.boolean().optional(),
  repeat: z.boolean(),
  /** Enter on buy signals only (the webhook): the entry rule is not checked and may have no condition. */
  signalsOnly: z.boolean().optional(),
});
export type CustomParamsInput = z.output<typeof customParamsSchema>;
