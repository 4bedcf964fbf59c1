import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbKinds, openTestDb } from '../testing/test-support.ts';
import type { Db } from '../db/connect.ts';
import { hashToken, MAX_SESSIONS, openSession, pruneSessions, resolveSession, revokeSession } from './sessions.ts';

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

  it('ends its sessions: revoked at once', async () => {
    const token = await openSession(db, userId, 3, DAY);
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
    // A new login on the same kind of device keeps the first signed in.
    const first = await openSession(db, userId, 7, DAY);
    expect(await codeOf(first)).toBe('ok');
    await openSession(db, userId, 7, DAY);
    expect(await codeOf(first)).toBe('ok');
  });

  it('keeps at most MAX_SESSIONS live, logins at once counted one after the other; the ones past it are told why at once', async () => {
    const user = await db
      .insertInto('users')
      .values({ sn: '87654322', account: 'sessions02', password_hash: null, payment_hash: null, nickname: 'n', email: '', mobile: '', address: null, avatar: '', referrer_id: null })
      .returning('id')
      .executeTakeFirstOrThrow();
    const early = await openSession(db, user.id, 1, DAY);
    expect(await codeOf(early)).toBe('ok'); // cached by this process
    const tokens = await Promise.all(Array.from({ length: MAX_SESSIONS + 3 }, (_, i) => openSession(db, user.id, 1 + (i % 4), DAY)));
    const live = await db.selectFrom('sessions').select('id').where('user_id', '=', user.id).where('revoked_at', 'is', null).execute();
    expect(live).toHaveLength(MAX_SESSIONS);
    const codes = await Promise.all([early, ...tokens].map((t) => codeOf(t)));
    expect(codes.filter((c) => c === 'ok')).toHaveLength(MAX_SESSIONS);
    expect(codes.filter((c) => c === 'SessionReplaced')).toHaveLength(4);
    expect(codes[0]).toBe('SessionReplaced'); // the oldest, though this process had it cached
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
