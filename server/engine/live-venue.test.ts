import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { LOOKUPS_PER_ACCOUNT } from './lookup-budget.ts';
import { WINDOW_MARGIN_MS } from './lost-orders.ts';
import type { Db } from '../db/connect.ts';
import { LiveExchange } from '../exchanges/live.ts';
import { fakeBinanceClient } from '../testing/fake-binance/client.ts';
import { FakeBinance } from '../testing/fake-binance/server.ts';
import { openTestDb } from '../testing/test-support.ts';
import { encodeMartin } from '../../strategy/martin/state-codec.ts';
import { initialMartinState, type MartinState } from '../../strategy/martin/strategy.ts';
import { botId, type ClientOrderId } from '../../strategy/types.ts';
import { money } from '../../strategy/money.ts';
import { cancelOrphans } from './reconciliation.ts';
import { Engine } from './runner.ts';

/**
 * The engine on a live venue end to end: the real ccxt binance client through LiveExchange against the
 * fake Binance (server/testing/fake-binance/), with its faults. An order whose answer never came is
 * looked up, never sent again: found, it is booked with its fee; never found, it is lost and its bot
 * paused.
 */
describe('the engine on a live exchange that misbehaves', () => {
  let db: Db;
  let drop: () => Promise<void>;
  let userId = '';
  const opened: { fake: FakeBinance; engine: Engine }[] = [];

  beforeAll(async () => {
    ({ db, drop } = await openTestDb('pglite'));
    const user = await db
      .insertInto('users')
      .values({ sn: '31313131', account: 'livevenue', password_hash: null, payment_hash: null, nickname: 'n', email: '', mobile: '', address: null, avatar: '', referrer_id: null })
      .returning('id')
      .executeTakeFirstOrThrow();
    userId = String(user.id);
  });
  afterEach(async () => {
    for (const { fake, engine } of opened.splice(0)) {
      await engine.stop();
      await fake.close();
    }
  });
  afterAll(async () => {
    await drop();
  });

  /** A fake Binance and an engine trading on it through the real client (a short timeout: the faults hold answers back). */
  const open = async ({ timeout = 400, ...options }: { orderWindowMs?: number; timeout?: number } = {}) => {
    const fake = await FakeBinance.start();
    const venue = new LiveExchange(fakeBinanceClient(fake, { timeout }), { salt: 'e2e0ab', confirmDelaysMs: [0], ...options });
    const found: string[] = [];
    const outages: { longest: number[]; ended: number[]; lookedUp: number[] } = { longest: [], ended: [], lookedUp: [] };
    const observe = {
      round: () => undefined,
      queued: () => undefined,
      leases: () => undefined,
      reconciled: (kind: string, n: number) => void found.push(`${kind} ${n}`),
      accountsDown: (_count: number, longest: number) => void outages.longest.push(longest),
      outageEnded: (seconds: number) => void outages.ended.push(seconds),
      lookedUp: (count: number) => void outages.lookedUp.push(count),
    };
    const engine = new Engine({ db, prices: { price: async (_e, s) => fake.book.price(s).toFixed() }, venue: async () => venue, observe });
    opened.push({ fake, engine });
    /** A running martin bot of the trader on Binance, flat. */
    const newBot = async () => {
      const created = await db
        .insertInto('bots')
        .values({
          user_id: userId,
          exchange_id: 2,
          symbol: 'BTC/USDT',
          type: 'martin',
          name: 'live',
          status: 'running',
          params: JSON.stringify({ investment: '1000', firstOrder: '100', multiplier: '2', maxPositions: 3, addTrigger: '2', takeProfit: '1', repeat: true }),
          state: JSON.stringify(encodeMartin(initialMartinState(botId('x')))),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return String(created.id);
    };
    const id = await newBot();
    /** Five rounds, the fifth looking up orders without an answer, and that lookup done. */
    const rounds = async () => {
      for (let i = 0; i < 5; i++) await engine.tick();
      await engine.idle();
    };
    const sends = () => fake.requests.filter((r) => r.method === 'POST' && r.path === '/api/v3/order').length;
    const steps = async () => (await db.selectFrom('bot_order_steps').select('to_phase').where('client_order_id', '=', `${id}-1-1`).orderBy('id').execute()).map((r) => r.to_phase);
    return { fake, engine, id, rounds, sends, steps, newBot, found, outages };
  };

  it('looks up an order whose answer timed out after Binance took it: booked with its fee from the trades, sent once', async () => {
    const { fake, engine, id, rounds, sends, steps } = await open();
    fake.faults.add({ kind: 'timeoutAfterAccept', mode: 'hold', holdMs: 2000, times: 1 });
    await engine.serial(id, () => engine.refresh(id));
    expect(await steps()).toEqual(['new', 'submitted']);
    expect(fake.book.orders).toHaveLength(1);
    await rounds();
    expect(await steps()).toEqual(['new', 'submitted', 'filled']);
    expect(sends()).toBe(1);
    const row = await db.selectFrom('bot_orders').select(['filled', 'fee', 'fee_currency']).where('client_order_id', '=', `${id}-1-1`).executeTakeFirstOrThrow();
    // 100 USDT at 65,000: 0.00153 BTC, the taker fee 0.1 % in the coin bought.
    expect([Number(row.filled), Number(row.fee), row.fee_currency]).toEqual([0.00153, 0.00000153, 'BTC']);
    expect(engine.stateOf<MartinState>(id)?.fills).toHaveLength(1);
  });

  it("cancels an orphan order (ours, no bot waiting on it) in a reconciliation round, and leaves the one a bot waits on and another program's", async () => {
    const { fake, engine, id } = await open();
    const venue = new LiveExchange(fakeBinanceClient(fake), { salt: 'e2e0ab' });
    await engine.serial(id, () => engine.refresh(id));
    const limit = (clientOrderId: string) => ({ clientOrderId: clientOrderId as ClientOrderId, symbol: 'BTC/USDT', side: 'buy' as const, price: money('60000'), amount: money('0.001') });
    // Ours with no record (a crash of another install with this salt, a database restored from before it).
    expect((await venue.placeLimitOrder(limit('900-1-1'))).status).toBe('open');
    // Ours and waited on: a bot's order in flight.
    expect((await venue.placeLimitOrder(limit('901-1-1'))).status).toBe('open');
    // Another program's, on the same account.
    await fakeBinanceClient(fake).createOrder('BTC/USDT', 'limit', 'buy', 0.001, 60000, { clientOrderId: 'web_manual_1' });
    const bots = [{ id: 'x', symbol: 'BTC/USDT', status: 'running', held: money(0), pending: '901-1-1' }];
    // Too young yet: left for the next round.
    expect(await cancelOrphans(db, venue, bots)).toEqual([]);
    expect(await cancelOrphans(db, venue, bots, { now: Date.now() + 10_000 })).toEqual(['900-1-1']);
    expect(fake.book.orders.filter((o) => o.status === 'NEW').map((o) => o.clientOrderId)).toEqual([venue.clientId('901-1-1'), 'web_manual_1']);
    // The venue does not answer: nothing is taken for gone.
    fake.faults.add({ kind: 'serverError', status: 503, body: 'json', times: 1, match: { method: 'GET', path: '/api/v3/openOrders' } });
    expect(await cancelOrphans(db, venue, bots, { now: Date.now() + 10_000 })).toBeNull();
  });

  it('puts the account out of reach after three order calls failed in a row: its bots open nothing until a reconciliation round passes', async () => {
    const { fake, engine, id, sends, newBot, outages } = await open();
    const warnings = async (code: string) => (await db.selectFrom('notices').select('detail').where('user_id', '=', userId).where('code', '=', code).execute()).length;
    const before = { out: await warnings('account_unreachable'), back: await warnings('account_reachable') };
    // The count starts here (the tests before share the account).
    await db.deleteFrom('account_health').execute();
    // Three bots' first orders meet a gateway timeout: three unknown outcomes in a row.
    fake.faults.add({ kind: 'serverError', status: 504, body: 'html', times: 3, match: { method: 'POST', path: '/api/v3/order' } });
    const others = [await newBot(), await newBot()];
    for (const bot of [id, ...others]) await engine.serial(bot, () => engine.refresh(bot));
    expect(sends()).toBe(3);
    expect(await warnings('account_unreachable')).toBe(before.out + 1);
    // A fourth bot would open at this price: held back, round after round.
    const fourth = await newBot();
    await engine.serial(fourth, () => engine.refresh(fourth));
    for (let i = 0; i < 3; i++) await engine.tick();
    await engine.idle();
    expect(sends()).toBe(3);
    // The metrics: the outage's age each round, its length once it ends (counted once, by the round that ends it).
    expect(outages.longest.at(-1)).toBeGreaterThan(0);
    // A reconciliation round the exchange answers in full ends it: the fourth bot opens at the next round.
    await engine.reconcileAccounts();
    expect(await warnings('account_reachable')).toBe(before.back + 1);
    expect(outages.ended).toHaveLength(1);
    expect(outages.ended[0]).toBeGreaterThanOrEqual(outages.longest.at(-1)! - 1);
    await engine.reconcileAccounts();
    expect(outages.ended).toHaveLength(1);
    await engine.tick();
    await engine.idle();
    expect(sends()).toBe(4);
    expect(fake.book.orders.filter((o) => o.status === 'FILLED')).toHaveLength(1);
  });

  it('looks up at most ten orders of an account per lookup round, and reaches every one over the next rounds', async () => {
    // No fault holds an answer back here: a lookup timed out on a loaded machine would count no miss.
    const { fake, engine, newBot, outages } = await open({ timeout: 5000 });
    // Twelve bots' first orders meet a gateway timeout (the account's failure count cleared between them,
    // so that it stays reachable): twelve orders in flight on one account.
    fake.faults.add({ kind: 'serverError', status: 504, body: 'html', times: 12, match: { method: 'POST', path: '/api/v3/order' } });
    const bots: string[] = [];
    for (let i = 0; i < 12; i++) {
      const bot = await newBot();
      bots.push(bot);
      await engine.serial(bot, () => engine.refresh(bot));
      await db.deleteFrom('account_health').execute();
    }
    const lookedUp = () => new Set(fake.requests.filter((r) => r.method === 'GET' && r.path === '/api/v3/order').map((r) => r.params.origClientOrderId));
    for (let i = 0; i < 5; i++) await engine.tick();
    await engine.idle();
    expect(lookedUp().size).toBe(LOOKUPS_PER_ACCOUNT);
    expect(outages.lookedUp).toEqual([LOOKUPS_PER_ACCOUNT]);
    for (let i = 0; i < 5; i++) await engine.tick();
    await engine.idle();
    const misses = await db.selectFrom('bot_orders').select('misses').where('bot_id', 'in', bots).execute();
    expect(misses.map((m) => m.misses >= 1)).toEqual(bots.map(() => true));
  });

  it('never sends again an order Binance never got: three lookups miss it and a targeted query, then it is lost and the bot paused', async () => {
    const { fake, engine, id, rounds, sends, steps, found } = await open();
    // A gateway timeout before Binance carried the order out: a network error, the outcome unknown.
    fake.faults.add({ kind: 'serverError', status: 504, body: 'html', times: 1, match: { method: 'POST', path: '/api/v3/order' } });
    await engine.serial(id, () => engine.refresh(id));
    expect(fake.book.orders).toHaveLength(0);
    for (let i = 0; i < 3; i++) await rounds();
    expect(await steps()).toEqual(['new', 'submitted', 'lost']);
    expect(found).toEqual(['lost 1']);
    expect(await db.selectFrom('bots').select(['status', 'error']).where('id', '=', id).executeTakeFirstOrThrow()).toEqual({ status: 'paused', error: 'order_lost' });
    await rounds();
    expect(sends()).toBe(1);
    expect(fake.book.orders).toHaveLength(0);
  });

  it('sends again, under its id and once, an order Binance never got once its receive window has passed unseen: the bot trades on', async () => {
    const { fake, engine, id, rounds, sends, steps, found } = await open({ orderWindowMs: 1000 });
    fake.faults.add({ kind: 'serverError', status: 504, body: 'html', times: 1, match: { method: 'POST', path: '/api/v3/order' } });
    await engine.serial(id, () => engine.refresh(id));
    expect(fake.book.orders).toHaveLength(0);
    // Signed to expire: the request carries the window and a timestamp the exchange checks.
    const first = fake.requests.find((r) => r.method === 'POST' && r.path === '/api/v3/order')!;
    expect(first.params.recvWindow).toBe('1000');
    const row = async () => db.selectFrom('bot_orders').select(['status', 'misses', 'not_after']).where('client_order_id', '=', `${id}-1-1`).executeTakeFirstOrThrow();
    const { not_after } = await row();
    expect(Math.abs(not_after!.getTime() - (Number(first.params.timestamp) + 1000))).toBeLessThan(1000);
    // Within the window (and the clocks' margin) a miss counts for nothing: the request may be on its way.
    await rounds();
    expect(await row()).toMatchObject({ status: 'submitted', misses: 0 });
    await new Promise((r) => setTimeout(r, not_after!.getTime() + WINDOW_MARGIN_MS - Date.now() + 100));
    for (let i = 0; i < 3; i++) await rounds();
    // Three misses and the targeted query after it: never reached, sent again under the same id, filled.
    expect(await steps()).toEqual(['new', 'submitted', 'new', 'submitted', 'filled']);
    expect(found).toEqual(['unreached 1']);
    expect(sends()).toBe(2);
    expect(fake.book.orders.map((o) => o.status)).toEqual(['FILLED']);
    expect(await db.selectFrom('bots').select(['status', 'error']).where('id', '=', id).executeTakeFirstOrThrow()).toEqual({ status: 'running', error: null });
  });

  it('is refused by Binance when its request arrives after its receive window, however late: sent again once, bought once', async () => {
    const { fake, engine, id, rounds, sends, steps } = await open({ orderWindowMs: 1000 });
    // The request reaches Binance 1.5 s after it was signed, the client long gone (a 400 ms timeout).
    fake.faults.add({ kind: 'latency', ms: 1500, times: 1, match: { method: 'POST', path: '/api/v3/order' } });
    await engine.serial(id, () => engine.refresh(id));
    await new Promise((r) => setTimeout(r, 1500 + WINDOW_MARGIN_MS + 200));
    expect(fake.book.orders).toHaveLength(0);
    for (let i = 0; i < 3; i++) await rounds();
    expect(await steps()).toEqual(['new', 'submitted', 'new', 'submitted', 'filled']);
    expect(sends()).toBe(2);
    expect(fake.book.orders.map((o) => o.status)).toEqual(['FILLED']);
  });

  it('sends an order that never reaches Binance again twice at most, then counts it lost: its bot pauses, told', async () => {
    const { fake, engine, id, rounds, sends, steps, found } = await open({ orderWindowMs: 1000 });
    // Every send dies before Binance carries it out (a clock it refuses would do the same).
    fake.faults.add({ kind: 'serverError', status: 504, body: 'html', times: 3, match: { method: 'POST', path: '/api/v3/order' } });
    await engine.serial(id, () => engine.refresh(id));
    // Time passes: each send's window is over (moved into the past rather than waited for).
    const windowOver = () =>
      db
        .updateTable('bot_orders')
        .set({ not_after: new Date(Date.now() - 60_000) })
        .where('client_order_id', '=', `${id}-1-1`)
        .execute();
    for (let i = 0; i < 3; i++) {
      await windowOver();
      for (let k = 0; k < 3; k++) await rounds();
    }
    expect(await steps()).toEqual(['new', 'submitted', 'new', 'submitted', 'new', 'submitted', 'lost']);
    expect(found).toEqual(['unreached 1', 'unreached 1', 'lost 1']);
    expect(sends()).toBe(3);
    expect(fake.book.orders).toHaveLength(0);
    expect(await db.selectFrom('bots').select(['status', 'error']).where('id', '=', id).executeTakeFirstOrThrow()).toEqual({ status: 'paused', error: 'order_lost' });
  });
});
