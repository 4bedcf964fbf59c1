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
 * The grid with a level's resting order as its order in flight, as onPrice would have placed it: a buy's
 * fill then puts the sell one level up, a sell's the buy one level down, and books the grid's profit.
 *
 * The sells a grid holds form one run above its empty level, the buys one run below it, and a fill is
 * booked at the edge of its run, next to the empty level. A sell that rested at 1.3457 can fill while the
 * sell one level down, at 1.3412, did not rest (refused as the price had passed it, or not yet placed)
 * and waits to go at market; the price may even come back under 1.3412 before that, and that sell never
 * goes. Booked at its own level, its buy would go over that sell (whose coin would leave the books); left
 * waiting, it would never be booked. So the fill books the coin it sold (its own order's amount and cost,
 * or the lowest sell's when its level holds no sell of the books any more: a cancel answered by a fill)
 * at the lowest sell level, and the sells between move one level up with their coins: the grid is then
 * what the price path would have left had every level rested (the 1.3412 sell sold, its coin bought back
 * there and offered one level up). Buys likewise, mirrored. Null while an order is in flight (a level's
 * order at market: the fill is booked after it), or when the books hold no order of that side.
 */
export function gridInFlight(state: GridState, slot: string, id: ClientOrderId, side: Side): GridState | null {
  const level = levelOfSlot(slot);
  if (state.pending || state.phase !== 'running' || level === null || level >= state.orders.length) return null;
  const orders = state.orders;
  const sides = orders.map((o) => o?.side ?? null);
  const edge = side === 'sell' ? sides.indexOf('sell') : sides.lastIndexOf('buy');
  if (edge < 0) return null;
  // The run must reach the empty level (or the range's end): the grid's shape, one empty level between.
  const beyond = side === 'sell' ? edge - 1 : edge + 1;
  if (beyond >= 0 && beyond < orders.length && orders[beyond] !== null) return null;
  const own = orders[level]?.side === side ? level : edge;
  const moved = [...orders];
  if (side === 'sell') for (let i = own; i > edge; i--) moved[i] = orders[i - 1]!;
  else for (let i = own; i < edge; i++) moved[i] = orders[i + 1]!;
  moved[edge] = orders[own]!;
  return { ...state, orders: moved, seq: state.seq + 1, pending: { id, level: edge, reason: side === 'buy' ? 'add' : 'close' } };
}
