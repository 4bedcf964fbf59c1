import type Decimal from 'decimal.js';
import { money } from '../money.ts';
import type { IsolatedPosition } from './margin.ts';
import { maxLeverage, type MarginTier } from './tiers.ts';

/** A fill of a perpetual order: a buy grows a long or reduces a short, a sell the other way round. */
export interface PerpetualFill {
  side: 'buy' | 'sell';
  amount: Decimal;
  price: Decimal;
}

/** What a fill does to an isolated position and to the wallet beside it (fees are the venue's own line). */
export interface PositionChange {
  /** The position after the fill; null: flat. */
  position: IsolatedPosition | null;
  /** Profit realised by the part it closed, `(price - entry) x closed x s`: to the wallet. */
  realised: Decimal;
  /** Margin set aside from the wallet for what it opened: `opened x price / leverage`. */
  marginIn: Decimal;
  /** Margin given back to the wallet for what it closed: the position's margin in proportion. */
  marginOut: Decimal;
  /** What a reduce-only order could not fill (it may only close): the rest past the position's size. */
  unfilled: Decimal;
}

/**
 * A fill applied to a position in one-way mode (README.md "A position's fills"): on its side (or flat) it
 * grows it, at the average entry and with margin for the part opened at the leverage; against it, it
 * closes up to its size, realising that part's profit and freeing its share of the margin, and what is left
 * opens the other side, unless the order was reduce-only (the rest is then not filled).
 */
export function applyFill(position: IsolatedPosition | null, fill: PerpetualFill, leverage: number, reduceOnly = false): PositionChange {
  const zero = money(0);
  const grows = !position || (position.side === 'long') === (fill.side === 'buy');
  if (grows) {
    if (reduceOnly) return { position, realised: zero, marginIn: zero, marginOut: zero, unfilled: fill.amount };
    return { position: grow(position, fill, leverage), realised: zero, marginIn: fill.amount.mul(fill.price).div(leverage), marginOut: zero, unfilled: zero };
  }
  const closed = fill.amount.lt(position.size) ? fill.amount : position.size;
  const s = position.side === 'long' ? 1 : -1;
  const realised = fill.price.minus(position.entry).mul(closed).mul(s);
  const marginOut = position.margin.mul(closed).div(position.size);
  const left = position.size.minus(closed);
  const rest = fill.amount.minus(closed);
  const after = left.isZero() ? null : { ...position, size: left, margin: position.margin.minus(marginOut) };
  if (rest.isZero() || reduceOnly) return { position: after, realised, marginIn: zero, marginOut, unfilled: reduceOnly ? rest : zero };
  // Past flat: the rest opens the other side at the fill's price.
  const opened = { ...fill, amount: rest };
  return { position: grow(null, opened, leverage), realised, marginIn: rest.mul(fill.price).div(leverage), marginOut, unfilled: zero };
}

function grow(position: IsolatedPosition | null, fill: PerpetualFill, leverage: number): IsolatedPosition {
  const margin = fill.amount.mul(fill.price).div(leverage);
  if (!position) return { side: fill.side === 'buy' ? 'long' : 'short', size: fill.amount, entry: fill.price, margin };
  const size = position.size.plus(fill.amount);
  const entry = position.size.mul(position.entry).plus(fill.amount.mul(fill.price)).div(size);
  return { ...position, size, entry, margin: position.margin.plus(margin) };
}

/**
 * Whether an order may go at this leverage: the tier of the notional the position would have once it
 * filled caps it (a bot's position that grows level by level reaches higher tiers, lower caps). The
 * notional is the position's size after the order at the order's price; an order that only reduces is
 * never refused for it.
 */
export function leverageFits(tiers: readonly MarginTier[], position: IsolatedPosition | null, fill: PerpetualFill, leverage: number): { fits: boolean; max: number } {
  const grows = !position || (position.side === 'long') === (fill.side === 'buy');
  const size = grows ? (position?.size ?? money(0)).plus(fill.amount) : fill.amount.minus(position.size);
  if (size.lte(0)) return { fits: true, max: maxLeverage(tiers, money(0)) };
  const max = maxLeverage(tiers, size.mul(fill.price));
  return { fits: leverage <= max, max };
}
