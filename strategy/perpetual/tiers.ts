import type Decimal from 'decimal.js';
import { money } from '../money.ts';

/**
 * A perpetual contract's maintenance margin ladder (README.md "Tiers"): the larger a position's notional,
 * the higher the share of it that must stay as margin, and the lower the leverage it may be opened at.
 */
export interface MarginTier {
  /** The notional (quote) above which the tier applies; the first tier's is 0. */
  floor: Decimal;
  /** The notional up to which it applies (inclusive); null: no cap (the last tier). */
  cap: Decimal | null;
  /** The highest leverage a position of this notional may have. */
  maxLeverage: number;
  /** The maintenance margin rate (a fraction: 0.004 = 0.40 %). */
  rate: Decimal;
  /**
   * The maintenance amount (quote): what makes the ladder continuous, so that the maintenance margin
   * `notional x rate - amount` does not jump at a tier's floor. The first tier's is 0; each next one's
   * is the last one's plus `floor x (rate - last rate)`.
   */
  amount: Decimal;
}

/** A ladder from its published rows (floor, cap, leverage, rate in percent); the maintenance amounts follow from the rates. */
export function ladder(rows: readonly (readonly [floor: string, cap: string | null, maxLeverage: number, ratePct: string])[]): MarginTier[] {
  const tiers: MarginTier[] = [];
  for (const [floor, cap, maxLeverage, ratePct] of rows) {
    const rate = money(ratePct).div(100);
    const last = tiers[tiers.length - 1];
    const amount = last ? last.amount.plus(money(floor).mul(rate.minus(last.rate))) : money(0);
    tiers.push({ floor: money(floor), cap: cap === null ? null : money(cap), maxLeverage, rate, amount });
  }
  return tiers;
}

/**
 * Binance's BTCUSDT perpetual ladder as its announcement "Updates to Leverage and Margin Tiers of Binance
 * Futures Contracts" of 2021-03-18 published it (positions in USDT notional; Binance changes its ladders
 * from time to time, and a live account reads its own through ccxt).
 */
export const BTCUSDT_TIERS: readonly MarginTier[] = ladder([
  ['0', '50000', 125, '0.40'],
  ['50000', '250000', 100, '0.50'],
  ['250000', '1000000', 50, '1.00'],
  ['1000000', '10000000', 20, '2.50'],
  ['10000000', '20000000', 10, '5.00'],
  ['20000000', '50000000', 5, '10.00'],
  ['50000000', '100000000', 4, '12.50'],
  ['100000000', '200000000', 3, '15.00'],
  ['200000000', '300000000', 2, '25.00'],
  ['300000000', '500000000', 1, '50.00'],
]);

/** The tier a notional falls in (above its floor, up to its cap; 0 in the first); past the last cap, the last. */
export function tierOf(tiers: readonly MarginTier[], notional: Decimal): MarginTier {
  const n = notional.abs();
  return tiers.find((t) => t.cap === null || n.lte(t.cap)) ?? tiers[tiers.length - 1]!;
}

/** The maintenance margin a position of this notional must keep: `notional x rate - amount` of its tier. */
export function maintenanceMargin(tiers: readonly MarginTier[], notional: Decimal): Decimal {
  const tier = tierOf(tiers, notional);
  return notional.abs().mul(tier.rate).minus(tier.amount);
}

/** The highest leverage a position of this notional may be opened or grown at (the tier of the notional it would have). */
export function maxLeverage(tiers: readonly MarginTier[], notional: Decimal): number {
  return tierOf(tiers, notional).maxLeverage;
}
