import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { Db } from '../db/connect.ts';
import { Engine } from '../engine/runner.ts';
import { PaperExchange } from '../exchanges/paper.ts';
import type { ExchangePort, MarketOrderRequest } from '../exchanges/port.ts';
import { ScriptedMarket } from '../market/scripted.ts';
import { dbKinds, openTestDb, PG_URL } from '../test-support.ts';
import type { Trading } from '../trading.ts';
import { BotListCache } from '../services/bot-list-cache.ts';
import { operateBot } from '../services/bots.ts';
import { listenBots } from './notify.ts';
import { encodeMartin } from '../../strategy/martin/state-codec.ts';
import { initialMartinState } from '../../strategy/martin/strategy.ts';
import { botId } from '../../strategy/types.ts';
import { Worker } from './workers.ts';

/**
 * Many engines, one book (issue 15 §1): engines with different workers on one database, as separate
 * processes would be. They share one Paper exchange that records which worker sent each order.
 */
const TTL = 1000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.each(dbKinds)('bot leases on %s', (kind) => {
  let db: Db;
  let drop: () => Promise<void>;
  const market = new ScriptedMarket();
  const paper = new PaperExchange(market, { USDT: '1000000000' });
  /** Every order request: [worker, client order id]. */
  const sent: [string, string][] = [];
  const errors: string[] = [];
  const engines: Engine[] = [];
  let users = 0;

  const venueOf = (worker: string): ExchangePort =>
    Object.assign(Object.create(paper) as ExchangePort, {
      placeMarketOrder: (request: MarketOrderRequest) => {
        sent.push([worker, request.clientOrderId]);
        return paper.placeMarketOrder(request);
      },
    });
  const engineFor = (worker: Worker, tickMs = 60, claimMs = 100) => {
    const venue = venueOf(worker.id);
    const engine = new Engine({
      db,
      prices: { price: async (_e, s) => market.priceAt(s, 0) },
      venue: async () => venue,
      tickMs,
      claimMs,
      cluster: worker,
      log: { error: (obj, msg) => errors.push(`${msg} ${String((obj as { err?: Error }).err?.message ?? '')}`) },
    });
    engines.push(engine);
    return engine;
  };
  const newBots = async (n: number, status: 'running' | 'stopped') => {
    const ids: string[] = [];
    for (let i = 0; i < n; i++) {
      users++;
      const user = await db
        .insertInto('users')
        .values({
          sn: String(30000000 + users),
          account: `lease${kind}${users}`,
          password_hash: null,
          payment_hash: null,
          nickname: 'n',
          email: '',
          mobile: '',
          address: null,
          avatar: '',
          referrer_id: null,
        })
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
          status,
          params: JSON.stringify({ investment: '1000', firstOrder: '10', multiplier: '1', maxPositions: 50, addTrigger: '0.5', takeProfit: '0.5', repeat: true }),
          state: JSON.stringify(encodeMartin(initialMartinState(botId('x')))),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      ids.push(String(row.id));
    }
    return ids;
  };
  /** The workers that sent each bot's orders. */
  const sendersOf = (ids: string[], from = 0) => {
    const by = new Map<string, Set<string>>(ids.map((id) => [id, new Set()]));
    for (const [worker, order] of sent.slice(from)) by.get(order.split('-')[0]!)?.add(worker);
    return by;
  };
  const holders = async (ids: string[]) => {
    const { rows } = await sql<{ bot_id: string; worker_id: string | null }>`select bot_id, worker_id from bot_leases where bot_id in (${sql.join(ids.map((id) => sql`${id}::bigint`))})`.execute(db);
    return new Map(rows.map((r) => [String(r.bot_id), r.worker_id]));
  };
  let swing: NodeJS.Timeout | undefined;
  /** Each test starts on a cluster of its own: the workers an earlier test halted are gone. */
  const fresh = async () => {
    await sql`delete from workers`.execute(db);
  };

  beforeAll(async () => {
    ({ db, drop } = await openTestDb(kind));
    // The price swings ±1 % around 50,000: the bots open, add and take profit again and again.
    const path = ['50000', '49700', '49400', '49700', '50000', '50300', '50600', '50300'];
    let step = 0;
    market.set('BTC/USDT', path[0]!);
    swing = setInterval(() => market.set('BTC/USDT', path[step++ % path.length]!), 40);
  });
  afterAll(async () => {
    clearInterval(swing);
    for (const e of engines) e.halt();
    for (const e of engines) await e.idle();
    await drop();
  });

  it('trades every running bot on exactly one of two workers, and the other takes a killed one’s bots within TTL + 2 s', { timeout: 30_000 }, async () => {
    const a = new Worker(db, { ttlMs: TTL });
    const b = new Worker(db, { ttlMs: TTL });
    const engineA = engineFor(a);
    const engineB = engineFor(b);
    await engineA.start();
    await engineB.start();
    const ids = await newBots(12, 'running');
    const from = sent.length;
    await sleep(2500);
    const owners = await holders(ids);
    expect([...owners.values()].every((w) => w === a.id || w === b.id)).toBe(true);
    // Both have some (rendezvous hashing on 12 traders), and each bot's orders came from its owner only.
    expect(new Set(owners.values()).size).toBe(2);
    for (const [id, senders] of sendersOf(ids, from)) {
      expect(senders.size, `bot ${id}`).toBe(1);
      expect([...senders][0]).toBe(owners.get(id));
    }
    expect(errors).toEqual([]);

    // A dies (no heartbeat, nothing released): B takes its bots once A's lease expires, and they trade on.
    const ofA = ids.filter((id) => owners.get(id) === a.id);
    engineA.halt();
    const killed = performance.now();
    let taken = 0;
    while (performance.now() - killed < TTL + 2000) {
      const now = await holders(ofA);
      if ([...now.values()].every((w) => w === b.id)) {
        taken = performance.now() - killed;
        break;
      }
      await sleep(50);
    }
    expect(taken).toBeGreaterThan(0);
    expect(taken).toBeLessThan(TTL + 2000);
    const after = sent.length;
    await sleep(1500);
    for (const [id, senders] of sendersOf(ofA, after)) expect([...senders], `bot ${id}`).toEqual([b.id]);
    // No order id was sent by both workers, and the books hold each once.
    const byOrder = new Map<string, Set<string>>();
    for (const [worker, order] of sent) byOrder.set(order, (byOrder.get(order) ?? new Set()).add(worker));
    expect([...byOrder.values()].filter((s) => s.size > 1)).toEqual([]);
    const filled = await db.selectFrom('bot_orders').select(['client_order_id', 'status']).where('bot_id', 'in', ids).execute();
    for (const o of filled) expect((await paper.fetchOrder(o.client_order_id as never)) !== null || o.status === 'new').toBe(true);
    expect(errors).toEqual([]);
    engineB.halt();
    await engineB.idle();
  });

  it('refuses a decision from a stale owner whose lease was taken, even while it still ticks (LeaseLost)', async () => {
    await fresh();
    const a = new Worker(db, { ttlMs: 60_000 });
    const engineA = engineFor(a, 60_000);
    await engineA.start();
    market.set('BTC/USDT', '50000');
    const [id] = await newBots(1, 'running');
    await engineA.serial(id!, () => engineA.refresh(id!)); // its first order, filled at 50,000
    expect(engineA.stateOf(id!)?.pending).toBeNull();
    // Another worker takes the lease (as after a missed heartbeat): epoch + 1.
    const other = new Worker(db, { ttlMs: 60_000 });
    await other.start();
    await sql`update bot_leases set worker_id = ${other.id}, epoch = epoch + 1 where bot_id = ${id}`.execute(db);
    const before = sent.length;
    const orders = await db.selectFrom('bot_orders').select('client_order_id').where('bot_id', '=', id!).execute();
    clearInterval(swing);
    market.set('BTC/USDT', '49000'); // past the add trigger
    await engineA.tick();
    await engineA.idle();
    expect(sent.slice(before).filter(([, o]) => o.startsWith(`${id}-`))).toEqual([]);
    expect(await db.selectFrom('bot_orders').select('client_order_id').where('bot_id', '=', id!).execute()).toEqual(orders);
    expect(engineA.stateOf(id!)).toBeUndefined(); // dropped from this process
    engineA.halt();
    other.halt();
  });

  it('hands a leaving worker’s bots over at once (SIGTERM: leases freed, no TTL wait)', { timeout: 15_000 }, async () => {
    await fresh();
    const a = new Worker(db, { ttlMs: 5000 });
    const engineA = engineFor(a);
    await engineA.start();
    const ids = await newBots(3, 'running');
    await sleep(300);
    expect([...(await holders(ids)).values()]).toEqual([a.id, a.id, a.id]);
    const b = new Worker(db, { ttlMs: 5000 });
    const engineB = engineFor(b);
    await engineB.start();
    await engineA.stop();
    const left = performance.now();
    while (![...(await holders(ids)).values()].every((w) => w === b.id)) await sleep(50);
    expect(performance.now() - left).toBeLessThan(2000);
    engineB.halt();
  });

  it.runIf(kind === 'postgres')('a pause through the API on one process reaches the owner on another within 0.5 s (NOTIFY)', { timeout: 15_000 }, async () => {
    await fresh();
    // B owns the bot; its ownership round and its ticks are slow (60 s), so only the notification can
    // tell it (a tick would meet the status fence and reload the bot too).
    const b = new Worker(db, { ttlMs: 60_000 });
    const engineB = engineFor(b, 60_000, 60_000);
    await engineB.start();
    const [id] = await newBots(1, 'running');
    await engineB.serial(id!, () => engineB.refresh(id!));
    expect(engineB.statusOf(id!)).toBe('running');
    const listener = await listenBots(PG_URL, (bot) => engineB.wake(bot));
    // The API runs on A, whose engine does not hold the bot.
    const a = new Worker(db, { ttlMs: 60_000 });
    const trading = { engine: engineFor(a), listCache: new BotListCache() } as unknown as Trading;
    const { user_id } = await db.selectFrom('bots').select('user_id').where('id', '=', id!).executeTakeFirstOrThrow();
    expect(await operateBot({ db, trading }, String(user_id), id!, 'pause')).toBe(id);
    const paused = performance.now();
    const orders = (await db.selectFrom('bot_orders').select('client_order_id').where('bot_id', '=', id!).execute()).length;
    while (engineB.statusOf(id!) !== 'paused' && performance.now() - paused < 2000) await sleep(10);
    expect(performance.now() - paused).toBeLessThan(500);
    // No order after the pause: the owner took the bot off its book (a tick past the add trigger places nothing).
    market.set('BTC/USDT', '40000');
    await engineB.tick();
    await engineB.idle();
    expect((await db.selectFrom('bot_orders').select('client_order_id').where('bot_id', '=', id!).execute()).length).toBe(orders);
    await listener.close();
    engineB.halt();
  });
});
