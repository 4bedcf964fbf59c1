import Decimal from 'decimal.js';
import { sql } from 'kysely';
import type { Db } from '../db/connect.ts';
import { clearBotDust } from '../store/bot-rows.ts';
import { accountBots } from '../store/bot-lists.ts';
import { floorTo, money } from '../../strategy/money.ts';
import type { ClientOrderId } from '../../strategy/types.ts';
import type { SimulatedMarket } from '../market/simulated.ts';
import { fillMarketOrder, PAPER_START_BALANCE, paperMarket } from './paper-fill.ts';
import { fillOf, limitOutcome, lockOf, reached, type VolumeModel } from './paper-limit.ts';
import type { ExchangePort, LimitOrderRequest, MarketInfo, MarketOrderRequest, OrderState, OrderTrade, RestingOrderPort } from './port.ts';
import { fail } from '../errors.ts';
import { holdsBy, kitOf } from '../../strategy/kit.ts';
import { LeaseLost, senderHolds } from '../cluster/leases.ts';

type OrderRow = {
  client_order_id: string;
  symbol: string;
  side: 'buy' | 'sell';
  status: 'open' | 'closed' | 'canceled' | 'rejected';
  price: string | null;
  filled: string;
  cost: string;
  fee: string | null;
  fee_currency: string | null;
  reason: string | null;
  kind?: 'market' | 'limit';
  limit_price?: string | null;
  amount?: string | null;
  created_at?: Date;
  filled_at?: Date | null;
};

export function orderOf(row: OrderRow): OrderState {
  return {
    clientOrderId: row.client_order_id as ClientOrderId,
    symbol: row.symbol,
    side: row.side,
    status: row.status,
    ...(row.kind === 'limit' && row.limit_price && row.amount ? { limit: { price: money(row.limit_price), amount: money(row.amount) } } : {}),
    ...(row.created_at ? { at: row.created_at.getTime() } : {}),
    ...(row.filled_at ? { filledAt: row.filled_at.getTime() } : row.status === 'closed' && row.created_at ? { filledAt: row.created_at.getTime() } : {}),
    price: row.price === null ? null : money(row.price),
    filled: money(row.filled),
    cost: money(row.cost),
    fee: row.fee === null ? null : { currency: row.fee_currency ?? '', amount: money(row.fee) },
    ...(row.reason ? { reason: row.reason } : {}),
  };
}

/** Gives a user their starting Paper balance the first time their Paper account is used. */
export async function openPaperAccount(db: Db, userId: string, exchangeId = 1): Promise<void> {
  await db
    .insertInto('paper_balances')
    .values(Object.entries(PAPER_START_BALANCE).map(([currency, amount]) => ({ user_id: userId, exchange_id: exchangeId, currency, amount })))
    .onConflict((oc) => oc.columns(['user_id', 'exchange_id', 'currency']).doNothing())
    .execute();
}

/**
 * What a test audit records of every order Paper receives (server/testing/venue-audit.ts, handed in by
 * main.ts for the cluster's chaos test): absent in the product, where Paper records nothing more.
 */
export interface PaperAudit {
  /** Before the order's transaction, never inside it (the transaction holds the account's lock). */
  prepare(db: Db): Promise<void>;
  /** Inside the order's transaction: the call, whether Paper knew its id, whether the fence refused it. */
  record(tx: Db, request: Pick<MarketOrderRequest, 'clientOrderId' | 'sender'>, known: boolean, refused: boolean): Promise<void>;
}

/** Where a simulated account reads its prices and rules: Paper's simulated market, or a live exchange's. */
export interface PaperSource {
  market(symbol: string): Promise<MarketInfo>;
  price(symbol: string): Promise<Decimal>;
}

/** Paper's own source: the simulated market at the market clock, with Paper's rules. */
export function simulatedSource(feed: SimulatedMarket, now: () => number): PaperSource {
  return {
    async market(symbol) {
      const info = feed.info(symbol);
      return paperMarket(symbol, info.tick, info.step);
    },
    async price(symbol) {
      return money(feed.priceAt(symbol, now()));
    },
  };
}

