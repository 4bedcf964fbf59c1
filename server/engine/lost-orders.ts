import { checkLease, type Fence } from '../cluster/leases.ts';
import type { Db } from '../db/connect.ts';
import { inTransaction } from '../events/outbox.ts';
import { type ExchangePort, type OrderState, restingOf } from '../exchanges/port.ts';
import { pauseOutsideDecision } from './pause-outside.ts';
import { lockBotStatus } from '../store/bot-decisions.ts';
import { stepOrder, stepUnreached } from '../store/order-steps.ts';
import type { ClientOrderId } from '../../strategy/types.ts';

/**
 * Orders whose outcome is unknown on a live venue. A timeout or a dropped connection never makes the
 * engine send an order again: the order is looked up by its client order id (every few rounds,
 * runner.ts), and a lookup that finds nothing is counted with the order (bot_orders.misses). At the
 * third miss one targeted query asks the venue's open orders; when that finds nothing either, the order
 * is **lost**: the bot pauses (`order_lost`), the trader gets a warning in words, and the engine goes on
 * looking it up (and asking the venue to cancel it) for as long as it is lost; a fill found later still
 * counts. Paper's lookups are exact (ExchangePort.exactLookup): an order it does not find never reached
 * it, and is sent again under the same id.
 *
 * A venue with a receive window (ExchangePort.orderWindowMs: Binance) refuses an order request signed
 * longer ago than the window, at its matching engine too, and each order is signed to expire at the
 * `not_after` stored when it was marked sent. Before that moment (and WINDOW_MARGIN_MS more for the clocks
 * of our processes) a lookup that misses it counts for nothing: the request may still be on its way. After
 * it, the misses are counted as above, and an order that the third miss and the targeted query (the
 * open orders, then the order and the account's recent orders) do not find either **never reached** the
 * venue and never can: it steps back to `new` and is sent again under the same id, and its bot trades on.
 * What a crash in the middle of a send leaves (marked sent, never on the wire) costs the bot no pause.
 * An order sent again UNREACHED_RESENDS times and never reaching the venue (a clock the venue refuses,
 * say) is lost after all: its bot pauses and the trader is told, rather than retrying unseen forever.
 */

/** Lookups that find nothing before the targeted query, and the order is lost when that finds nothing either. */
export const LOST_AFTER_MISSES = 3;

/** How often an order that never reached its venue is sent again before it counts as lost. */
export const UNREACHED_RESENDS = 2;

/** How much later than an order's `not_after` a miss counts: the clocks of the processes may differ this much. */
export const WINDOW_MARGIN_MS = 3000;

/** The pause reason of a bot whose order its venue lost (the notices and the bot's screen word it). */
export const ORDER_LOST = 'order_lost';

/**
 * The one targeted query after the misses: the venue's open orders of the pair, by our client order id,
 * then the lookup by id once more (an order filled since the last one). Null when neither finds it.
 */
export async function targetedLookup(port: ExchangePort, clientOrderId: ClientOrderId, symbol: string): Promise<OrderState | null> {
  const open = await restingOf(port).fetchOpenOrders?.(symbol);
  const found = open?.find((o) => o.clientOrderId === clientOrderId);
  return found ?? (await port.fetchOrder(clientOrderId, symbol));
}

/**
 * A lost order asked about again: a cancel first, where the venue takes one (an order that shows up
 * later must not fill unseen), answering the order as it ended; else the lookup by id.
 */
export async function lookUpLost(port: ExchangePort, clientOrderId: ClientOrderId, symbol: string): Promise<OrderState | null> {
  const cancel = restingOf(port).cancelOrder;
  if (cancel) {
    const ended = await cancel.call(port, clientOrderId, symbol);
    if (ended) return ended;
  }
  return port.fetchOrder(clientOrderId, symbol);
}

/**
 * Marks an order lost, in one transaction: its step (with the misses), the bot paused when it ran (a log
 * line, a warning naming the order, and the event for the trader's open app); in a cluster under the
 * caller's lease on the bot (`fence`: LeaseLost when another holds it). Answers whether the bot was
 * paused by it.
 */
export async function markLost(db: Db, order: { botId: string; userId: string; clientOrderId: string; misses: number; fence?: Fence | undefined }): Promise<boolean> {
  return inTransaction(db, async (tx) => {
    await lockBotStatus(tx, { id: order.botId });
    if (order.fence) await checkLease(tx, order.botId, order.fence);
    await stepOrder(tx, { clientOrderId: order.clientOrderId, to: 'lost', detail: { misses: String(order.misses) } });
    return pauseOutsideDecision(tx, { botId: order.botId, userId: order.userId, reason: ORDER_LOST, detail: { order: order.clientOrderId }, always: true });
  });
}

/**
 * An order whose receive window passed without the venue finding it: back to `new` (its misses cleared),
 * to be sent again under the same id; in a cluster under the caller's lease on the bot (`fence`). Answers
 * 'resend', 'spent' when it was sent again UNREACHED_RESENDS times already (it is to be lost), or 'moved'
 * when its row moved on meanwhile.
 */
export async function markUnreached(db: Db, order: { botId: string; clientOrderId: string; misses: number; fence?: Fence | undefined }): Promise<'resend' | 'spent' | 'moved'> {
  return inTransaction(db, async (tx) => {
    if (order.fence) await checkLease(tx, order.botId, order.fence);
    return stepUnreached(tx, { clientOrderId: order.clientOrderId, misses: order.misses, resends: UNREACHED_RESENDS });
  });
}

/** The pause reason of a bot whose resting order filled where its books hold no order it could be (the notices word it). */
export const FILL_UNBOOKED = 'fill_unbooked';

/**
 * A resting fill no order of the bot's books can take (its kit's `resting.inFlight` finds none, and no
 * order is in flight for it to wait behind): the books and the venue disagree. The bot is paused with
 * the reason, once (a bot already paused is not told again), in a cluster under the caller's lease; the
 * fill is still looked up, and a state that can take it (after the trader's check) books it.
 */
export async function pauseUnbooked(db: Db, fill: { botId: string; userId: string; clientOrderId: string; fence?: Fence | undefined }): Promise<boolean> {
  return inTransaction(db, async (tx) => {
    await lockBotStatus(tx, { id: fill.botId });
    return pauseOutsideDecision(tx, { botId: fill.botId, userId: fill.userId, reason: FILL_UNBOOKED, detail: { order: fill.clientOrderId }, fence: fill.fence });
  });
}
