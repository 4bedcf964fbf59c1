import type Decimal from 'decimal.js';
import type { Db } from '../db/connect.ts';
import { type ExchangePort, type OrderState, restingOf, WOULD_CROSS } from '../exchanges/port.ts';
import type { KitState, StrategyKit } from '../../strategy/kit.ts';
import { money } from '../../strategy/money.ts';
import type { RestingOrder } from '../../strategy/resting.ts';
import type { ClientOrderId } from '../../strategy/types.ts';
import { insertResting, liveResting, RESTING_LIVE, refusedBefore, type RestingRecord, stepResting } from '../store/resting-orders.ts';
import { botName } from '../store/bot-decisions.ts';
import { leaveNotice } from '../events/notice.ts';
import { inTransaction } from '../events/outbox.ts';
import { countMiss, markSubmitted } from '../store/order-steps.ts';
import type { EngineLog } from './engine-types.ts';
import { LOST_AFTER_MISSES, markLost, markUnreached, targetedLookup, WINDOW_MARGIN_MS } from './lost-orders.ts';
import { planResting } from './resting-plan.ts';
import { crashPoint } from './crash-points.ts';
import { checkLease, LeaseLost } from '../cluster/leases.ts';

/**
 * The limit orders bots keep resting on their venues (strategy/resting.ts): placed where a bot's state
 * wants them, cancelled where it no longer does (the replacement only once the venue confirmed the
 * cancel: resting-plan.ts), and looked up until they end. A fill, whole or the part of one that was
 * cancelled, is handed to the engine (`filled`), which takes it into the bot's books as the decision
 * its trigger would have made; the next plan then places the counter-order.
 * The records (bot_orders rows with a slot) are the truth; what is kept here is a cache of them for the
 * price rounds (which slots stand, what base the sells hold) and a pause for slots the venue refused.
 */

/** A loaded bot as this module needs it (runner.ts's LiveBot). */
export interface RestingBot {
  record: { id: string; userId: string; symbol: string; status: string; type: string };
  kit: StrategyKit;
  view: unknown;
  port: ExchangePort;
  state: KitState;
}

export interface RestingHost {
  db: Db;
  log(): EngineLog | undefined;
  /** The lease the bot's orders are sent under (a worker of the cluster). */
  sender(botId: string): { worker: string; epoch: string } | undefined;
  /** Whether the bots' leases are kept in a cluster: then an order goes out only with its `sender`. */
  clustered?: boolean;
  /** Whether this process may send for the bot now (its lease held, not fenced). */
  mayAct(botId: string): boolean;
  /** A resting order's fill, to take into the bot's books; false when it cannot be now (looked up again later). */
  filled(bot: RestingBot, order: RestingRecord, answer: OrderState): Promise<boolean>;
  /** Bot types whose orders rest (RESTING_ORDERS). */
  types: readonly string[];
}

/** How long a slot the venue refused rests nothing (its level trades at market meanwhile). */
export const REFUSED_PAUSE_MS = 5 * 60_000;
/**
 * How often a price past a slot whose order still rests asks the venue again: a price that stays past a
 * level the venue has not filled yet would otherwise cost an open-orders call every round.
 */
export const CHECK_EVERY_MS = 3000;
/**
 * Bots whose resting orders one round's sweep looks up, at most (those not looked up for a reconciliation
 * period): the sweep is a safety net behind the price rounds' own lookups, so it is spread thin over time
 * instead of asking every bot's venue at once.
 */
export const SWEEP_BOTS = 10;

/**
 * Where a bot's books stand: its cycle and the sequence in it, which every decision that books a fill
 * moves. The sequence alone starts again with each cycle (a martin or DCA bot's), and a take profit
 * filled in the next cycle would look like the one just looked up.
 */
export const booksMark = (bot: RestingBot): string => `${bot.kit.cycle(bot.state)}-${bot.state.seq}`;

export class RestingOrders {
  private readonly host: RestingHost;
  /** Each bot's resting orders as last read or changed here. */
  private readonly known = new Map<string, RestingRecord[]>();
  /** Slots (`bot:slot`) the venue refused, until when they rest nothing. */
  private readonly refused = new Map<string, number>();
  /** Bots whose fills found together are being booked: their plan waits until every one of them is in. */
  private readonly booking = new Set<string>();
  /** When each bot's orders were last looked up (ms), for which slot's price if for one, and the books then (booksMark). */
  private readonly checkedAt = new Map<string, { at: number; slot: string | null; books: string }>();