/**
 * A user's account on the built-in Paper exchange, kept in the database like a real venue keeps its
 * books: the order and the balance change are written in one transaction, and an order is stored under
 * its client order id, so placing it again (a retry after a crash) returns the first answer. These
 * books are the venue's, apart from the bots' own records: the engine reconciles against them.
 */
export class PaperVenue implements ExchangePort, RestingOrderPort {
  /** Its orders and its lookups are in the same database: not found is never placed. */
  readonly exactLookup = true;
  private readonly db: Db;
  private readonly userId: string;
  private readonly source: PaperSource;
  private readonly exchangeId: number;

  private readonly audit: PaperAudit | undefined;

  /** A user's simulated account: Paper (exchange 1) by default, or one on a live exchange's prices. */
  constructor(db: Db, userId: string, source: PaperSource, exchangeId = 1, audit?: PaperAudit) {
    this.db = db;
    this.userId = userId;
    this.source = source;
    this.exchangeId = exchangeId;
    this.audit = audit;
  }

  market(symbol: string): Promise<MarketInfo> {
    return this.source.market(symbol);
  }

  /** What the account may spend of a currency: its balance less what its open orders hold. */
  async balance(currency: string): Promise<Decimal> {
    await openPaperAccount(this.db, this.userId, this.exchangeId);
    const row = await this.db
      .selectFrom('paper_balances')
      .select(['amount', 'locked'])
      .where('user_id', '=', this.userId)
      .where('exchange_id', '=', this.exchangeId)
      .where('currency', '=', currency)
      .executeTakeFirst();
    return row ? money(row.amount).minus(row.locked) : money(0);
  }

  async balances(): Promise<{ currency: string; amount: string }[]> {
    await openPaperAccount(this.db, this.userId, this.exchangeId);
    const rows = await this.db.selectFrom('paper_balances').select(['currency', 'amount']).where('user_id', '=', this.userId).where('exchange_id', '=', this.exchangeId).orderBy('currency').execute();
    return rows.map((r) => ({ currency: r.currency, amount: money(r.amount).toFixed() }));
  }

  /**
   * An order by its client order id. A limit order still resting is first matched against the market's
   * price now (matchRestingOrders): Paper's book is matched when it is asked, as a venue's would have been
   * while the price passed, so that the answer says what a venue's would.
   */
  async fetchOrder(clientOrderId: ClientOrderId): Promise<OrderState | null> {
    const read = () => this.db.selectFrom('paper_orders').selectAll().where('client_order_id', '=', clientOrderId).where('user_id', '=', this.userId).executeTakeFirst();
    const row = await read();
    if (row?.kind !== 'limit' || row.status !== 'open') return row ? orderOf(row) : null;
    await this.match(row.symbol);
    const now = await read();
    return now ? orderOf(now) : null;
  }

  /** Fills what the market's price now reaches of the pair's resting orders (every account's, as a venue's book does). */
  private async match(symbol: string): Promise<void> {
    // No price to match at (a live feed down): the book stays as it is until the next ask.
    await matchRestingOrders(this.db, this.source, this.exchangeId, symbol).catch(() => undefined);
  }

