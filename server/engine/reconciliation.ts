import type Decimal from 'decimal.js';
import type { Fence } from '../cluster/leases.ts';
import type { Db } from '../db/connect.ts';
import { inTransaction } from '../events/outbox.ts';
import { type ExchangePort, type OrderState, restingOf } from '../exchanges/port.ts';
import { logActions } from '../store/bot-actions.ts';
import { pauseOutsideDecision } from './pause-outside.ts';
import { lockBotStatus } from '../store/bot-decisions.ts';
import { findOrders } from '../store/bot-orders.ts';
import { isFinal } from '../store/order-states.ts';
import { money } from '../../strategy/money.ts';
import type { ClientOrderId } from '../../strategy/types.ts';
import type { EngineLog } from './engine-types.ts';
import { crashPoint } from './crash-points.ts';

/**
 * A reconciliation round of one exchange account against what its bots believe, run by the engine that
 * holds them every RECONCILE_EVERY_MS (runner.ts):
 * - **orphans** (cancelOrphans): an open order on the venue carrying our client order id that no bot is
 *   waiting on (no record of it, or one that has ended) is cancelled and logged; one younger than
 *   ORPHAN_MIN_AGE_MS is left for the next round. A venue that does not answer is never read as
 *   "nothing open": the round skips what it could not see.
 * - **balances** (findShortfalls, then pauseShort): what the bots on a coin hold by their books must be
 *   on the account, less BALANCE_TOLERANCE: a coin sold or withdrawn by hand on the exchange would make
 *   the next sale fail, or sell what another program holds. The engine asks again once the bots' work in
 *   progress is done, and only a shortfall seen twice pauses the bots holding the coin (`balance_short`),
 *   each with a warning that says how much the books count on and how much is there.
 */

/**
 * Time between two reconciliation rounds of an account: wall-clock time, not engine rounds, since an
 * exchange's rate limit counts time (and an engine driven faster than its 1 s round, as in a replay of a
 * day's seconds, would otherwise ask each account every few milliseconds).
 */
export const RECONCILE_EVERY_MS = 30_000;
/** The share of a coin the books may hold over the account's balance (the exchanges' rounding of fees). */
export const BALANCE_TOLERANCE = '0.005';
/** An open order younger than this is no orphan yet. */
export const ORPHAN_MIN_AGE_MS = 5000;
/** The pause reason of a bot whose account holds less of its coin than its books. */
export const BALANCE_SHORT = 'balance_short';
/** What a bot's screen is told while its pair has no fresh price (runner.ts, STALE_PRICE_MS). */
export const NO_PRICE = 'no_price';

/** A bot of the account as the round reads it: its pair and what it holds by its books. */
export interface BookedBot {
  id: string;
  symbol: string;
  status: string;
  /** Base held by its books (its kit's `held`). */
  held: Decimal;
  /**
   * Of it, what its resting sells hold on the venue (not free there; the venue's balance leaves it out).
   * The tolerance applies to all it holds: the free rest alone can be a few steps, and a fee taken in the
   * coin a large share of it.
   */
  locked?: Decimal | undefined;
  /** The client order id it waits on, if any. */
  pending: string | null;
}

/** A coin the account holds less of than its bots' books. */
export interface Shortfall {
  coin: string;
  held: Decimal;
  balance: Decimal;
  /** The bots that hold it. */
  holders: string[];
}

/**
 * Cancels the account's orphan orders on its bots' pairs: open on the venue with our client order id, and
 * no bot waiting on them (no record, or one that ended). Answers those cancelled, or null when the venue did not answer
 * (never read as "nothing open").
 */
