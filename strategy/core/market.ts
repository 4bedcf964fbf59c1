import type Decimal from 'decimal.js';

/** What the market allows (from the exchange's market info) and what it charges. */
export interface MarketRules {
  /** Price increment. */
  tickSize: Decimal;
  /** Amount (base) increment. */
  stepSize: Decimal;
  /** Smallest order amount (base). */
  minAmount: Decimal;
  /** Smallest order cost (quote). */
  minCost: Decimal;
  /** Fee rate per fill (0.001 = 0.1%): a market order's, which takes the book's liquidity (the taker). */
  feeRate: Decimal;
  /** Fee rate of an order that rested on the book and was filled there (the maker); the taker's when absent. */
  makerFeeRate?: Decimal | undefined;
}

/** The fee rate of one fill: the maker's for an order that rested on the book, else the taker's. */
export function fillFeeRate(market: MarketRules, maker = false): Decimal {
  return maker ? (market.makerFeeRate ?? market.feeRate) : market.feeRate;
}