  /**
   * Fills a market order, once per client order id. A cluster's order (`request.sender`) is fenced here
   * too: in the same transaction as the fill, the bot's lease row is locked and compared
   * with the sender, and an order from a process that no longer holds the bot is refused with LeaseLost,
   * neither filled nor answered from Paper's records, so a woken stale owner gets nothing through, and
   * the owner that took the bot over finds either this order (it came first: the takeover waited for
   * the lock) or nothing, and sends it itself under the same id. Live exchanges cannot take part in our
   * transaction: what protects them is the sender's lease, checked in the decision's transaction just
   * before the send (read again before a re-send, runner.ts), its heartbeat's self-fence, and the client
   * order id, which the new owner looks up on the exchange before it sends anything again.
   */
  async placeMarketOrder(request: MarketOrderRequest): Promise<OrderState> {
    const m = await this.market(request.symbol);
    // The price is read before the transaction: a live exchange's answer must not hold the lock.
    const price = await this.source.price(request.symbol);
    let lost: string | null = null;
    await this.audit?.prepare(this.db);
    const answer = await this.db.transaction().execute(async (tx) => {
      // The bot's lease first, then the account (every Paper order locks in that order).
      const fence = request.sender ? await senderHolds(tx, request.clientOrderId, request.sender) : undefined;
      if (fence && !fence.holds) {
        const known = await tx.selectFrom('paper_orders').select('client_order_id').where('client_order_id', '=', request.clientOrderId).executeTakeFirst();
        await this.audit?.record(tx, request, known !== undefined, true);
        // Committed all the same (the audit's row, in tests): the refusal is thrown once it is.
        lost = fence.botId;
        return null;
      }
      // One order of this account at a time, the order id checked under the lock: a lock on the account
      // (transaction-scoped), then its balances read afresh. Locking only the balance rows was not enough:
      // an order waiting for them had not seen the row of a coin another order had just created, set its
      // own amount over it (a lost fill), or deadlocked with a third order that had locked it first.
      const book = await lockAccount(tx, this.userId, this.exchangeId);
      const known = await tx.selectFrom('paper_orders').selectAll().where('client_order_id', '=', request.clientOrderId).executeTakeFirst();
      await this.audit?.record(tx, request, known !== undefined, false);
      if (known) return orderOf(known);
      // What open limit orders hold is not free to spend.
      const { order, changes } = fillMarketOrder(m, price, request, book.free);
      await book.write(tx, changes, new Map());
      await tx
        .insertInto('paper_orders')
        .values({
          client_order_id: order.clientOrderId,
          user_id: this.userId,
          exchange_id: this.exchangeId,
          symbol: order.symbol,
          side: order.side,
          status: order.status === 'closed' ? 'closed' : 'rejected',
          price: order.price?.toFixed() ?? null,
          filled: order.filled.toFixed(),
          cost: order.cost.toFixed(),
          fee: order.fee?.amount.toFixed() ?? null,
          fee_currency: order.fee?.currency ?? null,
          reason: order.reason ?? null,
        })
        .execute();
      if (order.status === 'closed' && order.price && order.fee) {
        await insertTrade(tx, this.account, {
          clientOrderId: order.clientOrderId,
          symbol: order.symbol,
          side: order.side,
          price: order.price,
          amount: order.filled,
          cost: order.cost,
          fee: order.fee,
          maker: false,
        });
      }
      return order;
    });
    if (answer === null) throw new LeaseLost(lost ?? request.clientOrderId);
    return answer;
  }

  private get account(): Account {
    return { userId: this.userId, exchangeId: this.exchangeId };
  }

  /**
   * A limit order (paper-limit.ts's rules), once per client order id: it fills at once as a taker when
   * it crosses the market, rests holding what it would spend otherwise (until matchRestingOrders fills it
   * at its price as a maker, or it is cancelled), expires when IOC or FOK. Fenced by the sender's lease
   * as a market order is.
   */
  async placeLimitOrder(request: LimitOrderRequest): Promise<OrderState> {
    const m = await this.market(request.symbol);
    const price = await this.source.price(request.symbol);
    let lost: string | null = null;
    await this.audit?.prepare(this.db);
    const answer = await this.db.transaction().execute(async (tx) => {
      const fence = request.sender ? await senderHolds(tx, request.clientOrderId, request.sender) : undefined;
      if (fence && !fence.holds) {
        const known = await tx.selectFrom('paper_orders').select('client_order_id').where('client_order_id', '=', request.clientOrderId).executeTakeFirst();
        await this.audit?.record(tx, request, known !== undefined, true);
        lost = fence.botId;
        return null;
      }
      const book = await lockAccount(tx, this.userId, this.exchangeId);
      const known = await tx.selectFrom('paper_orders').selectAll().where('client_order_id', '=', request.clientOrderId).executeTakeFirst();
      await this.audit?.record(tx, request, known !== undefined, false);
      if (known) return orderOf(known);
      const outcome = limitOutcome(m, price, request, book.free);
      const row = {
        client_order_id: request.clientOrderId,
        user_id: this.userId,
        exchange_id: this.exchangeId,
        symbol: request.symbol,
        side: request.side,
        kind: 'limit' as const,
        limit_price: request.price.toFixed(),
        amount: request.amount.toFixed(),
        post_only: request.postOnly === true,
        filled: '0',
        cost: '0',
        price: null,
        fee: null,
        fee_currency: null,
        reason: null,
      };
      if (outcome.kind === 'rejected') {
        await tx
          .insertInto('paper_orders')
          .values({ ...row, status: 'rejected', reason: outcome.reason })
          .execute();
      } else if (outcome.kind === 'expired') {
        await tx
          .insertInto('paper_orders')
          .values({ ...row, status: 'canceled', reason: 'expired' })
          .execute();
      } else if (outcome.kind === 'rests') {
        await book.write(tx, new Map(), new Map([[outcome.lock.currency, outcome.lock.amount]]));
        await tx
          .insertInto('paper_orders')
          .values({ ...row, status: 'open' })
          .execute();
      } else {
        const f = outcome.fill;
        await book.write(tx, f.changes, new Map());
        await tx
          .insertInto('paper_orders')
          .values({ ...row, status: 'closed', price: f.price.toFixed(), filled: f.amount.toFixed(), cost: f.cost.toFixed(), fee: f.fee.amount.toFixed(), fee_currency: f.fee.currency })
          .execute();
        await insertTrade(tx, this.account, { clientOrderId: request.clientOrderId, symbol: request.symbol, side: request.side, ...f });
      }
      return orderOf((await tx.selectFrom('paper_orders').selectAll().where('client_order_id', '=', request.clientOrderId).executeTakeFirstOrThrow()) as OrderRow);
    });
    if (answer === null) throw new LeaseLost(lost ?? request.clientOrderId);
    return answer;
  }

