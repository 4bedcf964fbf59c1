/** The parameters a trader sets for a martin bot (strings: exact decimals, percentages as "2" for 2%). */
export interface MartinParams {
  /** Quote currency set aside for the whole cycle. */
  investment: string;
  /** Quote spent by the first order. */
  firstOrder: string;
  /** Each add spends the previous order's quote times this. */
  multiplier: string;
  /** Orders in a cycle, the first one included. */
  maxPositions: number;
  /** Add when the price falls this many percent below the last fill. */
  addTrigger: string;
  /** Close when the price is this many percent above the average entry. */
  takeProfit: string;
  /** Close at a loss when the price is this many percent below the average entry; absent: never. */
  stopLoss?: string | undefined;
  /** Start a new cycle after one closes. */
  repeat: boolean;
  /**
   * Trailing take profit: reaching the take-profit price arms it, and the sale fires when the price falls
   * this many percent from the high since (README.md); absent or '': sell at the take-profit price.
   */
  trailingDeviation?: string | undefined;
  /** The stop loss follows the high since the entry (stop = high x (1 - stopLoss%)); needs stopLoss. Absent: off. */
  trailingStop?: boolean | undefined;
}

/** Bounds the product sets on the parameters (the spec leaves numeric bounds open). */
export const martinBounds = {
  maxPositions: { min: 1, max: 30 },
  multiplier: { min: '1', max: '10' },
  addTrigger: { min: '0.1', max: '50' },
  takeProfit: { min: '0.1', max: '100' },
  stopLoss: { min: '0.1', max: '99' },
  trailingDeviation: { min: '0.1', max: '20' },
} as const;
