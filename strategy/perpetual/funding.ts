import Decimal from 'decimal.js';
import { money } from '../money.ts';

/** The interest part of the funding rate, per 8 hours (0.01 %), and the clamp around it (±0.05 %). */
export const FUNDING_INTEREST_8H = money('0.0001');
export const FUNDING_CLAMP_8H = money('0.0005');

/**
 * The time-weighted average of a funding interval's premium samples, oldest first: the n-th sample weighs
 * n, so the premium near the funding time counts most: `sum(i x P_i) / sum(i)`.
 */
export function averagePremium(samples: readonly Decimal[]): Decimal {
  if (samples.length === 0) return money(0);
  let sum = money(0);
  samples.forEach((p, i) => {
    sum = sum.plus(p.mul(i + 1));
  });
  return sum.div((samples.length * (samples.length + 1)) / 2);
}

/**
 * A funding interval's rate (README.md "Funding"): `F = P + clamp(0.01 % - P, -0.05 %, +0.05 %)` per 8 hours,
 * P the interval's time-weighted premium, scaled to the contract's interval (x hours / 8), then capped by
 * the contract's own cap either way. A positive rate: longs pay shorts.
 */
export function fundingRate(premium: Decimal, intervalHours: number, cap: Decimal): Decimal {
  const gap = Decimal.min(Decimal.max(FUNDING_INTEREST_8H.minus(premium), FUNDING_CLAMP_8H.neg()), FUNDING_CLAMP_8H);
  const scaled = premium.plus(gap).mul(intervalHours).div(8);
  return Decimal.min(Decimal.max(scaled, cap.neg()), cap);
}

/**
 * What a position open at the funding time gets (positive) or pays (negative): `mark x size x rate`, paid by
 * longs to shorts when the rate is positive, the other way when it is negative.
 */
export function fundingPayment(side: 'long' | 'short', size: Decimal, mark: Decimal, rate: Decimal): Decimal {
  const amount = mark.mul(size).mul(rate);
  return side === 'long' ? amount.neg() : amount;
}