  /** Cancels an open order and frees what it held; an order already filled or ended answers as it is; null: no such order. */
  async cancelOrder(clientOrderId: ClientOrderId, symbol: string): Promise<OrderState | null> {
    const m = await this.market(symbol);
    // A fill the price reached first comes before the cancel, as on a venue.
    await this.match(symbol);
    return this.db.transaction().execute(async (tx) => {
      const book = await lockAccount(tx, this.userId, this.exchangeId);
      const row = await tx
        .selectFrom('paper_orders')
        .selectAll()
        .where('client_order_id', '=', clientOrderId)
        .where('user_id', '=', this.userId)
        .where('exchange_id', '=', this.exchangeId)
        .executeTakeFirst();
      if (!row) return null;
      if (row.status !== 'open') return orderOf(row);
      const left = money(row.amount ?? '0').minus(row.filled);
      const lock = lockOf(m, row.side, money(row.limit_price ?? '0'), left);
      await book.write(tx, new Map(), new Map([[lock.currency, lock.amount.neg()]]));
      await tx.updateTable('paper_orders').set({ status: 'canceled' }).where('client_order_id', '=', clientOrderId).execute();
      return orderOf({ ...row, status: 'canceled' });
    });
  }

  /** This account's resting orders (of one pair, when given), oldest first. */
  async fetchOpenOrders(symbol?: string): Promise<OrderState[]> {
    if (symbol) await this.match(symbol);
    let q = this.db.selectFrom('paper_orders').selectAll().where('user_id', '=', this.userId).where('exchange_id', '=', this.exchangeId).where('status', '=', 'open');
    if (symbol) q = q.where('symbol', '=', symbol);
    return (await q.orderBy('created_at').orderBy('client_order_id').execute()).map(orderOf);
  }

  /** An order's fills, each with its trade id, in the order they happened. */
  async fetchOrderTrades(clientOrderId: ClientOrderId): Promise<OrderTrade[]> {
    const rows = await this.db.selectFrom('paper_trades').selectAll().where('client_order_id', '=', clientOrderId).where('user_id', '=', this.userId).orderBy('id').execute();
    return rows.map((r) => ({
      id: String(r.id),
      clientOrderId: r.client_order_id as ClientOrderId,
      symbol: r.symbol,
      side: r.side,
      price: money(r.price),
      amount: money(r.amount),
      cost: money(r.cost),
      fee: { currency: r.fee_currency, amount: money(r.fee) },
      maker: r.maker,
      at: r.created_at.getTime(),
    }));
  }
}

/** A Paper account: a user's, on Paper or on a live exchange's prices. */
interface Account {
  userId: string;
  exchangeId: number;
}

