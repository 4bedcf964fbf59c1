/** The parameters a trader sets for a grid bot (strings: exact decimals; percentages as "2" for 2%). */
export interface GridParams {
  /** Quote currency set aside for the whole grid. */
  investment: string;
  /** The lowest and highest grid prices. */
  lower: string;
  upper: string;
  /** Intervals between the lowest and the highest price: grids + 1 price levels. */
  grids: number;
  /** Equal price steps (arithmetic) or equal ratios (geometric). */
  spacing: 'arithmetic' | 'geometric';
  /** Sell everything and stop when the price falls to this; absent: never. */
  stopLoss?: string | undefined;
  /** Sell everything and stop when the price rises to this; absent: never. */
  takeProfit?: string | undefined;
  /**
   * Trailing take profit (README.md "Trailing exits"): reaching the take-profit price arms it, and the bot
   * sells everything and stops when the price falls this many percent from the high since; absent: off.
   */
  trailingDeviation?: string | undefined;
  /** The stop loss follows the high since the start, keeping its ratio to the start price (needs stopLoss). */
  trailingStop?: boolean | undefined;
}

/** Bounds the product sets (the spec leaves numeric bounds open). */
export const gridBounds = { grids: { min: 2, max: 150 }, trailingDeviation: { min: '0.1', max: '20' } } as const;
