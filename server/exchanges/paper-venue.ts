import Decimal from 'decimal.js';
import { sql } from 'kysely';
import type { Db } from '../db/connect.ts';
import { clearBotDust } from '../store/bot-rows.ts';
import { accountBots } from '../store/bot-lists.ts';
import { money } from '../../strategy/money.ts';
import type { ClientOrderId } from '../../strategy/types.ts';
import type { SimulatedMarket } from '../market/simulated.ts';
import { fillMarketOrder, PAPER_START_BALANCE, paperMarket } from './paper-fill.ts';
import type { ExchangePort, MarketInfo, MarketOrderRequest, OrderState } from './port.ts';
import { fail } from '../errors.ts';
import { holdsBy, kitOf } from '../../strategy/kit.ts';
import { LeaseLost, senderHolds } from '../cluster/leases.ts';

type OrderRow = {
  client_order_id: string;
  symbol: string;
  side: 'buy' | 'sell';
  status: 'closed' | 'rejected';
  price: string | null;
  filled: string;
  cost: string;
  fee: string | null;
  fee_currency: string | null;
  reason: string | null;
};

function orderOf(row: OrderRow): OrderState {
  return {
    clientOrderId: row.client_order_id as ClientOrderId,
    symbol: row.symbol,
    side: row.side,
    status: row.status,
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
  record(tx: Db, request: MarketOrderRequest, known: boolean, refused: boolean): Promise<void>;
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
export class PaperVenue implements ExchangePort {
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

  async balance(currency: string): Promise<Decimal> {
    await openPaperAccount(this.db, this.userId, this.exchangeId);
    const row = await this.db
      .selectFrom('paper_balances')
      .select('amount')
      .where('user_id', '=', this.userId)
      .where('exchange_id', '=', this.exchangeId)
      .where('currency', '=', currency)
      .executeTakeFirst();
    return money(row?.amount ?? '0');
  }

  async balances(): Promise<{ currency: string; amount: string }[]> {
    await openPaperAccount(this.db, this.userId, this.exchangeId);
    const rows = await this.db.selectFrom('paper_balances').select(['currency', 'amount']).where('user_id', '=', this.userId).where('exchange_id', '=', this.exchangeId).orderBy('currency').execute();
    return rows.map((r) => ({ currency: r.currency, amount: money(r.amount).toFixed() }));
  }

  async fetchOrder(clientOrderId: ClientOrderId): Promise<OrderState | null> {
    const row = await this.db.selectFrom('paper_orders').selectAll().where('client_order_id', '=', clientOrderId).where('user_id', '=', this.userId).executeTakeFirst();
    return row ? orderOf(row) : null;
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
      await sql`select pg_advisory_xact_lock(hashtextextended(${`paper:${this.exchangeId}:${this.userId}`}, 0))`.execute(tx);
      // Opened on its first order, under the lock (a statement and a commit fewer than before the transaction).
      await openPaperAccount(tx, this.userId, this.exchangeId);
      const held = await tx.selectFrom('paper_balances').select(['currency', 'amount']).where('user_id', '=', this.userId).where('exchange_id', '=', this.exchangeId).forUpdate().execute();
      const known = await tx.selectFrom('paper_orders').selectAll().where('client_order_id', '=', request.clientOrderId).executeTakeFirst();
      await this.audit?.record(tx, request, known !== undefined, false);
      if (known) return orderOf(known);
      const balances = new Map(held.map((r) => [r.currency, money(r.amount)]));
      const { order, changes } = fillMarketOrder(m, price, request, (c) => balances.get(c) ?? money(0));
      for (const [currency, delta] of changes) {
        const amount = (balances.get(currency) ?? money(0)).plus(delta).toFixed();
        await tx
          .insertInto('paper_balances')
          .values({ user_id: this.userId, exchange_id: this.exchangeId, currency, amount })
          .onConflict((oc) => oc.columns(['user_id', 'exchange_id', 'currency']).doUpdateSet({ amount }))
          .execute();
      }
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
      return order;
    });
    if (answer === null) throw new LeaseLost(lost ?? request.clientOrderId);
    return answer;
  }
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
    const held = await tx.selectFrom('paper_balances').select(['currency', 'amount']).where('user_id', '=', userId).where('exchange_id', '=', exchangeId).forUpdate().execute();
    const bots = await accountBots(tx, { userId, exchangeId });
    const busy = new Set(bots.filter((b) => b.status !== 'stopped' || b.fields.pending || holdsBy(b.type, b.params, b.state)).map((b) => b.symbol.split('/')[0]));
    const balances = new Map(held.map((r) => [r.currency, money(r.amount)]));
    const swept: SweptCoin[] = [];
    let received = money(0);
    for (const [currency, { symbol, price, market }] of quotes) {
      const amount = balances.get(currency) ?? money(0);
      if (busy.has(currency) || amount.lte(0)) continue;
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
    if (busy) throw fail('SimulationBotsActive');
    await tx.deleteFrom('paper_balances').where('user_id', '=', userId).where('exchange_id', '=', exchangeId).execute();
    await tx
      .insertInto('paper_balances')
      .values(Object.entries(PAPER_START_BALANCE).map(([currency, amount]) => ({ user_id: userId, exchange_id: exchangeId, currency, amount })))
      .execute();
  });
}
