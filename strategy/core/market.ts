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
  /** Fee rate per fill (0.001 = 0.1%). */
  feeRate: Decimal;
}
