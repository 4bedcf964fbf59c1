import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { Db } from '../db/connect.ts';
import type { Engine } from '../engine/runner.ts';
import { ScriptedMarket } from '../testing/scripted.ts';
import { BotListCache } from '../services/bot-list-cache.ts';
import { AppError } from '../errors.ts';
import { receiveSignal, resetWebhook } from '../services/signals.ts';
import { openTestDb, PG_URL } from '../testing/test-support.ts';
import type { Trading } from '../trading.ts';
import { encodeDca } from '../../strategy/dca/state-codec.ts';
import { initialDcaState, type DcaState } from '../../strategy/dca/strategy.ts';
import { botId } from '../../strategy/types.ts';
import { testCluster, type TestCluster } from '../testing/cluster-support.ts';
import { commandChannels } from './commands.ts';
import { BOT_CHANNEL, listenChannels, schemaOf, type BotListener } from './notify.ts';
import { Worker } from './workers.ts';

/** A DCA bot whose weekly start is days away: only signals open its deals. */
// Three days from today, as an ISO weekday (1 Monday .. 7 Sunday; getUTCDay is 0 Sunday .. 6): a 0 was refused on Thursdays.
const weekday = ((new Date().getUTCDay() + 2) % 7) + 1;
const DCA = {
  investment: '320',
  baseOrder: '20',
  safetyOrder: '20',
  maxSafetyOrders: 4,
  deviation: '1.5',
  stepScale: '1.5',
  volumeScale: '2',
  takeProfit: '1.5',
  stopLoss: '',
  cooldown: 0,
  start: { kind: 'schedule', every: 'week', weekday, time: '12:00', utcOffset: 0 },
};

/**
 * Signals reach the owning process by the manual command's path (server/cluster/commands.ts):
 * the webhook is answered by process A, which does not own the bot; B owns it, its ticks and ownership
 * rounds slowed to a minute, so only the command's notification reaches it. And a signal is acted on
 * once, also when it is handed to the engine again or its first process died before acting.
 */
describe('signals in a cluster (PostgreSQL)', () => {
  let db: Db;
  let drop: () => Promise<void>;
  const market = new ScriptedMarket();
  let c: TestCluster;
  const listeners: BotListener[] = [];
  let engineA: Engine;
  let engineB: Engine;
  let b: Worker;
  let id = '';
  let userId = '';
  let token = '';
  const trading = (engine: Engine) => ({ engine, listCache: new BotListCache() }) as unknown as Trading;
  const orders = async () => (await db.selectFrom('bot_orders').select(['side', 'reason', 'status']).where('bot_id', '=', id).orderBy('id').execute()).map((o) => `${o.side} ${o.reason} ${o.status}`);
  const send = (body: unknown, engine = engineA) =>
    receiveSignal(db, trading(engine), token, body).then(
      (r) => r.result,
      (e: unknown) => (e instanceof AppError ? e.codeName : String(e)),
    );

  beforeAll(async () => {
    ({ db, drop } = await openTestDb('postgres'));
    c = testCluster(db, market, 'sigcl');
    market.set('BTC/USDT', '50000');
    [id] = (await c.newBots(1, 'running')) as [string];
    await db
      .updateTable('bots')
      .set({ type: 'dca', params: JSON.stringify(DCA), state: JSON.stringify(encodeDca(initialDcaState(botId(id)))) })
      .where('id', '=', id)
      .execute();
    userId = String((await db.selectFrom('bots').select('user_id').where('id', '=', id).executeTakeFirstOrThrow()).user_id);
    b = new Worker(db, { ttlMs: 60_000 });
    engineB = c.engineFor(b, 60_000, 60_000);
    await engineB.start();
    await engineB.serial(id, () => engineB.refresh(id));
    engineA = c.engineFor(new Worker(db, { ttlMs: 60_000 }), 60_000, 60_000);
    await engineA.start();
    for (const engine of [engineA, engineB]) listeners.push(await listenChannels(PG_URL, { [BOT_CHANNEL]: (bot) => engine.wake(bot), ...commandChannels(engine) }, { schema: await schemaOf(db) }));
    expect((await c.holders([id])).get(id)).toBe(b.id);
    token = (await resetWebhook(db, userId, id)).token!;
  });
  afterAll(async () => {
    for (const l of listeners) await l.close();
    await c.close();
    await drop();
  });

  it('a signal through a process that does not own the bot is placed by its owner, once', { timeout: 30_000 }, async () => {
    expect(await orders()).toEqual([]);
    const began = performance.now();
    expect(await send({ action: 'buy', id: 'c-1' })).toBe('placed');
    const ms = performance.now() - began;
    expect(await orders()).toEqual(['buy open filled']);
    expect([...c.sendersOf([id]).get(id)!]).toEqual([b.id]);
    expect(engineB.stateOf<DcaState>(id)!.phase).toBe('holding');
    // The same alert again, through either process: nothing.
    expect(await send({ action: 'buy', id: 'c-1' })).toBe('SignalDuplicate');
    expect(await send({ action: 'buy', id: 'c-1' }, engineB)).toBe('SignalDuplicate');
    // The stored signal handed to the engine again (a command retried): nothing, it was placed.
    const { rows } = await sql<{ id: string; status: string }>`select id, status from bot_signals where bot_id = ${id} and signal_id = 'c-1'`.execute(db);
    expect(rows[0]!.status).toBe('placed');
    expect((await engineB.serial(id, () => engineB.manual(id, 'signal', { signal: String(rows[0]!.id) }))).result).toBe('nothing');
    expect((await engineA.serial(id, () => engineA.manual(id, 'signal', { signal: String(rows[0]!.id) }))).result).toBe('nothing');
    expect(await send({ action: 'close', id: 'c-2' })).toBe('placed');
    expect(await orders()).toEqual(['buy open filled', 'sell signal_close filled']);
    console.info(`signal through a non-owner: ${ms.toFixed(1)} ms`);
    expect(c.errors).toEqual([]);
  });

  it('a signal recorded by a process that died before acting on it is acted on, once, when the alert comes again', { timeout: 30_000 }, async () => {
    // What a process that died between recording and acting leaves: the signal received, never acted on.
    await sql`insert into bot_signals (bot_id, signal_id, action, status, created_at) values (${id}, 'c-3', 'buy', 'received', now() - interval '1 minute')`.execute(db);
    const before = await orders();
    const [x, y] = await Promise.all([send({ action: 'buy', id: 'c-3' }), send({ action: 'buy', id: 'c-3' }, engineB)]);
    // Both retries reach the stale signal; the decision's transaction lets one of them act.
    expect([x, y].filter((r) => r === 'placed')).toHaveLength(1);
    expect(await orders()).toEqual([...before, 'buy open filled']);
    const { rows } = await sql<{ status: string }>`select status from bot_signals where bot_id = ${id} and signal_id = 'c-3'`.execute(db);
    expect(rows.map((r) => r.status)).toEqual(['placed']);
    // A fresh duplicate (not stale) is a duplicate, whatever its state.
    expect(await send({ action: 'close', id: 'c-3' })).toBe('SignalDuplicate');
  });
});
