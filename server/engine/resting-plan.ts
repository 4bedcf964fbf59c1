import type { RestingOrder } from '../../strategy/resting.ts';
import type { OrderPhase } from '../store/order-states.ts';
import { RESTING_LIVE, type RestingRecord } from '../store/resting-orders.ts';

/**
 * What to send so that a bot's resting orders on its venue become the ones its state wants
 * (strategy/resting.ts), from its orders as the records know them. Pure: the engine carries it out.
 * - An order that rests where it is wanted, at the wanted side, price and amount, nothing of it filled, stays.
 * - One that rests where nothing is wanted, or where another side, price or amount is, is cancelled;
 *   the slot's new order waits until the venue has confirmed the cancel (the old one `cancelled`, or
 *   `filled` when the fill came first: then the bot's books have moved and want something else anyway).
 *   Sending the replacement beside a cancel still on its way could leave both on the book: the exposure
 *   doubled.
 * - An order whose outcome is unknown (`new`, `submitted`: on its way) or `lost` is never cancelled here
 *   and never stood beside: its slot waits (lost-orders.ts looks it up and cancels it itself).
 * - A slot with nothing of the bot's live gets its wanted order.
 * A partly filled order is cancelled: the books want the whole order (they take a fill when its order
 * ends), never the rest, so its remaining amount does not fit; the cancel's answer books what filled
 * (docs/engine.md "A partial fill").
 */

/** An order of a bot's slot as its records know it: where it stands, its side, price and amount, what of it filled, its phase. */
export type KnownOrder = Pick<RestingRecord, 'clientOrderId' | 'slot' | 'side' | 'price' | 'amount' | 'filled' | 'status'>;

export interface RestingPlan {
  /** Orders to cancel: resting where they are no longer wanted as they are. */
  cancel: KnownOrder[];
  /** Orders to place: wanted in a slot where nothing of the bot's is live. */
  place: RestingOrder[];
  /** Slots whose wanted order waits for the one there to end (a cancel not yet confirmed, an outcome unknown, a lost order). */
  waiting: string[];
}

/** Phases in which an order rests on the venue and can be asked to cancel. */
const RESTING: readonly OrderPhase[] = ['open', 'partially_filled'];
/** Phases in which an order is, or will be, what its slot wants when its figures are. */
const KEEPABLE: readonly OrderPhase[] = ['new', 'submitted', 'open', 'partially_filled'];

const fits = (order: KnownOrder, wanted: RestingOrder) =>
  KEEPABLE.includes(order.status) && order.filled.isZero() && order.side === wanted.side && order.price.eq(wanted.price) && order.amount.eq(wanted.amount);

export function planResting(wanted: readonly RestingOrder[], known: readonly KnownOrder[]): RestingPlan {
  const bySlot = new Map<string, KnownOrder[]>();
  for (const order of known) if (RESTING_LIVE.includes(order.status)) bySlot.set(order.slot, [...(bySlot.get(order.slot) ?? []), order]);
  const plan: RestingPlan = { cancel: [], place: [], waiting: [] };
  const wantedSlots = new Set<string>();
  for (const want of wanted) {
    wantedSlots.add(want.slot);
    const there = bySlot.get(want.slot) ?? [];
    const kept = there.find((order) => fits(order, want));
    const others = there.filter((order) => order !== kept);
    for (const order of others) if (RESTING.includes(order.status)) plan.cancel.push(order);
    if (kept) continue;
    if (others.length > 0) plan.waiting.push(want.slot);
    else plan.place.push(want);
  }
  for (const [slot, there] of bySlot) if (!wantedSlots.has(slot)) for (const order of there) if (RESTING.includes(order.status)) plan.cancel.push(order);
  return plan;
}
