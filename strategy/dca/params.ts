import { z } from 'zod';
import { decimal } from '../core/param-fields.ts';
import { customRuleSchema } from '../custom/params.ts';

/** When a DCA bot opens a deal (strategy/dca/rules.ts DcaStart; validateDca checks the time, weekday and offset, and the rule as the custom bot's). */
export const dcaStartSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('now') }),
  // Signals only: a deal opens on a buy signal from the webhook, never by itself.
  z.strictObject({ kind: z.literal('signal') }),
  z.strictObject({ kind: z.literal('schedule'), every: z.enum(['day', 'week']), weekday: z.number().int().optional(), time: z.string().max(5), utcOffset: z.number().int() }),
  // A rule in the custom bot's format (custom/params.ts customRuleSchema): a deal opens at a 1-minute close where it holds.
  z.strictObject({ kind: z.literal('indicator'), rule: customRuleSchema }),
]);
/** A DCA bot's parameters (strategy/dca/rules.ts and README.md have their meaning). */
export const dcaParamsSchema = z.strictObject({
  investment: decimal,
  baseOrder: decimal,
  safetyOrder: decimal,
  maxSafetyOrders: z.number().int(),
  deviation: decimal,
  stepScale: decimal,
  volumeScale: decimal,
  takeProfit: decimal,
  /** Trailing take profit's fall from the high, percent ('' or absent: off; strategy/dca/README.md). */
  trailingDeviation: z.union([z.literal(''), decimal]).optional(),
  stopLoss: z.union([z.literal(''), decimal]).optional(),
  /** The stop loss trails the high since the deal's base order (needs stopLoss; strategy/dca/README.md). */
  trailingStop: z.boolean().optional(),
  cooldown: z.number().int().optional(),
  start: dcaStartSchema,
});
export type DcaParamsInput = z.output<typeof dcaParamsSchema>;