  constructor(host: RestingHost) {
    this.host = host;
  }

  /** Whether the bot's orders rest on its venue: its type has resting orders, is switched on, and the venue takes them. */
  enabled(bot: RestingBot): boolean {
    const r = restingOf(bot.port);
    return bot.kit.resting !== undefined && this.host.types.includes(bot.record.type) && !!r.placeLimitOrder && !!r.cancelOrder && !!r.fetchOpenOrders;
  }

  /** Whether an order of the bot's stands in the slot (from the last read). */
  standsAt(botId: string, slot: string): boolean {
    return (this.known.get(botId) ?? []).some((o) => o.slot === slot && RESTING_LIVE.includes(o.status));
  }

  /** Whether any order of the bot's may stand on the venue (from the last read). */
  any(botId: string): boolean {
    return (this.known.get(botId) ?? []).some((o) => RESTING_LIVE.includes(o.status));
  }

  /** The base the bot's resting sells hold on the venue (not free there, still the bot's). */
  lockedBase(botId: string): Decimal {
    return (this.known.get(botId) ?? []).filter((o) => o.side === 'sell' && RESTING_LIVE.includes(o.status)).reduce((sum, o) => sum.plus(o.amount.minus(o.filled)), money(0));
  }

  forget(botId: string): void {
    this.known.delete(botId);
    this.checkedAt.delete(botId);
  }

  /**
   * Whether the bot's orders were looked up less than `ms` ago (CHECK_EVERY_MS unless given); with a slot
   * and the books' mark (booksMark), for that slot's price with the books as they are (a price past another
   * slot, or books a fill has moved since, is news and asks at once).
   */
  checkedLately(botId: string, ms = CHECK_EVERY_MS, slot?: string, books?: string): boolean {
    const last = this.checkedAt.get(botId);
    return last !== undefined && Date.now() - last.at < ms && (slot === undefined || (last.slot === slot && last.books === books));
  }

  /** Reads the bot's resting orders from their records. */
  async read(bot: RestingBot): Promise<RestingRecord[]> {
    const rows = await liveResting(this.host.db, { botId: bot.record.id });
    this.known.set(bot.record.id, rows);
    return rows;
  }

  /**
   * Brings the venue's resting orders in line with what the bot's state wants (nothing when it does not
   * run, or `cancelAll`): cancels first, places after; stops at a fill (its decision plans again).
   * Answers whether every order the plan cancels has ended.
   */
  async sync(bot: RestingBot, options: { cancelAll?: boolean } = {}): Promise<boolean> {
    const id = bot.record.id;
    if (!this.host.mayAct(id) || this.booking.has(id)) return false;
    const known = await this.read(bot);
    const now = Date.now();
    const running = bot.record.status === 'running' && !options.cancelAll;
    const wanted = running ? bot.kit.resting!.wanted(bot.state, bot.view) : [];
    const plan = planResting(wanted, known);
    let ended = true;
    for (const order of plan.cancel) {
      const result = await this.cancel(bot, known.find((k) => k.clientOrderId === order.clientOrderId)!);
      if (result === 'filled') return false;
      if (result !== 'ended') ended = false;
    }
    // Orders on their way or lost stand where they are: a cancel-all waits for them to end.
    if (!running && known.some((o) => ['new', 'submitted', 'lost'].includes(o.status))) {
      await this.check(bot);
      ended = !this.any(id);
    }
    if (!running) return ended;
    for (const want of plan.place) {
      const until = this.refused.get(`${id}:${want.slot}`);
      if (until !== undefined && until > now) continue;
      if ((await this.place(bot, want)) === 'filled') return false;
    }
    return ended;
  }

