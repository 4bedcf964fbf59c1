import type Decimal from 'decimal.js';
import { bankruptcyPrice, type IsolatedPosition } from './margin.ts';

/** What a liquidation books: the trader's side at the bankruptcy price, the venue's remainder to its insurance line. */
export interface Liquidation {
  /** The price the trader's position is closed at: its bankruptcy price (all its margin lost, no more). */
  closePrice: Decimal;
  /** The trader's realised loss: exactly the position's margin. */
  realised: Decimal;
  /**
   * The insurance line: the venue closes at the mark, and what that brings beyond the bankruptcy price is
   * the liquidation fee (at the liquidation price itself, the maintenance margin: 0.40 % of the notional
   * less the tier's amount in tier 1); negative when the mark gapped past the bankruptcy price, paid
   * from the insurance fund, never by the trader.
   */
  insurance: Decimal;
}

/** A position liquidated at the mark (README.md "Liquidation"). Its resting orders are cancelled first, by the venue. */
export function liquidate(p: IsolatedPosition, mark: Decimal): Liquidation {
  const closePrice = bankruptcyPrice(p);
  const s = p.side === 'long' ? 1 : -1;
  return { closePrice, realised: p.margin.neg(), insurance: mark.minus(closePrice).mul(p.size).mul(s) };
}

interface Entry {
  id: string;
  price: Decimal;
  at: number;
}

/**
 * The open positions of one contract by liquidation price, for a price round (README.md "Liquidation"):
 * longs from the highest price down (a fall reaches them in that order), shorts from the lowest up. A mark
 * is compared with the first of each list only, then with the next while it crosses: a round costs the
 * positions it liquidates, not the positions open. Doubles order and pre-check; the decimal decides.
 */
export class LiquidationBook {
  private readonly longs: Entry[] = [];
  private readonly shorts: Entry[] = [];
  private readonly where = new Map<string, 'long' | 'short'>();

  get size(): number {
    return this.where.size;
  }

  /** Puts a position at its liquidation price (null: none: it is kept out), replacing where it stood. */
  put(id: string, side: 'long' | 'short', price: Decimal | null): void {
    this.remove(id);
    if (price === null) return;
    const list = side === 'long' ? this.longs : this.shorts;
    const entry = { id, price, at: price.toNumber() };
    // Longs highest first, shorts lowest first: the list's head is the first a move reaches.
    const before = side === 'long' ? (e: Entry) => e.at < entry.at : (e: Entry) => e.at > entry.at;
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (before(list[mid]!)) hi = mid;
      else lo = mid + 1;
    }
    list.splice(lo, 0, entry);
    this.where.set(id, side);
  }

  remove(id: string): void {
    const side = this.where.get(id);
    if (!side) return;
    const list = side === 'long' ? this.longs : this.shorts;
    const i = list.findIndex((e) => e.id === id);
    if (i >= 0) list.splice(i, 1);
    this.where.delete(id);
  }

  /** The positions the mark liquidates (longs at or under it, shorts at or over it), taken out of the book. */
  crossed(mark: Decimal): string[] {
    const m = mark.toNumber();
    const out: string[] = [];
    // A double within a rounding of the mark is decided by the decimals.
    while (this.longs.length > 0 && this.longs[0]!.at >= m - Math.abs(m) * 1e-12 && mark.lte(this.longs[0]!.price)) out.push(this.take(this.longs));
    while (this.shorts.length > 0 && this.shorts[0]!.at <= m + Math.abs(m) * 1e-12 && mark.gte(this.shorts[0]!.price)) out.push(this.take(this.shorts));
    return out;
  }

  private take(list: Entry[]): string {
    const entry = list.shift()!;
    this.where.delete(entry.id);
    return entry.id;
  }
}