/**
 * Takes the account's lock (transaction-scoped; every order of the account takes it) and reads its
 * balances afresh: what each currency holds, what open orders lock of it, and a writer of changes.
 * Locking only the balance rows was not enough: an order waiting for them had not seen the row of a coin
 * another order had just created, set its own amount over it (a lost fill), or deadlocked with a third
 * order that had locked it first.
 */
async function lockAccount(tx: Db, userId: string, exchangeId: number) {
  await sql`select pg_advisory_xact_lock(hashtextextended(${`paper:${exchangeId}:${userId}`}, 0))`.execute(tx);
  // Opened on its first order, under the lock (a statement and a commit fewer than before the transaction).
  await openPaperAccount(tx, userId, exchangeId);
  const held = await tx.selectFrom('paper_balances').select(['currency', 'amount', 'locked']).where('user_id', '=', userId).where('exchange_id', '=', exchangeId).forUpdate().execute();
  const rows = new Map(held.map((r) => [r.currency, { amount: money(r.amount), locked: money(r.locked) }]));
  return {
    free: (currency: string) => {
      const r = rows.get(currency);
      return r ? r.amount.minus(r.locked) : money(0);
    },
    /** Applies balance changes and lock changes (positive: locked more), by currency. */
    async write(db: Db, changes: Map<string, Decimal>, locks: Map<string, Decimal>) {
      for (const currency of new Set([...changes.keys(), ...locks.keys()])) {
        const was = rows.get(currency) ?? { amount: money(0), locked: money(0) };
        const now = { amount: was.amount.plus(changes.get(currency) ?? 0), locked: was.locked.plus(locks.get(currency) ?? 0) };
        rows.set(currency, now);
        const values = { amount: now.amount.toFixed(), locked: now.locked.toFixed() };
        await db
          .insertInto('paper_balances')
          .values({ user_id: userId, exchange_id: exchangeId, currency, ...values })
          .onConflict((oc) => oc.columns(['user_id', 'exchange_id', 'currency']).doUpdateSet(values))
          .execute();
      }
    },
  };
}

/** Records one fill of an order as the venue's trade. */
async function insertTrade(
  tx: Db,
  account: Account,
  t: { clientOrderId: string; symbol: string; side: 'buy' | 'sell'; price: Decimal; amount: Decimal; cost: Decimal; fee: { currency: string; amount: Decimal }; maker: boolean },
): Promise<void> {
  await tx
    .insertInto('paper_trades')
    .values({
      client_order_id: t.clientOrderId,
      user_id: account.userId,
      exchange_id: account.exchangeId,
      symbol: t.symbol,
      side: t.side,
      price: t.price.toFixed(),
      amount: t.amount.toFixed(),
      cost: t.cost.toFixed(),
      fee: t.fee.amount.toFixed(),
      fee_currency: t.fee.currency,
      maker: t.maker,
    })
    .execute();
}

/**
 * Fills the resting orders of a simulated exchange's pair that the market's price `price` reaches, each
 * at its own limit price as a maker (a price that gapped past a buy at 100 fills it at 100, as a venue
 * does), each in its account's transaction under its lock: whole, or the part a volume model gives (floored
 * to the step; what would be left under the minimum fills with it), the rest resting on. Answers the
 * orders that filled (whole or in part). `at`: the price to match at (the engine's round's), else the source's now.
 */
