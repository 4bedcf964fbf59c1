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
}

/** Bounds the product sets (the spec leaves numeric bounds open). */
export const gridBounds = { grids: { min: 2, max: 150 } } as const;
