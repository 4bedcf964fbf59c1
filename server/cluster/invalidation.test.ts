import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { openDatabase, type Db } from '../db/connect.ts';
import { BotListCache } from '../services/bot-list-cache.ts';
import { forgetAllSessions, forgetUserSessions, MAX_SESSIONS, openSession, resolveSession, revokeOtherSessions, revokeSession } from '../services/sessions.ts';
import { openTestDb, PG_URL } from '../testing/test-support.ts';
import { shareInvalidations } from './invalidation.ts';
import type { BotListener } from './notify.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `check` until it holds; the ms it took (or Infinity after `limitMs`). */
async function within(limitMs: number, check: () => Promise<boolean> | boolean): Promise<number> {
  const started = performance.now();
  while (performance.now() - started < limitMs) {
    if (await check()) return performance.now() - started;
    await sleep(10);
  }
  return Number.POSITIVE_INFINITY;
}

/**
 * Same answers on every process: two processes, A and B, on one PostgreSQL database, each
 * with its own connection pool, session cache and bot-list cache, as two servers would have. A logout
 * or a bot change on A is seen on B within 0.5 s (the caches alone would hold it for 5 s, or for ever).
 */
describe('caches shared across processes on postgres', () => {
  let dbA: Db;
  let dbB: Db;
  let drop: () => Promise<void>;
  const listeners: BotListener[] = [];
  const a = { engine: { wake: () => undefined }, listCache: new BotListCache() };
  const b = { engine: { wake: () => undefined }, listCache: new BotListCache() };
  let userId = '';

  beforeAll(async () => {
    ({ db: dbA, drop } = await openTestDb('postgres'));
    // B: a second pool on the same schema, so its session cache (kept per database handle) is its own.
    const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(dbA);
    dbB = await openDatabase({ url: PG_URL, schema: rows[0]!.schema });
    const sessions = { forgetUser: forgetUserSessions, forgetAll: forgetAllSessions };
    listeners.push(await shareInvalidations(PG_URL, dbA, a, sessions), await shareInvalidations(PG_URL, dbB, b, sessions));
    const user = await dbA
      .insertInto('users')
      .values({ sn: '55667788', account: 'shared01', password_hash: null, payment_hash: null, nickname: 'n', email: '', mobile: '', address: null, avatar: '', referrer_id: null })
      .returning('id')
      .executeTakeFirstOrThrow();
    userId = String(user.id);
  });
  afterAll(async () => {
    for (const l of listeners) await l.close();
    await dbB.destroy();
    await drop();
  });

  const refused = async (token: string) => {
    try {
      await resolveSession(dbB, token);
      return false;
    } catch {
      return true;
    }
  };

  it('refuses on B, within 0.5 s, a session logged out on A that B had just used', async () => {
    const token = await openSession(dbA, userId, 1, 3_600_000);
    const { sessionId } = await resolveSession(dbB, token); // cached on B for 5 s
    await revokeSession(dbA, sessionId);
    expect(await within(2000, () => refused(token))).toBeLessThan(500);
  });

  it('refuses on B a session that logins past the limit or a sign-out of the others on A ended', async () => {
    const first = await openSession(dbA, userId, 2, 3_600_000);
    await resolveSession(dbB, first);
    // Logins on A past the sessions an account keeps: the least recently used, the first, ends.
    for (let i = 0; i < MAX_SESSIONS; i++) await openSession(dbA, userId, 2, 3_600_000);
    expect(await within(2000, () => refused(first))).toBeLessThan(500);

    const other = await openSession(dbA, userId, 3, 3_600_000);
    const kept = await openSession(dbA, userId, 4, 3_600_000);
    await resolveSession(dbB, other);
    await revokeOtherSessions(dbA, userId, (await resolveSession(dbA, kept)).sessionId);
    expect(await within(2000, () => refused(other))).toBeLessThan(500);
    expect(await refused(kept)).toBe(false);
  });

  it("drops B's cached bot-list pages of a user within 0.5 s of a change of their bots on A", async () => {
    const page = b.listCache.lookup(userId, 'page=1');
    if (!('store' in page)) throw new Error('expected a miss');
    page.store({ list: ['before'] });
    expect(b.listCache.lookup(userId, 'page=1')).toEqual({ hit: { list: ['before'] } });
    a.listCache.bump(userId); // a decision or an operation on A
    expect(await within(2000, () => 'store' in b.listCache.lookup(userId, 'page=1'))).toBeLessThan(500);
  });
});
