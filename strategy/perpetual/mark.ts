import type Decimal from 'decimal.js';
import { money } from '../money.ts';

/**
 * A perpetual's mark price (README.md "Three prices"): the median of
 * 1. the index x (1 + the last funding rate x the share of the interval left until the next funding),
 * 2. the index + the moving average of the basis (last - index),
 * 3. the last price.
 * A trade far from the index moves the last price alone, and one of three does not move a median: a
 * position is liquidated at the mark, never at a spike of the last price.
 */
export function markPrice(p: { index: Decimal; lastFunding: Decimal; untilFunding: Decimal; basisAverage: Decimal; last: Decimal }): Decimal {
  const fundingBasis = p.index.mul(money(1).plus(p.lastFunding.mul(p.untilFunding)));
  const [, middle] = [fundingBasis, p.index.plus(p.basisAverage), p.last].sort((a, b) => a.comparedTo(b));
  return middle!;
}
