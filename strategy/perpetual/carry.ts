import type Decimal from 'decimal.js';
import { floorTo, money } from '../money.ts';

/**
 * A cash-and-carry position's figures (README.md "Carry"): spot bought and the same amount of the perpetual
 * sold short (positive carry, while funding is positive), or the other way round (reverse carry).
 */

/**
 * The annual rate a contract's funding pays a carry, as Binance's arbitrage list shows it: the last 3 days'
 * funding rates added up, per day, over a year, halved (the capital is split between the two legs):
 * `|sum of 3 days' rates| / 3 x 365 / 2`, a fraction (0.1095 = 10.95 %).
 */
export function carryApr(lastThreeDays: readonly Decimal[]): Decimal {
  const sum = lastThreeDays.reduce((s, r) => s.plus(r), money(0));
  return sum.abs().div(3).mul(365).div(2);
}

/**
 * How many funding intervals a carry must stay open to pay for its four fills (the spot and the perpetual
 * leg, each opened and closed at the taker's fee): `2 x (spot fee + perpetual fee) / expected rate`; null
 * when the expected rate pays nothing.
 */
export function breakEvenIntervals(spotFee: Decimal, perpetualFee: Decimal, expectedRate: Decimal): Decimal | null {
  if (expectedRate.isZero()) return null;
  return spotFee.plus(perpetualFee).mul(2).div(expectedRate.abs());
}

/**
 * The two legs' amounts for a wanted amount after each venue's lot rounding: the spot leg to its step,
 * the perpetual leg to its own step at or under the spot leg; what is left of the spot leg is unhedged
 * (the residual exposure the bot's detail shows).
 */
export function hedgedLegs(amount: Decimal, spotStep: Decimal, perpetualStep: Decimal): { spot: Decimal; perpetual: Decimal; residual: Decimal } {
  const spot = floorTo(amount, spotStep);
  const perpetual = floorTo(spot, perpetualStep);
  return { spot, perpetual, residual: spot.minus(perpetual) };
}
