import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultLimits } from '../config.ts';
import { connectDatabase, openDatabase, type Db } from '../db/connect.ts';
import { SecretBox } from '../security/secret-box.ts';
import { dbKinds, newAccount, openTestApp, openTestDb, PG_URL, registerPayload, testRateLimits, type DbKind, type TestApp } from '../testing/test-support.ts';
import { buildApp } from './app.ts';

const config = { sessionTtlMs: 86_400_000, limits: defaultLimits, staticDir: '/nonexistent', logLevel: 'silent', serverIps: [], publicOrigins: ['http://localhost'], rateLimits: testRateLimits() };
const app = (db: Db, ready?: Promise<unknown>) => buildApp({ db, box: new SecretBox(randomBytes(32)), config, ...(ready ? { ready } : {}) });
/** The answer within `ms`, or 'no answer' (a probe must not wait for the database's start). */
const soon = <T>(p: Promise<T>, ms = 1500) => Promise.race([p, new Promise<'no answer'>((r) => setTimeout(() => r('no answer'), ms))]);
const notReady = { code: 5004, msg: '服务暂时不可用', data: null };

/** A database of `kind` that has never been migrated. */
async function unmigrated(kind: DbKind): Promise<{ db: Db; drop: () => Promise<void> }> {
  if (kind === 'pglite') {
    const db = await openDatabase();
    return { db, drop: () => db.destroy() };
  }
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const db = await openDatabase({ url: PG_URL, schema });
  await sql.raw(`CREATE SCHEMA ${schema}`).execute(db);
  const drop = async () => {
    await sql.raw(`DROP SCHEMA ${schema} CASCADE`).execute(db);
    await db.destroy();
  };
  return { db, drop };
}

/**
 * /api/health (alive), /api/ready (start-up done, database reachable and migrated) and
 * /metrics (Prometheus text: latency by route and status, bots, orders, the process) on both databases.
 */
