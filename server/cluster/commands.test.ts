import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { Db } from '../db/connect.ts';
import type { Engine } from '../engine/runner.ts';
import { ScriptedMarket } from '../testing/scripted.ts';
import { BotListCache } from '../services/bot-list-cache.ts';
import { operateBot, startBatch } from '../services/bots.ts';
import { AppError } from '../errors.ts';
import { dbKinds, openTestDb, PG_URL } from '../testing/test-support.ts';
import type { Trading } from '../trading.ts';
import { money } from '../../strategy/money.ts';
import type { MartinState } from '../../strategy/martin/strategy.ts';
import { testCluster, type TestCluster } from '../testing/cluster-support.ts';
import { botsWithCommands, commandChannels, pruneCommands, submitCommand, takeCommand } from './commands.ts';
import { BOT_CHANNEL, listenChannels, schemaOf, type BotListener } from './notify.ts';
import { Worker } from './workers.ts';

/**
 * Manual commands reach the owning process: engines with different workers on one
 * database, as separate processes would be (server/testing/cluster-support.ts). The API runs beside engine A, which
 * does not own the bot; engine B owns it, with its ticks and ownership rounds slowed to a minute, so
 * only the command's notification (or, where a test says so, B's round) can reach it.
 */
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

describe.each(dbKinds)('manual commands on %s', (kind) => {
  let db: Db;
  let drop: () => Promise<void>;
  const market = new ScriptedMarket();
  let c: TestCluster;
  const listeners: BotListener[] = [];

  /** What a process's LISTEN connection does for its engine (server/cluster/invalidation.ts, PostgreSQL only). */
  const listen = async (engine: Engine) => {
    if (kind === 'postgres') listeners.push(await listenChannels(PG_URL, { [BOT_CHANNEL]: (bot) => engine.wake(bot), ...commandChannels(engine) }, { schema: await schemaOf(db) }));
  };
  /** The services' view of a process: its engine, and Paper's markets and prices. */
  const tradingFor = (engine: Engine) =>
    ({
      engine,
      listCache: new BotListCache(),
      market: (_e: string, symbol: string) => c.paper.market(symbol),
      prices: { price: async (_e: string, symbol: string) => market.priceAt(symbol, 0) },
      assets: async () => ({ exchange: 'paper', balances: [{ currency: 'USDT', free: '1000000', total: '1000000' }] }),
    }) as unknown as Trading;
  /** Each test starts on a cluster of its own: the earlier tests' engines are halted (their heartbeats would bring their workers back) and deaf. */
  const retire = async () => {
    for (const l of listeners.splice(0)) await l.close();
    for (const e of c.engines) e.halt();
    for (const e of c.engines) await e.idle();
    await c.fresh();
  };
  const userOf = async (id: string) => String((await db.selectFrom('bots').select('user_id').where('id', '=', id).executeTakeFirstOrThrow()).user_id);
  const orders = (id: string) => db.selectFrom('bot_orders').select(['client_order_id', 'side', 'quote', 'amount', 'status']).where('bot_id', '=', id).orderBy('seq').execute();
  const codeOf = (p: Promise<unknown>) =>
    p.then(
      () => 'ok',
      (e: unknown) => (e instanceof AppError ? e.codeName : String(e)),
    );

  /**
   * B owns `n` running bots (one trader unless `apart`), each holding its first buy; A is another live
   * process beside it. `bRounds`: B's ownership round every 100 ms (else every minute); `deadlineMs`:
   * how long A's commands wait to be taken.
   */
  const ownerAndApi = async (n: number, options: { bRounds?: boolean; deadlineMs?: number; params?: Record<string, unknown>; startA?: boolean } = {}) => {
    await retire();
    market.set('BTC/USDT', '50000');
    const [first] = await c.newBots(1, 'running', options.params ? { params: options.params } : {});
    const userId = await userOf(first!);
    const ids = [first!, ...(await c.newBots(n - 1, 'running', { userId, ...(options.params ? { params: options.params } : {}) }))];
    // B, the only live worker, takes them at its start; then each buys.
    const b = new Worker(db, { ttlMs: 60_000 });
    const engineB = c.engineFor(b, 60_000, options.bRounds ? 100 : 60_000);
    await engineB.start();
    for (const id of ids) await engineB.serial(id, () => engineB.refresh(id));
    for (const id of ids) expect(engineB.stateOf<MartinState>(id)!.fills).toHaveLength(1);
    const a = new Worker(db, { ttlMs: 60_000 });
    const engineA = c.engineFor(a, 60_000, 60_000, options.deadlineMs ? { commandDeadlineMs: options.deadlineMs } : {});
    if (options.startA ?? true) await engineA.start();
    await listen(engineA);
    expect([...(await c.holders(ids)).values()].every((w) => w === b.id)).toBe(true);
    return { a, b, engineA, engineB, ids, userId, api: { db, trading: tradingFor(engineA) } };
  };

  beforeAll(async () => {
    ({ db, drop } = await openTestDb(kind));
    c = testCluster(db, market, `cmd${kind}`);
  });
  afterAll(async () => {
    for (const l of listeners) await l.close();
    await c.close();
    await drop();
  });

  it.runIf(kind === 'postgres')('a manual add through a process that does not own the bot is placed by its owner within 0.5 s', { timeout: 30_000 }, async () => {
    const { b, engineB, ids, userId, api } = await ownerAndApi(1);
    await listen(engineB);
    const id = ids[0]!;
    const times: number[] = [];
    for (let i = 0; i < 7; i++) {
      const before = (await orders(id)).length;
      const began = performance.now();
      expect(await operateBot(api, userId, id, 'add')).toBe(id);
      times.push(performance.now() - began);
      const after = await orders(id);
      expect(after.length).toBe(before + 1);
      expect(after.at(-1)).toMatchObject({ side: 'buy', status: 'filled' });
    }
    // With an amount: that quote, exactly.
    expect(await operateBot(api, userId, id, 'add', { amount: '25.5' })).toBe(id);
    expect(money((await orders(id)).at(-1)!.quote!).eq('25.5')).toBe(true);
    // Every order of the bot came from its owner; the owner's memory has them all (9 buys).
    expect([...c.sendersOf([id]).get(id)!]).toEqual([b.id]);
    expect(engineB.stateOf<MartinState>(id)!.fills).toHaveLength(9);
    // For comparison (printed only): the same add through the owner itself.
    const here: number[] = [];
    for (let i = 0; i < 7; i++) {
      const began = performance.now();
      await operateBot({ db, trading: tradingFor(engineB) }, userId, id, 'add');
      here.push(performance.now() - began);
    }
    console.info(
      `manual add through a non-owner (${kind}): median ${median(times).toFixed(1)} ms, max ${Math.max(...times).toFixed(1)} ms over ${times.length}; through the owner: median ${median(here).toFixed(1)} ms`,
    );
    expect(median(times)).toBeLessThan(500);
    expect(Math.max(...times)).toBeLessThan(1500);
    expect(c.errors).toEqual([]);
  });

  it.runIf(kind === 'postgres')('a manual close through a non-owner: half, then the rest, then "no position"; an add past the last position is refused as such', { timeout: 30_000 }, async () => {
    const { b, engineB, ids, userId, api } = await ownerAndApi(1, {
      params: { investment: '1000', firstOrder: '10', multiplier: '1', maxPositions: 3, addTrigger: '0.5', takeProfit: '0.5', repeat: true },
    });
    await listen(engineB);
    const id = ids[0]!;
    expect(await operateBot(api, userId, id, 'add')).toBe(id);
    expect(await operateBot(api, userId, id, 'add')).toBe(id);
    // Three positions of three: the owner's 'nothing' with a position held is "max positions reached".
    expect(await codeOf(operateBot(api, userId, id, 'add'))).toBe('StrategyMaxPositionsReached');
    const held = engineB.stateOf<MartinState>(id)!.fills.reduce((s, f) => s.plus(f.amount), money(0));
    const began = performance.now();
    expect(await operateBot(api, userId, id, 'close', { share: '50' })).toBe(id);
    const partial = performance.now() - began;
    const sale = (await orders(id)).at(-1)!;
    expect(sale).toMatchObject({ side: 'sell', status: 'filled' });
    // Half of the position, rounded down to the market's step by the sizing on the non-owner.
    expect(money(sale.amount!).gt(held.times('0.45'))).toBe(true);
    expect(money(sale.amount!).lte(held.times('0.5'))).toBe(true);
    expect(engineB.stateOf<MartinState>(id)!.fills.length).toBeGreaterThan(0);
    expect(await operateBot(api, userId, id, 'close')).toBe(id);
    expect(engineB.stateOf<MartinState>(id)!.fills).toEqual([]);
    expect(await codeOf(operateBot(api, userId, id, 'close'))).toBe('StrategyNoPosition');
    expect([...c.sendersOf([id]).get(id)!]).toEqual([b.id]);
    expect(partial).toBeLessThan(500);
    expect(c.errors).toEqual([]);
  });

  it.runIf(kind === 'postgres')('a stop with sell through a non-owner sells on the owner, then stops the bot there', { timeout: 30_000 }, async () => {
    const { b, engineB, ids, userId, api } = await ownerAndApi(1);
    await listen(engineB);
    const id = ids[0]!;
    expect(await operateBot(api, userId, id, 'stop', { sell: true })).toBe(id);
    const stopped = performance.now();
    const all = await orders(id);
    expect(all.map((o) => o.side)).toEqual(['buy', 'sell']);
    expect(all.at(-1)!.status).toBe('filled');
    expect(engineB.stateOf<MartinState>(id)!.fills).toEqual([]);
    expect((await db.selectFrom('bots').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status).toBe('stopped');
    while (engineB.statusOf(id) !== 'stopped' && performance.now() - stopped < 2000) await sleep(10);
    expect(performance.now() - stopped).toBeLessThan(500);
    expect([...c.sendersOf([id]).get(id)!]).toEqual([b.id]);
  });

  it.runIf(kind === 'postgres')('a batch through a non-owner pauses every bot on its owner within 0.5 s', { timeout: 60_000 }, async () => {
    // Timed as command-reach.test.ts times every command (a loaded machine stalls one try now and then):
    // the median of 5 batches, each on a cluster of its own, under 0.5 s, the slowest under 2.5 s.
    const times: number[] = [];
    const errors = c.errors.length;
    for (let round = 0; round < 5; round++) {
      const { b, engineB, ids, userId, api } = await ownerAndApi(3);
      await listen(engineB);
      const began = performance.now();
      const task = await startBatch(api, userId, 'pause', ids, (code) => code);
      while (ids.some((id) => engineB.statusOf(id) !== 'paused') && performance.now() - began < 5000) await sleep(5);
      times.push(performance.now() - began);
      expect(ids.map((id) => engineB.statusOf(id))).toEqual(['paused', 'paused', 'paused']);
      await expect.poll(async () => (await db.selectFrom('batch_tasks').select('status').where('id', '=', task).executeTakeFirstOrThrow()).status).toBe('done');
      const { results } = await db.selectFrom('batch_tasks').select('results').where('id', '=', task).executeTakeFirstOrThrow();
      expect((results as { ok: boolean }[]).map((r) => r.ok)).toEqual([true, true, true]);
      // Still B's: the pause went through A and moved nothing there.
      expect([...(await c.holders(ids)).values()]).toEqual([b.id, b.id, b.id]);
    }
    console.info(`batch pause of 3 through a non-owner (${kind}): median ${median(times).toFixed(1)} ms, max ${Math.max(...times).toFixed(1)} ms over ${times.length}`);
    expect(median(times)).toBeLessThan(500);
    expect(Math.max(...times)).toBeLessThan(2500);
    expect(c.errors.slice(errors)).toEqual([]);
  });

  it('a command the owner does not take by its deadline expires (Timeout) and never runs afterwards', { timeout: 30_000 }, async () => {
    // B hears nothing (no LISTEN, rounds a minute apart): as if SIGSTOPped.
    const { b, engineB, ids, userId, api } = await ownerAndApi(1, { deadlineMs: 400 });
    const id = ids[0]!;
    const before = await orders(id);
    const began = performance.now();
    expect(await codeOf(operateBot(api, userId, id, 'close'))).toBe('Timeout');
    const waited = performance.now() - began;
    expect(waited).toBeGreaterThanOrEqual(390);
    expect(waited).toBeLessThan(2000);
    // B wakes: the notification and its round come now, and find nothing to do.
    engineB.commandArrived(id);
    await engineB.idle();
    expect(await botsWithCommands(db, b.id)).toEqual([]);
    expect(await orders(id)).toEqual(before);
    const { rows } = await sql<{ result: string; taken_at: Date | null }>`select result, taken_at from bot_commands where bot_id = ${id}`.execute(db);
    expect(rows).toEqual([{ result: 'expired', taken_at: null }]);

    // A sender that died while waiting never marked its command: past the deadline, the owner still does not take it.
    await submitCommand(db, id, 'close', {}, 200);
    await sleep(400);
    engineB.commandArrived(id);
    await engineB.idle();
    expect(await botsWithCommands(db, b.id)).toEqual([]);
    expect(await orders(id)).toEqual(before);
    // Pruning: the day-old rule keeps today's rows; rows older than the age given go.
    const count = async () => (await sql<{ n: string }>`select count(*) as n from bot_commands where bot_id = ${id}`.execute(db)).rows[0]!.n;
    expect(await pruneCommands(db)).toBe(0);
    expect(Number(await count())).toBe(2);
    expect(await pruneCommands(db, 1)).toBeGreaterThanOrEqual(2);
    expect(Number(await count())).toBe(0);
  });

  it('a command whose notification was lost is run by the owner’s ownership round', { timeout: 30_000 }, async () => {
    // B hears nothing but runs its round every 100 ms; A is not a live worker (B's rounds hand nothing over to it).
    const { b, ids, userId, api } = await ownerAndApi(1, { bRounds: true, startA: false });
    const id = ids[0]!;
    const began = performance.now();
    expect(await operateBot(api, userId, id, 'add')).toBe(id);
    expect(performance.now() - began).toBeLessThan(1500);
    expect((await orders(id)).map((o) => o.side)).toEqual(['buy', 'buy']);
    expect([...c.sendersOf([id]).get(id)!]).toEqual([b.id]);
  });

  it('one process takes a command, however many try at once', async () => {
    const { b, ids } = await ownerAndApi(1, { startA: false });
    const id = ids[0]!;
    const { rows } = await sql<{ epoch: string }>`select epoch from bot_leases where bot_id = ${id}`.execute(db);
    const fence = { worker: b.id, epoch: String(rows[0]!.epoch) };
    const command = await submitCommand(db, id, 'add', { quote: money('12.5') }, 5000);
    const taken = (await Promise.all(Array.from({ length: 8 }, () => takeCommand(db, id, fence)))).filter((t) => t !== undefined);
    expect(taken).toHaveLength(1);
    expect(taken[0]!.id).toBe(command);
    expect(taken[0]!.options.quote?.toFixed()).toBe('12.5');
    // Under an older epoch (a process that lost the bot): nothing to take.
    await submitCommand(db, id, 'add', {}, 5000);
    expect(await takeCommand(db, id, { worker: b.id, epoch: String(Number(fence.epoch) - 1) })).toBeUndefined();
    expect(await takeCommand(db, id, fence)).toBeDefined();
  });

  it.runIf(kind === 'postgres')('a stale owner that still holds the bot in memory takes nothing: the command runs once, on the lease holder', { timeout: 30_000 }, async () => {
    const { engineB, ids, userId, api } = await ownerAndApi(1);
    const id = ids[0]!;
    // C takes the lease from B (as after B's missed heartbeat) and gains the bot in a round; B still has
    // it in memory and listens.
    const cw = new Worker(db, { ttlMs: 60_000 });
    const engineC = c.engineFor(cw, 60_000, 60_000);
    await engineC.start();
    await sql`update bot_leases set worker_id = ${cw.id}, epoch = epoch + 1 where bot_id = ${id}`.execute(db);
    engineC.wake(id); // a bot it does not hold yet: an ownership round now
    const gained = performance.now();
    while (engineC.stateOf(id) === undefined && performance.now() - gained < 3000) await sleep(20);
    expect(engineB.stateOf(id)).toBeDefined();
    await listen(engineB);
    await listen(engineC);
    const before = c.sent.length;
    expect(await operateBot(api, userId, id, 'add')).toBe(id);
    await engineB.idle();
    expect(c.sent.slice(before).filter(([, o]) => o.startsWith(`${id}-`))).toEqual([[cw.id, expect.stringMatching(new RegExp(`^${id}-`))]]);
    const { rows } = await sql<{ taken_by: string; result: string }>`select taken_by, result from bot_commands where bot_id = ${id}`.execute(db);
    expect(rows).toEqual([{ taken_by: cw.id, result: 'placed' }]);
  });

  it('a paused bot nobody owns (its process stopped) is taken by the process that gets its close, and sold', { timeout: 30_000 }, async () => {
    await retire();
    market.set('BTC/USDT', '50000');
    const b = new Worker(db, { ttlMs: 60_000 });
    const engineB = c.engineFor(b, 60_000, 60_000);
    await engineB.start();
    const [id] = await c.newBots(1, 'running');
    await engineB.serial(id!, () => engineB.refresh(id!));
    const userId = await userOf(id!);
    expect(await operateBot({ db, trading: tradingFor(engineB) }, userId, id!, 'pause')).toBe(id);
    await engineB.stop(); // SIGTERM: its leases are freed, and a paused bot is not claimed by anyone's round
    const d = new Worker(db, { ttlMs: 60_000, solo: kind === 'pglite' });
    const engineD = c.engineFor(d, 60_000, 60_000);
    await engineD.start();
    expect((await c.holders([id!])).get(id!)).toBeNull();
    expect(await operateBot({ db, trading: tradingFor(engineD) }, userId, id!, 'close')).toBe(id);
    expect((await orders(id!)).map((o) => [o.side, o.status])).toEqual([
      ['buy', 'filled'],
      ['sell', 'filled'],
    ]);
    expect(c.sent.at(-1)![0]).toBe(d.id);
  });
});
