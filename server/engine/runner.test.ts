import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../db/connect.ts';
import { PaperExchange } from '../exchanges/paper.ts';
import { API_KEY_REFUSED, type ExchangePort, type MarketOrderRequest, type OrderState } from '../exchanges/port.ts';
import { money } from '../../strategy/money.ts';
import { ScriptedMarket } from '../testing/scripted.ts';
import { openTestDb } from '../testing/test-support.ts';
import { encodeMartin } from '../../strategy/martin/state-codec.ts';
import { initialMartinState, type MartinState } from '../../strategy/martin/strategy.ts';
import { Engine } from './runner.ts';
import { botId, type ClientOrderId } from '../../strategy/types.ts';

/**
 * An exchange whose answers get lost: 'after' = the order reached the exchange but the answer timed
 * out; 'before' = the request never reached it. Counts every order request it receives.
 */
class FlakyExchange implements ExchangePort {
  /** It loses answers on the way, but its lookups are Paper's: exact. */
  readonly exactLookup = true;
  readonly inner: PaperExchange;
  lose: 'after' | 'before' | null = null;
  loseOnly: string | null = null;
  /** The exchange refuses the next order with this reason. */
  refuse: string | null = null;
  requests: string[] = [];
  /** The trigger price each request rested at (`at`), or null. */
  ats: (string | null)[] = [];
  constructor(inner: PaperExchange) {
    this.inner = inner;
  }
  market(symbol: string) {
    return this.inner.market(symbol);
  }
  balance(currency: string) {
    return this.inner.balance(currency);
  }
  fetchOrder(id: ClientOrderId): Promise<OrderState | null> {
    return this.inner.fetchOrder(id);
  }
  async placeMarketOrder(request: MarketOrderRequest): Promise<OrderState> {
    this.requests.push(request.clientOrderId);
    this.ats.push(request.at?.toFixed() ?? null);
    if (this.refuse !== null) {
      const reason = this.refuse;
      this.refuse = null;
      return { clientOrderId: request.clientOrderId, symbol: request.symbol, side: request.side, status: 'rejected', price: null, filled: money(0), cost: money(0), fee: null, reason };
    }
    // `loseOnly`: only that order's answer is lost (other tests' bots trade on the same market).
    const lose = this.loseOnly === null || this.loseOnly === request.clientOrderId ? this.lose : null;
    if (lose) {
      this.lose = null;
      this.loseOnly = null;
    }
    if (lose === 'before') throw new Error('ETIMEDOUT before the exchange');
    const answer = await this.inner.placeMarketOrder(request);
    if (lose === 'after') throw new Error('ETIMEDOUT after the exchange took it');
    return answer;
  }
}

/**
 * A live venue whose lookups miss an order it holds (a lag after the send, a window of client ids): every
 * answer to an order times out after the venue took it, and `hide` makes its lookups find nothing.
 */
class MissingExchange implements ExchangePort {
  readonly inner: PaperExchange;
  hide = true;
  requests: string[] = [];
  constructor(inner: PaperExchange) {
    this.inner = inner;
  }
  market(symbol: string) {
    return this.inner.market(symbol);
  }
  balance(currency: string) {
    return this.inner.balance(currency);
  }
  async fetchOrder(id: ClientOrderId): Promise<OrderState | null> {
    return this.hide ? null : this.inner.fetchOrder(id);
  }
  async placeMarketOrder(request: MarketOrderRequest): Promise<OrderState> {
    this.requests.push(request.clientOrderId);
    await this.inner.placeMarketOrder(request);
    throw new Error('ETIMEDOUT after the exchange took it');
  }
}