  /**
   * Looks the bot's resting orders up on the venue: the pair's open orders once, then each one it does not
   * list; the fills booked in the order the venue made them (a grid's fill moves its neighbours' slots, so
   * a sell at 2,100 filled before a buy at 2,000 must be booked first), and the plan asked after them all.
   * An order recorded but never sent (a crash between the two) is sent now.
   */
  async check(bot: RestingBot, slot: string | null = null): Promise<void> {
    const r = restingOf(bot.port);
    this.checkedAt.set(bot.record.id, { at: Date.now(), slot, books: booksMark(bot) });
    const records = (await this.read(bot)).filter((o) => RESTING_LIVE.includes(o.status));
    if (records.length === 0) return;
    let open: OrderState[] | null = null;
    try {
      open = (await r.fetchOpenOrders?.call(bot.port, bot.record.symbol)) ?? null;
    } catch (error) {
      this.host.log()?.error({ err: error, bot: bot.record.id }, 'open orders not answered: resting orders looked up one by one');
    }
    const openById = new Map((open ?? []).map((o) => [o.clientOrderId as string, o]));
    const answers: { order: RestingRecord; answer: OrderState | null }[] = [];
    // Every order the list does not show (ended: filled or cancelled) is looked up, none left for later:
    // fills are booked in the order they happened, and one left out could have come before the others.
    let complete = true;
    for (const order of records) {
      if (order.status === 'new') {
        await this.send(bot, order);
        continue;
      }
      const listed = openById.get(order.clientOrderId);
      if (listed && listed.status === 'open') {
        answers.push({ order, answer: listed });
        continue;
      }
      try {
        answers.push({ order, answer: await bot.port.fetchOrder(order.clientOrderId as ClientOrderId, bot.record.symbol) });
      } catch (error) {
        complete = false;
        this.host.log()?.error({ err: error, order: order.clientOrderId }, "resting order not answered: its fills and the others' looked up again later");
      }
    }
    if (!complete) return;
    // In the order the venue filled them; those it did not time, and ties, in price order.
    const rank = ({ order }: { order: RestingRecord }) => (order.side === 'buy' ? -order.price.toNumber() : order.price.toNumber() + 1e18);
    const when = ({ answer }: { answer: OrderState | null }) => answer?.filledAt ?? Number.POSITIVE_INFINITY;
    answers.sort((a, b) => when(a) - when(b) || rank(a) - rank(b));
    // Every fill in before the plan is asked again: a counter-order placed between two of them could rest
    // where the next one's booking moves the books, and fill there before it is cancelled.
    let filled = false;
    let later = false;
    this.booking.add(bot.record.id);
    try {
      for (const { order, answer } of answers) {
        const was = order.filled;
        const result = await this.settle(bot, order, answer);
        if (result === 'later') {
          later = true;
          break;
        }
        // Filled in part and resting on: the plan below cancels the rest (the books want the whole order, or
        // none of it), and the cancel's answer books what filled (docs/engine.md "A partial fill").
        if (result === 'filled' || (result === 'rests' && answer && answer.filled.gt(was))) filled = true;
      }
    } finally {
      this.booking.delete(bot.record.id);
    }
    // A fill the books cannot take yet (a level the price met first goes at market before it): looked up
    // again by the next round's sweep, not a reconciliation period later.
    if (later) this.checkedAt.delete(bot.record.id);
    await this.read(bot);
    if (filled) await this.sync(bot);
  }

  /** Cancels one resting order: ended (cancelled, or it was never there), filled (the fill came first), or unknown for now. */
  private async cancel(bot: RestingBot, order: RestingRecord): Promise<'ended' | 'filled' | 'unknown'> {
    if (order.status === 'open' || order.status === 'partially_filled') {
      if (!(await stepResting(this.host.db, { clientOrderId: order.clientOrderId, to: 'pending_cancel' }))) return 'unknown';
      order.status = 'pending_cancel';
    }
    let answer: OrderState | null;
    try {
      crashPoint('cancel');
      answer = (await restingOf(bot.port).cancelOrder?.call(bot.port, order.clientOrderId as ClientOrderId, bot.record.symbol)) ?? null;
    } catch (error) {
      this.host.log()?.error({ err: error, order: order.clientOrderId }, 'cancel not answered: the order is looked up again');
      return 'unknown';
    }
    const result = await this.settle(bot, order, answer);
    return result === 'filled' ? 'filled' : result === 'ended' ? 'ended' : 'unknown';
  }

