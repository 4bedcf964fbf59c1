import { z } from 'zod';
import { decimal } from '../core/param-fields.ts';

/** A martin bot's parameters (rules.ts has their meaning; percentages as "2" for 2%). */
export const martinParamsSchema = z.strictObject({
  investment: decimal,
  firstOrder: decimal,
  multiplier: decimal,
  maxPositions: z.number().int(),
  addTrigger: decimal,
  takeProfit: decimal,
  stopLoss: z.union([z.literal(''), decimal]).optional(),
  repeat: z.boolean(),
  /** Trailing take profit's fall from the high, percent ('' or absent: off; strategy/martin/README.md). */
  trailingDeviation: z.union([z.literal(''), decimal]).optional(),
  /** The stop loss trails the high since the entry (needs stopLoss). */
  trailingStop: z.boolean().optional(),
});
export type MartinParamsInput = z.output<typeof martinParamsSchema>;
