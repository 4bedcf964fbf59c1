import { z } from 'zod';
import { decimal, named } from '../core/param-fields.ts';

/** A buy-the-dip bot's parameters (README.md has their meaning; percentages as "3" for 3 %). */
export const dipParamsSchema = z.strictObject({
  /** The quote its one buy spends. */
  investment: decimal,
  /** How far below the price it started at the buy waits, percent. */
  dip: named(decimal, { zh: '下跌幅度', en: 'dip' }),
  /** The take profit over the buy's average price, percent. */
  takeProfit: decimal,
});
export type DipParamsInput = z.output<typeof dipParamsSchema>;