describe('the engine when an exchange answer is lost', () => {
  let db: Db;
  let drop: () => Promise<void>;
  const market = new ScriptedMarket();
  let exchange: FlakyExchange;
  let engine: Engine;
  let userId: string;

  const newBot = async () => {
    const row = await db
      .insertInto('bots')
      .values({
        user_id: userId,
        exchange_id: 1,
        symbol: 'BTC/USDT',
        type: 'martin',
        name: 'b',
        status: 'running',
        params: JSON.stringify({ investment: '1000', firstOrder: '100', multiplier: '2', maxPositions: 3, addTrigger: '2', takeProfit: '1', repeat: true }),
        state: JSON.stringify(encodeMartin(initialMartinState(botId('x')))),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return String(row.id);
  };
  const orders = (id: string) => db.selectFrom('bot_orders').select(['client_order_id', 'status', 'price']).where('bot_id', '=', id).orderBy('seq').execute();

  beforeAll(async () => {
    ({ db, drop } = await openTestDb('pglite'));
    const user = await db
      .insertInto('users')
      .values({ sn: '11112222', account: 'engine01', password_hash: null, payment_hash: null, nickname: 'n', email: '', mobile: '', address: null, avatar: '', referrer_id: null })
      .returning('id')
      .executeTakeFirstOrThrow();
    userId = String(user.id);
    market.set('BTC/USDT', '50000');
    exchange = new FlakyExchange(new PaperExchange(market, { USDT: '10000' }));
    engine = new Engine({ db, prices: { price: async (_e, s) => market.priceAt(s, 0) }, venue: async () => exchange });
  });
  afterAll(async () => {
    await engine.stop();
    await drop();
  });

  it('tells its rounds and queue waits, and says when its rounds stall (GET /api/ready)', async () => {
    const seen = { rounds: 0, queued: 0 };
    let hang = false;
    const stalling = new Engine({
      db,
      prices: { price: (_e, s) => (hang ? new Promise<string>(() => undefined) : Promise.resolve(market.priceAt(s, 0))) },
      venue: async () => exchange,
      tickMs: 20,
      stallMs: 400,
      observe: { round: () => seen.rounds++, queued: () => seen.queued++, leases: () => undefined },
    });
    expect(stalling.stalled()).toBeUndefined(); // not started: nothing to say
    await newBot();
    await stalling.start();
    try {
      expect(seen.queued).toBeGreaterThan(0); // the start's load and reconcile, one queued event per bot
      await expect.poll(() => seen.rounds).toBeGreaterThan(2);
      expect(stalling.stalled()).toBeUndefined();
      hang = true; // the price source stops answering: the round in progress never ends
      await expect.poll(() => stalling.stalled(), { timeout: 10_000 }).toMatch(/^no round for \d+ ms$/);
    } finally {
      await stalling.stop();
    }
  });

  it('looks a timed-out order up by its client order id and records the fill, never sending it twice', async () => {
    const id = await newBot();
    exchange.lose = 'after';
    await engine.serial(id, () => engine.refresh(id));
    expect(await orders(id)).toEqual([{ client_order_id: `${id}-1-1`, status: 'submitted', price: null }]);
    expect(engine.stateOf(id)?.pending?.id).toBe(`${id}-1-1`);
    for (let i = 0; i < 5; i++) await engine.tick(); // the 5th round looks up orders without an answer
    await engine.idle();
    expect((await orders(id)).map((o) => [o.client_order_id, o.status])).toEqual([[`${id}-1-1`, 'filled']]);
    expect(exchange.requests.filter((r) => r === `${id}-1-1`)).toHaveLength(1);
    expect(engine.stateOf<MartinState>(id)?.fills).toHaveLength(1);
  });

  it('pauses a bot whose order is refused and warns: a refused API key with its own warning', async () => {
    const notices = () => db.selectFrom('notices').select(['code', 'detail']).where('user_id', '=', userId).orderBy('id').execute();
    const before = (await notices()).length;
    const refused = await newBot();
    exchange.refuse = 'Order size below the minimum';
    await engine.serial(refused, () => engine.refresh(refused));
    const locked = await newBot();
    exchange.refuse = `${API_KEY_REFUSED}Invalid API-key, IP, or permissions for action.`;
    await engine.serial(locked, () => engine.refresh(locked));
    await engine.idle();
    const status = await db.selectFrom('bots').select(['id', 'status']).where('id', 'in', [refused, locked]).orderBy('id').execute();
    expect(status.map((b) => b.status)).toEqual(['paused', 'paused']);
    expect((await notices()).slice(before)).toEqual([
      // The bot's name, for the notice to name it; the exchange's words, for the screen to word by kind.
      { code: 'bot_paused', detail: { bot: refused, name: 'b', reason: 'Order size below the minimum' } },
      { code: 'api_key_invalid', detail: { bot: locked, name: 'b', reason: `${API_KEY_REFUSED}Invalid API-key, IP, or permissions for action.` } },
    ]);
  });

  it('never sends an order again on a live venue whose lookups miss it: lost at the third miss, the bot paused and told, its fill counted once found', async () => {
    const venue = new MissingExchange(new PaperExchange(market, { USDT: '10000' }));
    const live = new Engine({ db, prices: { price: async (_e, s) => market.priceAt(s, 0) }, venue: async () => venue });
    try {
      const id = await newBot();
      const order = `${id}-1-1`;
      await live.serial(id, () => live.refresh(id));
      const steps = async () => (await db.selectFrom('bot_order_steps').select('to_phase').where('client_order_id', '=', order).orderBy('id').execute()).map((r) => r.to_phase);
      expect(await steps()).toEqual(['new', 'submitted']);
      // Five rounds, the fifth looking the order up, and its lookup done (the engine's rounds are a second apart).
      const rounds = async (n: number) => {
        for (let i = 0; i < n; i++) await live.tick();
        await live.idle();
      };
      // Two lookups find nothing: still in flight, the bot runs.
      await rounds(5);
      await rounds(5);
      expect((await db.selectFrom('bot_orders').select('misses').where('client_order_id', '=', order).executeTakeFirstOrThrow()).misses).toBe(2);
      expect((await db.selectFrom('bots').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status).toBe('running');
      // The third, and the targeted query: lost. The bot pauses with a warning naming the order.
      await rounds(5);
      expect(await steps()).toEqual(['new', 'submitted', 'lost']);
      expect(await db.selectFrom('bots').select(['status', 'error']).where('id', '=', id).executeTakeFirstOrThrow()).toEqual({ status: 'paused', error: 'order_lost' });
      const warning = await db.selectFrom('notices').select(['kind', 'detail']).where('user_id', '=', userId).where('code', '=', 'order_lost').executeTakeFirstOrThrow();
      expect(warning).toEqual({ kind: 'warning', detail: { bot: id, name: 'b', order } });
      // Still looked up while lost; never sent again.
      await rounds(5);
      expect(venue.requests.filter((r) => r === order)).toHaveLength(1);
      // The venue shows it at last: its fill is booked, once.
      venue.hide = false;
      await rounds(5);
      expect(await steps()).toEqual(['new', 'submitted', 'lost', 'filled']);
      expect(live.stateOf<MartinState>(id)?.fills).toHaveLength(1);
      expect(venue.requests.filter((r) => r === order)).toHaveLength(1);
    } finally {
      await live.stop();
    }
  });

  it('sends an order that never reached the exchange again under the same id', async () => {
    const id = await newBot();
    exchange.lose = 'before';
    await engine.serial(id, () => engine.refresh(id));
    expect(await exchange.inner.fetchOrder(`${id}-1-1` as ClientOrderId)).toBeNull();
    for (let i = 0; i < 5; i++) await engine.tick();
    await engine.idle();
    expect((await orders(id)).map((o) => [o.client_order_id, o.status])).toEqual([[`${id}-1-1`, 'filled']]);
    expect(exchange.requests.filter((r) => r === `${id}-1-1`)).toHaveLength(2);
    expect((await exchange.inner.fetchOrder(`${id}-1-1` as ClientOrderId))?.status).toBe('closed');
  });

  it('sends an add decided at its trigger price with that price, and again with it after the first try was lost', async () => {
    const id = await newBot();
    market.set('BTC/USDT', '50000');
    await engine.serial(id, () => engine.refresh(id)); // opens at 50000: the add waits at 49000
    market.set('BTC/USDT', '48500'); // a round past it
    exchange.lose = 'before';
    exchange.loseOnly = `${id}-1-2`;
    const sent = exchange.requests.length;
    await engine.tick();
    await engine.idle();
    // Stored with the order: a re-send (the lookup every 5 rounds) rests at the same price.
    const row = await db.selectFrom('bot_orders').select(['client_order_id', 'at_price']).where('bot_id', '=', id).where('seq', '=', 2).executeTakeFirstOrThrow();
    expect([row.client_order_id, money(row.at_price!).toFixed()]).toEqual([`${id}-1-2`, '49000']);
    for (let i = 0; i < 5; i++) await engine.tick();
    await engine.idle();
    // Both tries rested at 49000; the second filled there (Paper: at the trigger, not at the lower 48500).
    // (The other tests' bots on the same market took the fall too: only this bot's requests.)
    const mine = exchange.requests
      .map((r, i) => [r, exchange.ats[i]] as const)
      .slice(sent)
      .filter(([r]) => r === `${id}-1-2`);
    expect(mine).toEqual([
      [`${id}-1-2`, '49000'],
      [`${id}-1-2`, '49000'],
    ]);
    expect((await orders(id)).map((o) => [o.client_order_id, o.status, o.price === null ? null : money(o.price).toFixed()])).toEqual([
      [`${id}-1-1`, 'filled', '50000'],
      [`${id}-1-2`, 'filled', '49000'],
    ]);
    await engine.serial(id, async () => {
      await db.updateTable('bots').set({ status: 'stopped' }).where('id', '=', id).execute();
      await engine.refresh(id);
    });
    market.set('BTC/USDT', '50000');
  });

  it('finishes a partial close whose answer was lost across a restart: looked up by its id, half the position sold once', async () => {
    const id = await newBot();
    await engine.serial(id, () => engine.refresh(id)); // 0.002 BTC at 50,000
    market.set('BTC/USDT', '51000');
    exchange.lose = 'after';
    expect(await engine.serial(id, () => engine.command(id, 'close', { part: { amount: money('0.00099'), share: '50' } }))).toBe('placed');
    expect((await orders(id)).map((o) => [o.client_order_id, o.status])).toEqual([
      [`${id}-1-1`, 'filled'],
      [`${id}-1-2`, 'submitted'],
    ]);
    // The process dies here; a new one looks the sale up by its client order id and books it as the partial close it was.
    const restarted = new Engine({ db, prices: { price: async (_e, s) => market.priceAt(s, 0) }, venue: async () => exchange });
    await restarted.start();
    await restarted.idle();
    await restarted.stop();
    expect((await orders(id)).map((o) => [o.client_order_id, o.status])).toEqual([
      [`${id}-1-1`, 'filled'],
      [`${id}-1-2`, 'filled'],
    ]);
    expect(exchange.requests.filter((r) => r === `${id}-1-2`)).toHaveLength(1);
    const row = await db.selectFrom('bots').select(['realized', 'state']).where('id', '=', id).executeTakeFirstOrThrow();
    expect(money(row.realized).toFixed()).toBe('0.88996045');
    expect(row.state).toMatchObject({ phase: 'holding', cycle: 1, pending: null, fills: [{ price: '50000', amount: '0.001009009' }], booked: '0.88996045' });
    const sale = await db.selectFrom('bot_actions').select('detail').where('bot_id', '=', id).where('kind', '=', 'manual_close').executeTakeFirstOrThrow();
    expect(sale.detail).toMatchObject({ share: '50', amount: '0.00099', profit: '0.88996045' });
    expect(await db.selectFrom('bot_cycles').select('id').where('bot_id', '=', id).execute()).toEqual([]);
    market.set('BTC/USDT', '50000');
  });

  it('resumes from the database after a restart: a new engine carries on the same cycle', async () => {
    const id = await newBot();
    await engine.serial(id, () => engine.refresh(id));
    const restarted = new Engine({ db, prices: { price: async (_e, s) => market.priceAt(s, 0) }, venue: async () => exchange });
    await restarted.start();
    market.set('BTC/USDT', '49000');
    await restarted.tick();
    await restarted.idle();
    await restarted.stop();
    expect((await orders(id)).map((o) => [o.client_order_id, o.status, o.price])).toEqual([
      [`${id}-1-1`, 'filled', '50000.000000000000000000'],
      [`${id}-1-2`, 'filled', '49000.000000000000000000'],
    ]);
    market.set('BTC/USDT', '50000');
  });
});