export async function matchRestingOrders(db: Db, source: PaperSource, exchangeId: number, symbol: string, volume?: VolumeModel, at?: Decimal): Promise<string[]> {
  const price = at ?? (await source.price(symbol));
  const m = await source.market(symbol);
  const p = price.toFixed();
  const crossing = await db
    .selectFrom('paper_orders')
    .select(['client_order_id', 'user_id'])
    .where('exchange_id', '=', exchangeId)
    .where('symbol', '=', symbol)
    .where('status', '=', 'open')
    .where((eb) => eb.or([eb.and([eb('side', '=', 'buy'), eb('limit_price', '>=', p)]), eb.and([eb('side', '=', 'sell'), eb('limit_price', '<=', p)])]))
    // Best price first, as a venue's book matches (a buy at 100 before one at 99; a sell at 101 before one at
    // 102), then the oldest: a falling price fills a grid's buys from the top down.
    .orderBy(sql`case when side = 'buy' then -limit_price else limit_price end`)
    .orderBy('created_at')
    .orderBy('client_order_id')
    .execute();
  const filled: string[] = [];
  for (const order of crossing) {
    const userId = String(order.user_id);
    const done = await db.transaction().execute(async (tx) => {
      const book = await lockAccount(tx, userId, exchangeId);
      const row = await tx.selectFrom('paper_orders').selectAll().where('client_order_id', '=', order.client_order_id).where('status', '=', 'open').executeTakeFirst();
      if (!row?.limit_price || !row.amount) return false;
      const limit = money(row.limit_price);
      if (!reached(row.side, limit, price)) return false;
      const amount = money(row.amount);
      const left = amount.minus(row.filled);
      let part = volume ? floorTo(Decimal.min(left, volume({ clientOrderId: row.client_order_id, amount, filled: money(row.filled) })), m.stepSize) : left;
      // At least the minimum a time (a share floored to nothing would never end it), and never a rest under it.
      if (part.lt(m.minAmount)) part = Decimal.min(left, m.minAmount);
      if (left.minus(part).lt(m.minAmount)) part = left;
      const f = fillOf(m, row.side, limit, part, { limit });
      await book.write(tx, f.changes, new Map([...f.unlocks].map(([c, a]) => [c, a.neg()])));
      const filledNow = money(row.filled).plus(part);
      const cost = money(row.cost).plus(f.cost);
      await tx
        .updateTable('paper_orders')
        .set({
          status: filledNow.eq(amount) ? 'closed' : 'open',
          filled: filledNow.toFixed(),
          cost: cost.toFixed(),
          price: cost.div(filledNow).toFixed(),
          fee: money(row.fee ?? '0')
            .plus(f.fee.amount)
            .toFixed(),
          fee_currency: f.fee.currency,
          filled_at: new Date(),
        })
        .where('client_order_id', '=', row.client_order_id)
        .execute();
      await insertTrade(tx, { userId, exchangeId }, { clientOrderId: row.client_order_id, symbol, side: row.side, ...f });
      return true;
    });
    if (done) filled.push(order.client_order_id);
  }
  return filled;
}

/** A coin swept by sweepDust: its amount, the USDT it brought, and the stopped bots whose dust it held (their names). */
export interface SweptCoin {
  currency: string;
  amount: string;
  quote: string;
  from: string[];
}

const QUOTE = 'USDT';
const QUOTE_PLACES = 8;

/**
 * Binance's "convert small balances" on a simulated account: every coin too small to be sold by an
 * order (below its USDT pair's minimum amount or cost, at the price now) is sold into USDT at that
 * price less the pair's fee, in one transaction under the account's lock (the one every Paper order
 * takes), with a record in the account's orders (reason 'dust'). Such coin is what the fee taken in the
 * coin and the step's rounding leave of a bot's trades (strategy/README.md "Books in the quote"). A coin
 * a bot still trades (running, paused, or holding a position or an order on its pair) is left alone:
 * it is that bot's, and its next sale counts on it. The dust a stopped bot kept of a coin swept is
 * cleared from its state in the same transaction, so that no later sale counts on it.
 */