  /**
   * Records a wanted order, under the bot's lease in a cluster (a process whose lease has moved on records
   * and sends nothing: the bot's new holder may rest its own order at the slot), and sends it.
   */
  private async place(bot: RestingBot, want: RestingOrder): Promise<'filled' | 'ended' | 'rests' | 'later' | 'unknown'> {
    const fence = this.host.sender(bot.record.id);
    let clientOrderId: string;
    try {
      clientOrderId = await this.host.db.transaction().execute(async (tx) => {
        if (fence) await checkLease(tx, bot.record.id, fence);
        return insertResting(tx, {
          botId: bot.record.id,
          cycle: bot.kit.cycle(bot.state),
          seq: bot.state.seq,
          slot: want.slot,
          side: want.side,
          price: want.price,
          amount: want.amount,
          reason: want.reason,
        });
      });
    } catch (error) {
      if (error instanceof LeaseLost) return 'unknown';
      throw error;
    }
    const order: RestingRecord = {
      clientOrderId,
      slot: want.slot,
      side: want.side,
      price: want.price,
      amount: want.amount,
      filled: money(0),
      status: 'new',
      reason: want.reason,
      misses: 0,
      notAfter: null,
    };
    this.known.set(bot.record.id, [...(this.known.get(bot.record.id) ?? []), order]);
    return this.send(bot, order);
  }

  /** Sends a recorded resting order (marked sent first, as a market order is: runner.ts send). */
  private async send(bot: RestingBot, order: RestingRecord): Promise<'filled' | 'ended' | 'rests' | 'later' | 'unknown'> {
    // Under the bot's lease only (its sender, which the venue's fence checks): runner.ts send says why.
    const sender = this.host.sender(bot.record.id);
    if (!this.host.mayAct(bot.record.id) || (this.host.clustered && !sender)) return 'unknown';
    crashPoint('recorded');
    const window = bot.port.orderWindowMs;
    const notAfter = window !== undefined ? Date.now() + window : undefined;
    const was = await markSubmitted(this.host.db, { clientOrderId: order.clientOrderId, notAfter: notAfter !== undefined ? new Date(notAfter) : undefined });
    if (was !== 'new') return 'unknown';
    order.status = 'submitted';
    order.notAfter = notAfter !== undefined ? new Date(notAfter) : null;
    let answer: OrderState;
    try {
      answer = await restingOf(bot.port).placeLimitOrder!.call(bot.port, {
        clientOrderId: order.clientOrderId as ClientOrderId,
        symbol: bot.record.symbol,
        side: order.side,
        price: order.price,
        amount: order.amount,
        // A maker order only: one the price has already passed is refused, never filled at once. Its level
        // then trades at market (the price rounds send it), and no fill can come from an order the books
        // meant to rest while the price moved on to other levels, where its booking would clash with theirs.
        postOnly: true,
        timeInForce: 'GTC',
        ...(sender ? { sender } : {}),
        ...(notAfter !== undefined ? { notAfter } : {}),
      });
    } catch (error) {
      // The outcome is unknown (or the lease moved on: the new holder looks it up): looked up by its id.
      this.host.log()?.error({ err: error, order: order.clientOrderId }, 'resting order outcome unknown');
      return 'unknown';
    }
    crashPoint('sent');
    return this.settle(bot, order, answer);
  }

  /** What the venue says of a resting order, recorded: a fill handed to the engine, an end stepped, a rest noted. */
  private async settle(bot: RestingBot, order: RestingRecord, answer: OrderState | null): Promise<'filled' | 'ended' | 'rests' | 'later' | 'unknown'> {
    const db = this.host.db;
    const id = order.clientOrderId;
    if (!answer) return this.missed(bot, order);
    if (answer.status === 'closed' || (answer.status === 'canceled' && answer.filled.gt(0))) {
      if (!(await this.host.filled(bot, order, answer))) return 'later';
      return 'filled';
    }
    if (answer.status === 'canceled') {
      await stepResting(db, { clientOrderId: id, to: 'cancelled' });
      return 'ended';
    }
    if (answer.status === 'rejected' && answer.reason === WOULD_CROSS) {
      // The price is past its level already: no refusal to tell, the level trades at market (the next round
      // crosses it) and its order is placed again after CHECK_EVERY_MS if the price came back.
      await stepResting(db, { clientOrderId: id, to: 'rejected', detail: { reason: WOULD_CROSS } });
      this.refused.set(`${bot.record.id}:${order.slot}`, Date.now() + CHECK_EVERY_MS);
      return 'ended';
    }
    if (answer.status === 'rejected') {
      const reason = answer.reason ?? 'rejected';
      await stepResting(db, { clientOrderId: id, to: 'rejected', detail: { reason } });
      this.refused.set(`${bot.record.id}:${order.slot}`, Date.now() + REFUSED_PAUSE_MS);
      this.host.log()?.error({ bot: bot.record.id, order: id, slot: order.slot, reason }, 'resting order refused: its slot trades at market for a while');
      // The trader is told once, not at every try while the venue goes on refusing it.
      if (!(await refusedBefore(db, { botId: bot.record.id, slot: order.slot, clientOrderId: id }))) {
        await inTransaction(db, async (tx) => {
          const name = await botName(tx, { id: bot.record.id });
          await leaveNotice(tx, bot.record.userId, {
            kind: 'warning',
            code: 'level_refused',
            detail: { bot: bot.record.id, ...(name !== undefined ? { name } : {}), side: order.side, price: order.price.toFixed(), reason: reason.slice(0, 200) },
          });
        });
      }
      return 'ended';
    }
    // It rests (a part filled is booked when the order ends: check cancels the rest at once).
    if (order.status === 'submitted' || order.status === 'lost') await stepResting(db, { clientOrderId: id, to: answer.filled.gt(0) ? 'partially_filled' : 'open', filled: answer.filled });
    else if (order.status === 'open' && answer.filled.gt(0)) await stepResting(db, { clientOrderId: id, to: 'partially_filled', filled: answer.filled });
    return 'rests';
  }

