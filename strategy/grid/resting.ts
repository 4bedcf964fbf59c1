import type { RestingOrder } from '../resting.ts';
import type { ClientOrderId, Side } from '../types.ts';
import { grossBuy } from './plan.ts';
import { levelsOf, type GridState, type GridView } from './strategy.ts';

/**
 * The limit orders a running grid wants resting (README.md "Resting orders"): a buy at each buy level,
 * for the gross amount that leaves its q after the fee taken in the coin, and a sell at each sell level for
 * what it holds there; the empty level none. Nothing while the grid is not running, while an armed
 * trailing take profit is closing it (no level trades then), or while an exit's sale is on its way; a
 * level whose order is on its way at market is left out.
 */
export function gridResting(state: GridState, view: GridView): RestingOrder[] {
  const pending = state.pending;
  if (state.phase !== 'running' || state.trail || (pending && pending.level < 0)) return [];
  const levels = levelsOf(view);
  const wanted: RestingOrder[] = [];
  state.orders.forEach((o, i) => {
    if (!o || pending?.level === i) return;
    const price = levels[i]!;
    if (o.side === 'buy') wanted.push({ slot: `L${i}`, side: 'buy', price, amount: grossBuy(o.amount, view.market), reason: 'add' });
    // A sell of nothing (a share floored to 0) rests nowhere.
    else if (o.amount.gt(0)) wanted.push({ slot: `L${i}`, side: 'sell', price, amount: o.amount, reason: 'close' });
  });
  return wanted;
}

/** The level a grid's slot names ("L3": 3), or null. */
const levelOfSlot = (slot: string) => (/^L\d+$/.test(slot) ? Number(slot.slice(1)) : null);

/** The slot of a grid's order in flight at one of its levels (an exit's sale rests nowhere). */
export function gridSlotOf(state: GridState): string | null {
  const pending = state.pending;
  return pending && pending.level >= 0 && pending.reason !== 'open' ? `L${pending.level}` : null;
}

/**
 * The grid with a level's resting order as its order in flight, as onPrice would have placed it at the
 * level: a buy's fill then puts the sell one level up, a sell's the buy one level down, and books the
 * grid's profit. Only when that level is empty: a level whose own order did not rest (refused, or not yet
 * placed) can still hold one the price passed first. A sell at 1.3457 filled on the venue while the sell
 * one level down, at 1.3412, waits to go at market must not put its buy there over that sell (the coin it
 * holds would leave the books): its fill is booked after that sell's, as the price met them.
 */
export function gridInFlight(state: GridState, slot: string, id: ClientOrderId, side: Side): GridState | null {
  const level = levelOfSlot(slot);
  const order = level === null ? null : state.orders[level];
  if (state.pending || state.phase !== 'running' || level === null || order?.side !== side) return null;
  const counter = side === 'buy' ? level + 1 : level - 1;
  if (counter >= 0 && counter < state.orders.length && state.orders[counter] !== null) return null;
  return { ...state, seq: state.seq + 1, pending: { id, level, reason: order.side === 'buy' ? 'add' : 'close' } };
}
