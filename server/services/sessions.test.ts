import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbKinds, openTestDb } from '../test-support.ts';
import type { Db } from '../db/connect.ts';
import { hashToken, openSession, pruneSessions, resolveSession, revokeSession } from './sessions.ts';

const DAY = 86_400_000;

describe.each(dbKinds)('sessions on %s', (kind) => {
  let db: Db;
  let drop: () => Promise<void>;
  let userId = '';
  beforeAll(async () => {
    ({ db, drop } = await openTestDb(kind));
    const user = await db
      .insertInto('users')
      .values({ sn: '87654321', account: 'sessions01', password_hash: null, payment_hash: null, nickname: 'n', email: '', mobile: '', address: null, avatar: '', referrer_id: null })
      .returning('id')
      .executeTakeFirstOrThrow();
    userId = user.id;
  });
  afterAll(() => drop());

  const codeOf = (token: string, now?: Date) =>
    resolveSession(db, token, now).then(
      () => 'ok',
      (e: { codeName: string }) => e.codeName,
    );

  it('issues 256-bit tokens that expire after the TTL', async () => {
    const t0 = new Date('2026-01-01T00:00:00Z');
    const token = await openSession(db, userId, 1, 30 * DAY, t0);
    expect(Buffer.from(token, 'base64url')).toHaveLength(32);
    expect(await codeOf(token, new Date(t0.getTime() + 30 * DAY - 1))).toBe('ok');
    expect(await codeOf(token, new Date(t0.getTime() + 30 * DAY))).toBe('TokenExpired');
    expect(await codeOf('x'.repeat(43))).toBe('NotLoggedIn');
    expect(await codeOf('')).toBe('NotLoggedIn');
  });

  it('refuses a second live session on one terminal at the database level', async () => {
    const token = await openSession(db, userId, 3, DAY);
    const insert = db
      .insertInto('sessions')
      .values({ user_id: userId, token_hash: hashToken('other'), terminal: 3, expires_at: new Date(Date.now() + DAY), revoked_at: null })
      .execute();
    await expect(insert).rejects.toMatchObject({ code: '23505' });
    const info = await resolveSession(db, token);
    await revokeSession(db, info.sessionId);
    expect(await codeOf(token)).toBe('SessionRevoked');
  });

  it('caches a live session for seconds: its own revocations at once, others within 5 s', async () => {
    const token = await openSession(db, userId, 6, DAY);
    const t0 = new Date();
    expect(await codeOf(token, t0)).toBe('ok');
    // Revoked behind this process's back (another node): still served from the cache for a moment.
    await db.updateTable('sessions').set({ revoked_at: t0 }).where('token_hash', '=', hashToken(token)).execute();
    expect(await codeOf(token, new Date(t0.getTime() + 1000))).toBe('ok');
    expect(await codeOf(token, new Date(t0.getTime() + 5001))).toBe('SessionRevoked');
    // A new login on the same terminal ends the old session at once.
    const first = await openSession(db, userId, 7, DAY);
    expect(await codeOf(first)).toBe('ok');
    await openSession(db, userId, 7, DAY);
    expect(await codeOf(first)).toBe('SessionRevoked');
  });

  it('keeps one live session per terminal when sessions are opened at the same moment', async () => {
    const tokens = await Promise.all(Array.from({ length: 6 }, () => openSession(db, userId, 5, DAY)));
    const live = await db.selectFrom('sessions').select('token_hash').where('user_id', '=', userId).where('terminal', '=', 5).where('revoked_at', 'is', null).execute();
    expect(live).toHaveLength(1);
    const codes = await Promise.all(tokens.map((t) => codeOf(t)));
    expect(codes.filter((c) => c === 'ok')).toHaveLength(1);
  });

  it('prunes only sessions that ended more than a week ago', async () => {
    const now = new Date();
    const old = await openSession(db, userId, 2, DAY, new Date(now.getTime() - 10 * DAY));
    await openSession(db, userId, 4, DAY, now);
    const before = await db.selectFrom('sessions').select('token_hash').execute();
    expect(await pruneSessions(db, 7 * DAY, now)).toBeGreaterThanOrEqual(1);
    const after = await db.selectFrom('sessions').select('token_hash').execute();
    expect(after.length).toBeLessThan(before.length);
    expect(after.map((r) => r.token_hash.trim())).not.toContain(hashToken(old));
    expect(await codeOf(old)).toBe('NotLoggedIn');
  });
});
