import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../db/connect.ts';
import { markLost } from '../engine/lost-orders.ts';
import { pauseShort } from '../engine/reconciliation.ts';
import { Engine } from '../engine/runner.ts';
import { LeaseLost } from '../cluster/leases.ts';
import { Worker } from '../cluster/workers.ts';
import { bareUser, dbKinds, openTestDb } from '../testing/test-support.ts';
import { money } from '../../strategy/money.ts';
import { encodeMartin } from '../../strategy/martin/state-codec.ts';
import { initialMartinState } from '../../strategy/martin/strategy.ts';
import { botId, type ClientOrderId } from '../../strategy/types.ts';
import { paperMarket } from './paper-fill.ts';
import { type PaperSource, PaperVenue } from './paper-venue.ts';
import type { ExchangePort, MarketOrderRequest } from './port.ts';

/**
 * Paper fences its own orders: an order whose sender no longer holds its bot's lease is
 * refused in Paper's order transaction, whatever the sender read before sending. This is the window a
 * process SIGSTOPped (or stalled) between its lease check and Paper's write used to get an order through.
 */
const source: PaperSource = { market: async (symbol) => paperMarket(symbol, '0.01', '0.00001'), price: async () => money('50000') };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.each(dbKinds)('the Paper venue fences its orders on %s', (kind) => {
  let db: Db;
  let drop: () => Promise<void>;
  let users = 0;
  const engines: Engine[] = [];

  beforeAll(async () => {
    ({ db, drop } = await openTestDb(kind));
  });
  afterAll(async () => {
    for (const e of engines) e.halt();
    for (const e of engines) await e.idle();
    await drop();
  });

  /** A trader with one running martin bot on Paper. */
  const newBot = async (): Promise<{ userId: string; id: string }> => {
    users++;
    const user = await db
      .insertInto('users')
      .values(bareUser(String(40000000 + users), `fence${kind}${users}`))
      .returning('id')
      .executeTakeFirstOrThrow();
    const row = await db
      .insertInto('bots')
      .values({
        user_id: String(user.id),
        exchange_id: 1,
        symbol: 'BTC/USDT',
        type: 'martin',
        name: 'b',
        status: 'running',
        params: JSON.stringify({ investment: '1000', firstOrder: '20', multiplier: '1', maxPositions: 10, addTrigger: '1', takeProfit: '1', repeat: true }),
        state: JSON.stringify(encodeMartin(initialMartinState(botId('x')))),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return { userId: String(user.id), id: String(row.id) };
  };
  /** A `workers` row for a process that exists only as a lease holder. */
  const newWorkerRow = async (): Promise<string> => {
    const id = randomUUID();
    await sql`insert into workers (id, host, pid) values (${id}, 'elsewhere', 1)`.execute(db);
    return id;
  };
  /** Another worker takes the bot's lease, as after a missed heartbeat: epoch + 1. */
  const takeLease = (bot: string, worker: string) => sql`update bot_leases set worker_id = ${worker}, epoch = epoch + 1, granted_at = now() where bot_id = ${bot}`.execute(db);
  const paperOrders = (bot: string) => db.selectFrom('paper_orders').select(['client_order_id', 'status', 'price']).where('client_order_id', 'like', `${bot}-%`).execute();
  const usdt = async (userId: string) => money((await new PaperVenue(db, userId, source).balance('USDT')).toFixed()).toFixed();

  it('refuses an order from a sender that no longer holds the lease, even one it already filled, and fills the holder’s', async () => {
    const { userId, id } = await newBot();
    const [a, b] = [await newWorkerRow(), await newWorkerRow()];
    await sql`insert into bot_leases (bot_id, worker_id, epoch) values (${id}, ${a}, 1)`.execute(db);
    const order = `${id}-1-1` as ClientOrderId;
    await db.insertInto('bot_orders').values({ bot_id: id, client_order_id: order, cycle: 1, seq: 1, side: 'buy', reason: 'open', quote: '20', amount: null, status: 'new' }).execute();
    await takeLease(id, b); // b at epoch 2
    const venue = new PaperVenue(db, userId, source);
    const request = (sender?: { worker: string; epoch: string }): MarketOrderRequest => ({ clientOrderId: order, symbol: 'BTC/USDT', side: 'buy', quote: money('20'), ...(sender ? { sender } : {}) });

    await expect(venue.placeMarketOrder(request({ worker: a, epoch: '1' }))).rejects.toBeInstanceOf(LeaseLost);
    await expect(venue.placeMarketOrder(request({ worker: b, epoch: '1' })), 'the holder under an older epoch').rejects.toBeInstanceOf(LeaseLost);
    expect(await paperOrders(id)).toEqual([]);
    expect(await usdt(userId)).toBe('10000');

    const filled = await venue.placeMarketOrder(request({ worker: b, epoch: '2' }));
    expect(filled.status).toBe('closed');
    expect(await usdt(userId)).toBe('9980');
    // A repeat from the old owner is refused too, not answered from Paper's records.
    await expect(venue.placeMarketOrder(request({ worker: a, epoch: '1' }))).rejects.toBeInstanceOf(LeaseLost);
    // No sender (a lone engine without a cluster) or no lease to compare with: as before.
    expect((await venue.placeMarketOrder(request())).status).toBe('closed');
    const loose = await venue.placeMarketOrder({ clientOrderId: 'unrecorded-1' as ClientOrderId, symbol: 'BTC/USDT', side: 'buy', quote: money('20'), sender: { worker: a, epoch: '7' } });
    expect(loose.status).toBe('closed');
    expect(await paperOrders(id)).toHaveLength(1);
    expect(await usdt(userId)).toBe('9960');
  });

  it('lets only the lease holder pause a bot outside a decision: a coin missing, an order lost', async () => {
    const { userId, id } = await newBot();
    const [a, b] = [await newWorkerRow(), await newWorkerRow()];
    await sql`insert into bot_leases (bot_id, worker_id, epoch) values (${id}, ${a}, 1)`.execute(db);
    await takeLease(id, b);
    // A woken process that lost the bot judges it on its old view: its pause is refused, nothing written.
    const short = { botId: id, userId, coin: 'BTC', held: '0.01', balance: '0' };
    await expect(pauseShort(db, { ...short, fence: { worker: a, epoch: '1' } })).rejects.toBeInstanceOf(LeaseLost);
    const order = `${id}-1-1`;
    await db.insertInto('bot_orders').values({ bot_id: id, client_order_id: order, cycle: 1, seq: 1, side: 'buy', reason: 'open', quote: '20', amount: null, status: 'submitted' }).execute();
    await expect(markLost(db, { botId: id, userId, clientOrderId: order, misses: 3, fence: { worker: a, epoch: '1' } })).rejects.toBeInstanceOf(LeaseLost);
    const status = async () => db.selectFrom('bots').select(['status', 'error']).where('id', '=', id).executeTakeFirstOrThrow();
    expect(await status()).toEqual({ status: 'running', error: null });
    expect((await db.selectFrom('bot_orders').select('status').where('client_order_id', '=', order).executeTakeFirstOrThrow()).status).toBe('submitted');
    expect(await db.selectFrom('notices').select('code').where('user_id', '=', userId).execute()).toEqual([]);
    // The holder's goes through.
    expect(await pauseShort(db, { ...short, fence: { worker: b, epoch: '2' } })).toBe(true);
    expect(await status()).toEqual({ status: 'paused', error: 'balance_short' });
  });

  /** An engine of its own worker on the real Paper venue; `beforeSend` runs before each order reaches Paper. */
  const engineOf = (worker: Worker, sent: string[], beforeSend?: (request: MarketOrderRequest) => Promise<void>, afterSend?: (request: MarketOrderRequest) => Promise<void>) => {
    const engine = new Engine({
      db,
      prices: { price: async () => '50000' },
      venue: async (bot) => {
        const paper = new PaperVenue(db, bot.userId, source);
        return Object.assign(Object.create(paper) as ExchangePort, {
          placeMarketOrder: async (request: MarketOrderRequest) => {
            await beforeSend?.(request);
            sent.push(request.clientOrderId);
            const answer = await paper.placeMarketOrder(request);
            await afterSend?.(request);
            return answer;
          },
        });
      },
      tickMs: 60_000,
      claimMs: 100,
      cluster: worker,
    });
    engines.push(engine);
    return engine;
  };

  it('a stale owner stalled between its lease check and Paper’s write gets nothing through; the new owner sends the order itself', { timeout: 20_000 }, async () => {
    await sql`delete from workers`.execute(db);
    const a = new Worker(db, { ttlMs: 60_000 });
    const sentA: string[] = [];
    let elsewhere = '';
    // The decision is committed under A's lease; before its order reaches Paper, the lease moves on.
    const engineA = engineOf(a, sentA, async (request) => {
      elsewhere = await newWorkerRow();
      await takeLease(String(request.clientOrderId).split('-')[0]!, elsewhere);
    });
    await engineA.start();
    const { id } = await newBot();
    await engineA.serial(id, () => engineA.refresh(id));
    expect(sentA).toEqual([`${id}-1-1`]);
    expect(await paperOrders(id), 'nothing reached Paper from the stale owner').toEqual([]);
    expect(engineA.stateOf(id), 'the stale owner forgot the bot').toBeUndefined();
    await engineA.tick();
    await engineA.idle();
    expect(sentA, 'nor sent it again').toHaveLength(1);

    // The new owner finds the order in flight, not on Paper, and sends it under the same id.
    const b = new Worker(db, { ttlMs: 60_000 });
    const sentB: string[] = [];
    const engineB = engineOf(b, sentB);
    await engineB.start();
    await takeLease(id, b.id);
    const until = performance.now() + 10_000;
    while ((await paperOrders(id)).length === 0 && performance.now() < until) await sleep(50);
    await engineB.idle();
    expect(sentB).toEqual([`${id}-1-1`]);
    expect((await paperOrders(id)).map((o) => [o.client_order_id, o.status])).toEqual([[`${id}-1-1`, 'closed']]);
    const recorded = await db.selectFrom('bot_orders').select(['client_order_id', 'status']).where('bot_id', '=', id).execute();
    expect(recorded).toEqual([{ client_order_id: `${id}-1-1`, status: 'filled' }]);
    engineA.halt();
    engineB.halt();
  });

  it('an order the old owner got through before losing the lease is found by the new owner, not sent again', { timeout: 20_000 }, async () => {
    await sql`delete from workers`.execute(db);
    const a = new Worker(db, { ttlMs: 60_000 });
    const sentA: string[] = [];
    // Paper fills it under A's lease; the lease moves on before A records the fill.
    const engineA = engineOf(a, sentA, undefined, async (request) => {
      await takeLease(String(request.clientOrderId).split('-')[0]!, await newWorkerRow());
    });
    await engineA.start();
    const { id } = await newBot();
    await engineA.serial(id, () => engineA.refresh(id));
    expect(sentA).toEqual([`${id}-1-1`]);
    expect((await paperOrders(id)).map((o) => o.status)).toEqual(['closed']);
    expect((await db.selectFrom('bot_orders').select('status').where('bot_id', '=', id).executeTakeFirstOrThrow()).status, 'A could not record it').toBe('submitted');

    const b = new Worker(db, { ttlMs: 60_000 });
    const sentB: string[] = [];
    const engineB = engineOf(b, sentB);
    await engineB.start();
    await takeLease(id, b.id);
    const until = performance.now() + 10_000;
    const status = async () => (await db.selectFrom('bot_orders').select('status').where('bot_id', '=', id).executeTakeFirstOrThrow()).status;
    while ((await status()) === 'submitted' && performance.now() < until) await sleep(50);
    await engineB.idle();
    expect(await status()).toBe('filled');
    expect(sentB, 'found by its id, not sent again').toEqual([]);
    expect(await paperOrders(id)).toHaveLength(1);
    engineA.halt();
    engineB.halt();
  });
});