  /**
   * A resting order the venue does not know. Paper's lookup is exact: it never got there. On a live venue,
   * not before its receive window (and the clocks' margin) has passed, and only at the third miss and a
   * targeted query: then it never reached the venue where the request was signed to expire, and is lost
   * otherwise (its slot waits; it is still looked up). One that never reached the venue is sent again,
   * UNREACHED_RESENDS times at most (then it is lost, its bot paused and the trader told, as a market
   * order is: lost-orders.ts),
   * under its own id, never replaced by a new one: a request still on its way (from a process stopped in
   * the middle of it, whose lease has moved on) then finds the same order instead of resting a second one
   * at the slot, whose fill the books could not take.
   */
  private async missed(bot: RestingBot, order: RestingRecord): Promise<'ended' | 'filled' | 'rests' | 'later' | 'unknown'> {
    const db = this.host.db;
    const id = order.clientOrderId;
    if (order.status === 'lost') return 'unknown';
    if (!bot.port.exactLookup) {
      const deadline = order.notAfter ? order.notAfter.getTime() + WINDOW_MARGIN_MS : null;
      if (deadline !== null && Date.now() < deadline) return 'unknown';
      const misses = await countMiss(db, { clientOrderId: id });
      if (misses < LOST_AFTER_MISSES) return 'unknown';
      const found = await targetedLookup(bot.port, id as ClientOrderId, bot.record.symbol);
      if (found) return this.settle(bot, order, found);
      if (deadline === null) {
        await stepResting(db, { clientOrderId: id, to: 'lost', detail: { reason: 'not found' } });
        this.host.log()?.error({ bot: bot.record.id, order: id }, 'resting order lost: its slot waits, the order still looked up');
        return 'unknown';
      }
      if (order.status === 'submitted') {
        // Sent again under its id, UNREACHED_RESENDS times at most (as a market order is: lost-orders.ts);
        // then lost: the bot pauses and the trader is told, rather than the venue being asked unseen forever.
        const fence = this.host.sender(bot.record.id);
        if (this.host.clustered && !fence) return 'unknown';
        const unreached = await markUnreached(db, { botId: bot.record.id, clientOrderId: id, misses, fence }).catch((error: unknown) => {
          if (error instanceof LeaseLost) return 'moved' as const;
          throw error;
        });
        if (unreached === 'moved') return 'unknown';
        if (unreached === 'spent') {
          await markLost(db, { botId: bot.record.id, userId: bot.record.userId, clientOrderId: id, misses, fence }).catch((error: unknown) => {
            if (!(error instanceof LeaseLost)) throw error;
          });
          this.host.log()?.error({ bot: bot.record.id, order: id }, 'resting order never reached the venue after its re-sends: lost, the bot paused');
          return 'unknown';
        }
        order.status = 'new';
        return this.send(bot, order);
      }
    }
    if (order.status === 'pending_cancel') {
      await stepResting(db, { clientOrderId: id, to: 'cancelled', detail: { reason: 'not on the venue' } });
      return 'ended';
    }
    if (!(await stepResting(db, { clientOrderId: id, to: 'new', detail: { reason: 'never reached the venue: sent again under its id' } }))) return 'unknown';
    order.status = 'new';
    return this.send(bot, order);
  }
}