export async function sweepDust(db: Db, userId: string, source: PaperSource, exchangeId = 1, now = Date.now()): Promise<SweptCoin[]> {
  await openPaperAccount(db, userId, exchangeId);
  const before = await db.selectFrom('paper_balances').select(['currency', 'amount']).where('user_id', '=', userId).where('exchange_id', '=', exchangeId).execute();
  // Prices and rules are read before the transaction (a live exchange's answer must not hold the lock).
  const quotes = new Map<string, { symbol: string; price: Decimal; market: MarketInfo }>();
  for (const row of before) {
    if (row.currency === QUOTE || money(row.amount).lte(0)) continue;
    const symbol = `${row.currency}/${QUOTE}`;
    try {
      quotes.set(row.currency, { symbol, price: await source.price(symbol), market: await source.market(symbol) });
    } catch {
      // No USDT pair to value it by: left as it is.
    }
  }
  if (quotes.size === 0) return [];
  return db.transaction().execute(async (tx) => {
    await sql`select pg_advisory_xact_lock(hashtextextended(${`paper:${exchangeId}:${userId}`}, 0))`.execute(tx);
    const held = await tx.selectFrom('paper_balances').select(['currency', 'amount', 'locked']).where('user_id', '=', userId).where('exchange_id', '=', exchangeId).forUpdate().execute();
    const bots = await accountBots(tx, { userId, exchangeId });
    // A coin an open order holds is that order's.
    const ordered = new Set(held.filter((r) => money(r.locked).gt(0)).map((r) => r.currency));
    const busy = new Set(bots.filter((b) => b.status !== 'stopped' || b.fields.pending || holdsBy(b.type, b.params, b.state)).map((b) => b.symbol.split('/')[0]));
    const balances = new Map(held.map((r) => [r.currency, money(r.amount)]));
    const swept: SweptCoin[] = [];
    let received = money(0);
    for (const [currency, { symbol, price, market }] of quotes) {
      const amount = balances.get(currency) ?? money(0);
      if (busy.has(currency) || ordered.has(currency) || amount.lte(0)) continue;
      const cost = amount.mul(price);
      if (amount.gte(market.minAmount) && cost.gte(market.minCost)) continue;
      const fee = cost.mul(market.feeRate);
      const quote = cost.minus(fee).toDecimalPlaces(QUOTE_PLACES, Decimal.ROUND_DOWN);
      received = received.plus(quote);
      const dusty = bots.filter((x) => x.symbol === symbol && money(kitOf(x.type).dust(x.state)).gt(0));
      swept.push({ currency, amount: amount.toFixed(), quote: quote.toFixed(), from: dusty.map((x) => x.name) });
      await tx.updateTable('paper_balances').set({ amount: '0' }).where('user_id', '=', userId).where('exchange_id', '=', exchangeId).where('currency', '=', currency).execute();
      await tx
        .insertInto('paper_orders')
        .values({
          client_order_id: `dust-${exchangeId}-${userId}-${currency}-${now}`,
          user_id: userId,
          exchange_id: exchangeId,
          symbol,
          side: 'sell',
          status: 'closed',
          price: price.toFixed(),
          filled: amount.toFixed(),
          cost: cost.toFixed(),
          fee: fee.toFixed(),
          fee_currency: QUOTE,
          reason: 'dust',
        })
        .execute();
      // The stopped bots' dust of this coin is gone with it.
      for (const b of bots.filter((x) => x.symbol === symbol)) {
        await clearBotDust(tx, { id: b.id, cleared: kitOf(b.type).sweptDust });
      }
    }
    if (swept.length > 0) {
      const amount = (balances.get(QUOTE) ?? money(0)).plus(received).toFixed();
      await tx
        .insertInto('paper_balances')
        .values({ user_id: userId, exchange_id: exchangeId, currency: QUOTE, amount })
        .onConflict((oc) => oc.columns(['user_id', 'exchange_id', 'currency']).doUpdateSet({ amount }))
        .execute();
    }
    return swept;
  });
}

/**
 * Puts a user's Paper account back to its starting balance (the simulation page's reset). Refused while
 * any of their Paper bots runs, is paused, or holds a position or an order: their books would no
 * longer match the account.
 */
export async function resetPaperAccount(db: Db, userId: string, exchangeId = 1): Promise<void> {
  await db.transaction().execute(async (tx) => {
    const bots = await accountBots(tx, { userId, exchangeId });
    const busy = bots.some((b) => b.status !== 'stopped' || b.fields.pending || holdsBy(b.type, b.params, b.state));
    // An open order's lock would outlive the balance it was taken from.
    const resting = await tx.selectFrom('paper_orders').select('client_order_id').where('user_id', '=', userId).where('exchange_id', '=', exchangeId).where('status', '=', 'open').executeTakeFirst();
    if (busy || resting) throw fail('SimulationBotsActive');
    await tx.deleteFrom('paper_balances').where('user_id', '=', userId).where('exchange_id', '=', exchangeId).execute();
    await tx
      .insertInto('paper_balances')
      .values(Object.entries(PAPER_START_BALANCE).map(([currency, amount]) => ({ user_id: userId, exchange_id: exchangeId, currency, amount })))
      .execute();
  });
}
