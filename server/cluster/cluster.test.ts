import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { Db } from '../db/connect.ts';
import { ScriptedMarket } from '../testing/scripted.ts';
import { dbKinds, openTestDb, PG_URL } from '../testing/test-support.ts';
import type { Trading } from '../trading.ts';
import { BotListCache } from '../services/bot-list-cache.ts';
import { operateBot } from '../services/bots.ts';
import { listenBots, schemaOf } from './notify.ts';
import type { MartinState } from '../../strategy/martin/strategy.ts';
import { testCluster, type TestCluster } from '../testing/cluster-support.ts';
import { Worker } from './workers.ts';

/**
 * Many engines, one book: engines with different workers on one database, as separate
 * processes would be. They share one Paper exchange that records which worker sent each order
 * (server/testing/cluster-support.ts).
 */
/**
 * Short for a quick test, long enough for a loaded machine (a worker fences itself after 60 % of it
 * without a heartbeat): 2.5 s was not, with two `npm test` side by side (load 17: heartbeats late, the
 * workers fenced, bots untraded).
 */
const TTL = 5000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.each(dbKinds)('bot leases on %s', (kind) => {
  let db: Db;
  let drop: () => Promise<void>;
  const market = new ScriptedMarket();
  let c: TestCluster;
  let swing: NodeJS.Timeout | undefined;

  beforeAll(async () => {
    ({ db, drop } = await openTestDb(kind));
    c = testCluster(db, market, `lease${kind}`);
    // The price swings ±1 % around 50,000: the bots open, add and take profit again and again.
    const path = ['50000', '49700', '49400', '49700', '50000', '50300', '50600', '50300'];
    let step = 0;
    market.set('BTC/USDT', path[0]!);
    swing = setInterval(() => market.set('BTC/USDT', path[step++ % path.length]!), 40);
  });
  // A test that failed half way leaves no engine running into the next one.
  afterEach(async () => {
    await c.close();
  });
  afterAll(async () => {
    clearInterval(swing);
    await c.close();
    await drop();
  });

  it('trades every running bot on exactly one of two workers, and the other takes a killed one’s bots within TTL + 2 s', { timeout: 60_000 }, async () => {
    const a = new Worker(db, { ttlMs: TTL });
    const b = new Worker(db, { ttlMs: TTL });
    const engineA = c.engineFor(a);
    const engineB = c.engineFor(b);
    await engineA.start();
    await engineB.start();
    const ids = await c.newBots(12, 'running');
    const from = c.sent.length;
    // Every bot claimed and trading (waited for, not assumed: a loaded machine takes longer).
    await expect.poll(() => [...c.sendersOf(ids, from).values()].every((s) => s.size > 0), { timeout: 20_000 }).toBe(true);
    await sleep(500);
    const owners = await c.holders(ids);
    expect([...owners.values()].every((w) => w === a.id || w === b.id)).toBe(true);
    // Both have some (rendezvous hashing on 12 traders), and each bot's orders came from its owner only.
    expect(new Set(owners.values()).size).toBe(2);
    for (const [id, senders] of c.sendersOf(ids, from)) {
      expect(senders.size, `bot ${id}`).toBe(1);
      expect([...senders][0]).toBe(owners.get(id));
    }
    expect(c.errors).toEqual([]);

    // A dies (no heartbeat, nothing released): B takes its bots once A's lease expires, and they trade on.
    const ofA = ids.filter((id) => owners.get(id) === a.id);
    engineA.halt();
    const killed = performance.now();
    let taken = 0;
    while (performance.now() - killed < TTL + 2000) {
      const now = await c.holders(ofA);
      if ([...now.values()].every((w) => w === b.id)) {
        taken = performance.now() - killed;
        break;
      }
      await sleep(50);
    }
    expect(taken).toBeGreaterThan(0);
    expect(taken).toBeLessThan(TTL + 2000);
    const after = c.sent.length;
    await expect.poll(() => [...c.sendersOf(ofA, after).values()].every((s) => s.size > 0), { timeout: 20_000 }).toBe(true);
    for (const [id, senders] of c.sendersOf(ofA, after)) expect([...senders], `bot ${id}`).toEqual([b.id]);
    // No order id was sent by both workers, and the books hold each once.
    const byOrder = new Map<string, Set<string>>();
    for (const [worker, order] of c.sent) byOrder.set(order, (byOrder.get(order) ?? new Set()).add(worker));
    expect([...byOrder.values()].filter((s) => s.size > 1)).toEqual([]);
    const filled = await db.selectFrom('bot_orders').select(['client_order_id', 'status']).where('bot_id', 'in', ids).execute();
    for (const o of filled) expect((await c.paper.fetchOrder(o.client_order_id as never)) !== null || o.status === 'new' || o.status === 'submitted').toBe(true);
    expect(c.errors).toEqual([]);
    engineB.halt();
    await engineB.idle();
  });

  it('refuses a decision from a stale owner whose lease was taken, even while it still ticks (LeaseLost)', async () => {
    await c.fresh();
    const a = new Worker(db, { ttlMs: 60_000 });
    const engineA = c.engineFor(a, 60_000);
    await engineA.start();
    market.set('BTC/USDT', '50000');
    const [id] = await c.newBots(1, 'running');
    // A's ownership round (every 100 ms) claims and loads the new bot: waited for, not assumed (on a
    // loaded machine a refresh can meet that round half done, the lease taken but not yet A's in
    // memory, and then does nothing).
    await expect.poll(() => engineA.stateOf(id!) !== undefined, { interval: 20 }).toBe(true);
    expect((await c.holders([id!])).get(id!)).toBe(a.id);
    await engineA.serial(id!, () => engineA.refresh(id!)); // its first order, filled at 50,000
    expect(engineA.stateOf<MartinState>(id!)?.pending).toBeNull();
    expect(engineA.stateOf<MartinState>(id!)?.fills).toHaveLength(1);
    expect(c.sendersOf([id!]).get(id!)).toEqual(new Set([a.id]));
    // Another worker takes the lease (as after a missed heartbeat): epoch + 1.
    const other = new Worker(db, { ttlMs: 60_000 });
    await other.start();
    await sql`update bot_leases set worker_id = ${other.id}, epoch = epoch + 1 where bot_id = ${id}`.execute(db);
    const before = c.sent.length;
    const orders = await db.selectFrom('bot_orders').select('client_order_id').where('bot_id', '=', id!).execute();
    clearInterval(swing);
    market.set('BTC/USDT', '49000'); // past the add trigger
    await engineA.tick();
    await engineA.idle();
    expect(c.sent.slice(before).filter(([, o]) => o.startsWith(`${id}-`))).toEqual([]);
    expect(await db.selectFrom('bot_orders').select('client_order_id').where('bot_id', '=', id!).execute()).toEqual(orders);
    expect(engineA.stateOf(id!)).toBeUndefined(); // dropped from this process
    engineA.halt();
    other.halt();
  });

  it('rebalances when a worker joins: the newcomer takes its share of the traders’ bots from the one that held them all, and no bot is traded by both', { timeout: 60_000 }, async () => {
    await c.fresh();
    const a = new Worker(db, { ttlMs: TTL });
    const engineA = c.engineFor(a);
    await engineA.start();
    const b = new Worker(db, { ttlMs: TTL });
    const engineB = c.engineFor(b);
    try {
      const ids = await c.newBots(12, 'running');
      const settle = async (until: (owners: Map<string, string | null>) => boolean) => {
        const since = performance.now();
        let owners = await c.holders(ids);
        while (!until(owners) && performance.now() - since < 20_000) {
          await sleep(100);
          owners = await c.holders(ids);
        }
        return owners;
      };
      const alone = await settle((o) => ids.every((id) => o.get(id) === a.id));
      expect(ids.filter((id) => alone.get(id) !== a.id)).toEqual([]);
      // What the engines log from B's join on: the tests before log refusals on purpose, and a round an
      // earlier test's engine had under way when this one emptied the workers table can still end in a
      // refused claim on a loaded machine.
      const errorsBefore = c.errors.length;
      // B joins: rendezvous hashing on the 12 traders gives it some of them, which A hands over.
      await engineB.start();
      const joined = performance.now();
      const shared = await settle((o) => ids.every((id) => o.has(id)) && [...o.values()].some((w) => w === b.id) && [...o.values()].some((w) => w === a.id));
      expect(performance.now() - joined).toBeLessThan(20_000);
      const ofB = ids.filter((id) => shared.get(id) === b.id);
      expect(ofB.length).toBeGreaterThan(0);
      expect(ofB.length).toBeLessThan(ids.length);
      // B may take its share over a few rounds (A hands a bot over once its order in flight is answered):
      // the owners are read until they stay the same for a second, then each bot's orders come from its
      // owner only.
      let stable = await c.holders(ids);
      for (const until = performance.now() + 10_000; performance.now() < until; ) {
        await sleep(1000);
        const now = await c.holders(ids);
        if (ids.every((id) => now.get(id) === stable.get(id))) break;
        stable = now;
      }
      const from = c.sent.length;
      await sleep(2500);
      const owners = await c.holders(ids);
      // (After the file's earlier tests these bots may send nothing in that time; the first test checks the senders of trading bots.)
      const traded = [...c.sendersOf(ids, from)].filter(([, senders]) => senders.size > 0);
      for (const [id, senders] of traded) expect([...senders], `bot ${id}`).toEqual([owners.get(id)]);
      expect(c.errors.slice(errorsBefore)).toEqual([]);
    } finally {
      engineA.halt();
      engineB.halt();
      await engineA.idle();
      await engineB.idle();
    }
  });

  it('hands a leaving worker’s bots over at once (SIGTERM: leases freed, no TTL wait)', { timeout: 30_000 }, async () => {
    await c.fresh();
    const a = new Worker(db, { ttlMs: 5000 });
    const engineA = c.engineFor(a);
    await engineA.start();
    const ids = await c.newBots(3, 'running');
    await expect.poll(async () => [...(await c.holders(ids)).values()], { timeout: 10_000 }).toEqual([a.id, a.id, a.id]);
    const b = new Worker(db, { ttlMs: 5000 });
    const engineB = c.engineFor(b);
    await engineB.start();
    await engineA.stop();
    const left = performance.now();
    while (![...(await c.holders(ids)).values()].every((w) => w === b.id)) await sleep(50);
    expect(performance.now() - left).toBeLessThan(2000);
    engineB.halt();
  });

  it.runIf(kind === 'postgres')('a pause through the API on one process reaches the owner on another within 0.5 s (NOTIFY)', { timeout: 15_000 }, async () => {
    await c.fresh();
    // B owns the bot; its ownership round and its ticks are slow (60 s), so only the notification can
    // tell it (a tick would meet the status fence and reload the bot too).
    const b = new Worker(db, { ttlMs: 60_000 });
    const engineB = c.engineFor(b, 60_000, 60_000);
    await engineB.start();
    const [id] = await c.newBots(1, 'running');
    await engineB.serial(id!, () => engineB.refresh(id!));
    expect(engineB.statusOf(id!)).toBe('running');
    const listener = await listenBots(PG_URL, (bot) => engineB.wake(bot), { schema: await schemaOf(db) });
    // The API runs on A, whose engine does not hold the bot.
    const a = new Worker(db, { ttlMs: 60_000 });
    const trading = { engine: c.engineFor(a), listCache: new BotListCache() } as unknown as Trading;
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
