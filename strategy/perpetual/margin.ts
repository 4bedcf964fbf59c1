import type Decimal from 'decimal.js';
import { maintenanceMargin, type MarginTier } from './tiers.ts';

/**
 * An isolated-margin position of a USDT-margined perpetual in one-way mode (README.md "Isolated margin"):
 * its size in the base (always positive; the side says which way), its average entry price, and the margin
 * set aside for it alone (what opened it, plus margin added, less margin removed, plus funding received,
 * less funding paid). Nothing else of the account can be lost with it.
 */
export interface IsolatedPosition {
  side: 'long' | 'short';
  size: Decimal;
  entry: Decimal;
  margin: Decimal;
}

const sign = (p: IsolatedPosition) => (p.side === 'long' ? 1 : -1);

/** The position's unrealised profit at a price (the mark's, for liquidation and the screens). */
export function unrealisedPnl(p: IsolatedPosition, price: Decimal): Decimal {
  return price.minus(p.entry).mul(p.size).mul(sign(p));
}

/**
 * The price at which the position's margin and unrealised profit fall to its maintenance margin:
 * `(margin + amount - s x size x entry) / (size x rate - s x size)`, s = 1 long, -1 short, with the rate
 * and amount of the tier of the notional **at that price** (size x price), which may be a lower one than
 * the entry's for a long, a higher one for a short. Exact (the screens round it to the tick); null when
 * no price liquidates it (a long whose margin covers its whole notional).
 */
export function liquidationPrice(p: IsolatedPosition, tiers: readonly MarginTier[]): Decimal | null {
  const s = sign(p);
  for (const tier of tiers) {
    const price = p.margin
      .plus(tier.amount)
      .minus(p.size.mul(p.entry).mul(s))
      .div(p.size.mul(tier.rate).minus(p.size.mul(s)));
    if (price.lte(0)) continue;
    const notional = p.size.mul(price);
    const above = tier.floor.isZero() || notional.gt(tier.floor);
    if (above && (tier.cap === null || notional.lte(tier.cap))) return price;
  }
  return null;
}

/** The price at which the margin is all lost (the position's value at it is exactly what it owes): a liquidation closes there. */
export function bankruptcyPrice(p: IsolatedPosition): Decimal {
  return p.entry.minus(p.margin.div(p.size).mul(sign(p)));
}

/**
 * Maintenance margin over what the position holds (margin + unrealised profit) at the mark: liquidated at
 * 1 (100 %) or more; null when nothing is left (past its bankruptcy price).
 */
export function marginRatio(p: IsolatedPosition, mark: Decimal, tiers: readonly MarginTier[]): Decimal | null {
  const equity = p.margin.plus(unrealisedPnl(p, mark));
  return equity.lte(0) ? null : maintenanceMargin(tiers, p.size.mul(mark)).div(equity);
}

/** Whether the mark liquidates the position: what it holds there is no more than its maintenance margin. */
export function liquidatedAt(p: IsolatedPosition, mark: Decimal, tiers: readonly MarginTier[]): boolean {
  return p.margin.plus(unrealisedPnl(p, mark)).lte(maintenanceMargin(tiers, p.size.mul(mark)));
}