describe.each(dbKinds)('health, readiness and metrics (%s)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await openTestApp(kind);
  });
  afterAll(() => t.close());

  it('answer alive at once while the database starts, and not ready (503, the envelope) until the start-up is done', async () => {
    let done!: () => void;
    const ready = new Promise<void>((resolve) => (done = resolve));
    const starting = await app(t.db, ready);
    try {
      const health = await soon(starting.inject({ url: '/api/health' }));
      expect(health).not.toBe('no answer');
      if (health === 'no answer') return;
      expect(health.statusCode).toBe(200);
      expect(health.json()).toEqual({ code: 1, msg: 'ok', data: { status: 'ok' } });
      const early = await soon(starting.inject({ url: '/api/ready' }));
      expect(early).not.toBe('no answer');
      if (early === 'no answer') return;
      expect(early.statusCode).toBe(503);
      expect(early.json()).toEqual(notReady);
      expect((await starting.inject({ url: '/api/ready', headers: { lang: 'en' } })).json()).toEqual({ code: 5004, msg: 'Service temporarily unavailable', data: null });
      done();
      const r = await starting.inject({ url: '/api/ready' });
      expect(r.statusCode).toBe(200);
      expect(r.json()).toEqual({ code: 1, msg: 'ok', data: { status: 'ready' } });
    } finally {
      await starting.close();
    }
  });

  // Three more databases opened and migrated (a few seconds on a quiet machine): 30 s ran out at load 14.
  it('say not ready when the start-up failed, the database is not migrated (or lacks the newest migration), or does not answer', { timeout: 120_000 }, async () => {
    const failed = Promise.reject(new Error('boom'));
    failed.catch(() => undefined);
    const broken = await app(t.db, failed);
    await new Promise((r) => setImmediate(r));
    expect((await broken.inject({ url: '/api/ready' })).statusCode).toBe(503);
    expect((await broken.inject({ url: '/api/health' })).statusCode).toBe(200);
    await broken.close();

    const bare = await unmigrated(kind);
    const never = await app(bare.db);
    const r = await never.inject({ url: '/api/ready' });
    expect([r.statusCode, r.json()]).toEqual([503, notReady]);
    await never.close();
    await bare.drop();

    const { rows } = await sql<{ name: string }>`select name from kysely_migration order by name desc limit 1`.execute(t.db);
    await sql`delete from kysely_migration where name = ${rows[0]!.name}`.execute(t.db);
    try {
      expect((await t.app.inject({ url: '/api/ready' })).statusCode).toBe(503);
    } finally {
      await sql`insert into kysely_migration (name, timestamp) values (${rows[0]!.name}, ${new Date().toISOString()})`.execute(t.db);
    }
    expect((await t.app.inject({ url: '/api/ready' })).statusCode).toBe(200);

    // A database that does not answer: a closed PGlite, a PostgreSQL nobody listens for.
    let gone: Db;
    if (kind === 'pglite') {
      gone = (await openTestDb('pglite')).db;
      await gone.destroy();
    } else {
      const nowhere = connectDatabase({ url: 'postgres://postgres@127.0.0.1:1/none' });
      nowhere.ready.catch(() => undefined);
      gone = nowhere.db;
    }
    const lost = await app(gone);
    const answer = await soon(lost.inject({ url: '/api/ready' }), 5000);
    expect(answer).not.toBe('no answer');
    if (answer !== 'no answer') expect([answer.statusCode, answer.json()]).toEqual([503, notReady]);
    await lost.close();
    if (kind === 'postgres') await gone.destroy();
  });

  it('show request latency by route and status, bots by status, orders sent, and the process in Prometheus text, with no user data', async () => {
    const account = newAccount();
    const reg = await t.app.inject({ method: 'POST', url: '/api/login/register', payload: await registerPayload(t.app, { account }) });
    const token = reg.json().data.token as string;
    const auth = { authorization: `Bearer ${token}` };
    expect((await t.app.inject({ method: 'POST', url: '/api/exchanges/bind', payload: { exchangeId: 1, apiKey: 'paperkey01', secretKey: 'papersecret01' }, headers: auth })).json().code).toBe(1);
    const params = { investment: '1000', firstOrder: '100', multiplier: '2', maxPositions: 3, addTrigger: '2', takeProfit: '1', repeat: true };
    const bot = await t.app.inject({ method: 'POST', url: '/api/user/botCreate', payload: { type: 'martin', exchangeId: 1, symbol: 'BTC/USDT', params }, headers: auth });
    const id = bot.json().data.id as string;
    expect((await t.app.inject({ url: `/api/user/botOperation?id=${id}&action=start`, headers: auth })).json().code).toBe(1); // the first order goes out
    await t.app.inject({ url: `/api/user/botInfo?id=${id}`, headers: auth });
    await t.app.inject({ url: `/api/nowhere/${account}` });
    await t.app.inject({ url: '/api/health' });

    const r = await t.app.inject({ url: '/metrics' });
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = r.body;
    expect(text).toMatch(/^http_request_duration_seconds_count\{method="GET",route="\/api\/health",status_code="200"\} [1-9]/m);
    expect(text).toMatch(/^http_request_duration_seconds_bucket\{le="10",method="POST",route="\/api\/login\/register",status_code="200"\} [1-9]/m);
    expect(text).toMatch(/^http_request_duration_seconds_count\{method="GET",route="\/api\/user\/botInfo",status_code="200"\} [1-9]/m);
    expect(text).toMatch(/^http_request_duration_seconds_count\{method="GET",route="unmatched",status_code="404"\} [1-9]/m);
    expect(text).toMatch(/^quantbot_bots\{status="running"\} 1$/m);
    expect(text).toMatch(/^quantbot_bots\{status="paused"\} 0$/m);
    expect(text).toMatch(/^quantbot_orders_sent_total\{exchange="paper"\} 1$/m);
    // The engine's own figures: the bot's start was one queued event; rounds and lease changes are declared.
    expect(text).toMatch(/^quantbot_engine_queue_lag_seconds_count [1-9]/m);
    expect(text).toMatch(/^# TYPE quantbot_engine_round_seconds histogram$/m);
    expect(text).toMatch(/^quantbot_lease_changes_total\{change="gained"\} 0$/m);
    expect(text).toMatch(/^process_cpu_seconds_total [0-9.e+-]+$/m);
    expect(text).toMatch(/^nodejs_eventloop_lag_seconds [0-9.e+-]+$/m);
    // Nothing of the trader: not the account, the token, the bot's id in a query, nor a path no route matched.
    for (const secret of [account, token, `id=${id}`, '/api/nowhere']) expect(text).not.toContain(secret);
  });

  it('are never rate-limited and never limit anything', async () => {
    const tight = { ...testRateLimits(), public: { max: 2, windowMs: 60_000 } };
    const limited: FastifyInstance = await t.another({ rateLimits: tight });
    for (let i = 0; i < 6; i++) {
      for (const url of ['/api/health', '/api/ready', '/metrics']) expect((await limited.inject({ url, remoteAddress: '10.160.0.1' })).statusCode, url).toBe(200);
    }
    // The public budget is untouched by them.
    expect((await limited.inject({ url: '/api/market/exchanges', remoteAddress: '10.160.0.1' })).statusCode).toBe(200);
  });
});
