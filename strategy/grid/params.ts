import { z } from 'zod';
import { decimal } from '../core/param-fields.ts';

/** A grid bot's parameters (rules.ts and README.md have their meaning). */
export const gridParamsSchema = z.strictObject({
  investment: decimal,
  lower: decimal,
  upper: decimal,
  grids: z.number().int(),
  spacing: z.enum(['arithmetic', 'geometric']),
  stopLoss: z.union([z.literal(''), decimal]).optional(),
  takeProfit: z.union([z.literal(''), decimal]).optional(),
  /** Trailing take profit's fall from the high, percent ('' or absent: off; needs takeProfit; strategy/grid/README.md). */
  trailingDeviation: z.union([z.literal(''), decimal]).optional(),
  /** The stop loss trails the high since the start (needs stopLoss). */
  trailingStop: z.boolean().optional(),
});
export type GridParamsInput = z.output<typeof gridParamsSchema>;