export async function cancelOrphans(db: Db, port: ExchangePort, bots: readonly BookedBot[], options: { now?: number; log?: EngineLog | undefined } = {}): Promise<string[] | null> {
  const fetchOpen = restingOf(port).fetchOpenOrders;
  if (!fetchOpen) return [];
  // Pair by pair, the pairs its bots trade (an exchange answers all pairs at a high cost, or not at all).
  const open: OrderState[] = [];
  try {
    for (const symbol of new Set(bots.map((b) => b.symbol))) open.push(...(await fetchOpen.call(port, symbol)));
  } catch (error) {
    options.log?.error({ err: error }, 'open orders not answered: no orphan taken for gone');
    return null;
  }
  const now = options.now ?? Date.now();
  const waitedOn = new Set(bots.map((b) => b.pending).filter((p): p is string => p !== null));
  const candidates = open.filter((order) => !waitedOn.has(order.clientOrderId) && (order.at === undefined || now - order.at >= ORPHAN_MIN_AGE_MS));
  // Their records read at once (a thousand resting orders cost one statement, not a thousand).
  const rows = new Map((await findOrders(db, { clientOrderIds: candidates.map((o) => o.clientOrderId) })).map((row) => [row.client_order_id, row]));
  const cancelled: string[] = [];
  for (const order of candidates) {
    const row = rows.get(order.clientOrderId);
    if (row && !isFinal(row.status)) continue;
    crashPoint('cancel', 300);
    const ended = await restingOf(port).cancelOrder?.call(port, order.clientOrderId as ClientOrderId, order.symbol);
    cancelled.push(order.clientOrderId);
    options.log?.error({ order: order.clientOrderId, symbol: order.symbol, status: ended?.status ?? null }, 'orphan order on the exchange cancelled');
    if (row) await logActions(db, [{ botId: String(row.bot_id), kind: 'failed', detail: { order: order.clientOrderId, message: 'orphan order cancelled' } }]);
  }
  return cancelled;
}

/**
 * The coins the account holds less of than its bots' books (less BALANCE_TOLERANCE). A coin one of its
 * bots has an order in flight on is left out (the books and the balance disagree until its answer is in);
 * so is a coin whose holders decided anything while its balance was on its way (`changed`: a sale placed
 * and filled meanwhile leaves a balance below the books read before it, a difference of a moment, not a
 * coin gone); a coin whose balance the venue did not answer is `unseen`.
 */
/** Whether an account holding `has` of a coin is short of the `held` its bots' books count (BALANCE_TOLERANCE under it). */
export const isShort = (held: Decimal, has: Decimal): boolean => has.lt(held.mul(money(1).minus(BALANCE_TOLERANCE)));

export async function findShortfalls(
  port: ExchangePort,
  bots: readonly BookedBot[],
  log?: EngineLog,
  changed?: (ids: readonly string[]) => boolean,
): Promise<{ short: Shortfall[]; unseen: string[] }> {
  const byCoin = new Map<string, BookedBot[]>();
  for (const bot of bots) {
    const base = bot.symbol.split('/')[0]!;
    byCoin.set(base, [...(byCoin.get(base) ?? []), bot]);
  }
  const short: Shortfall[] = [];
  const unseen: string[] = [];
  for (const [coin, holders] of byCoin) {
    if (holders.some((b) => b.pending !== null)) continue;
    const held = holders.reduce((sum, b) => sum.plus(b.held), money(0));
    const locked = holders.reduce((sum, b) => sum.plus(b.locked ?? 0), money(0));
    if (held.minus(locked).lte(0)) continue;
    let balance: Decimal;
    try {
      balance = await port.balance(coin);
    } catch (error) {
      log?.error({ err: error, coin }, 'balance not answered: the books not checked');
      unseen.push(coin);
      continue;
    }
    if (changed?.(holders.map((b) => b.id))) continue;
    // The account's coin: its free balance and what our resting sells hold of it.
    const has = balance.plus(locked);
    if (isShort(held, has)) short.push({ coin, held, balance: has, holders: holders.filter((b) => b.held.gt(0)).map((b) => b.id) });
  }
  return { short, unseen };
}

/**
 * Pauses a running bot whose coin the account lacks, with its log line, warning and event, in one
 * transaction; in a cluster under the caller's lease on it (`fence`: LeaseLost when another holds it).
 */
export async function pauseShort(db: Db, short: { botId: string; userId: string; coin: string; held: string; balance: string; fence?: Fence | undefined }): Promise<boolean> {
  return inTransaction(db, async (tx) => {
    await lockBotStatus(tx, { id: short.botId });
    return pauseOutsideDecision(tx, {
      botId: short.botId,
      userId: short.userId,
      reason: BALANCE_SHORT,
      detail: { coin: short.coin, held: short.held, balance: short.balance },
      fence: short.fence,
    });
  });
}
