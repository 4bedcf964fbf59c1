import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '../db/connect.ts';
import { notifyUser, SESSION_CHANNEL } from '../cluster/notify.ts';
import { fail } from '../errors.ts';

/** sha256 hex: tokens are stored hashed, so a database leak yields no usable token. */
export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * The most devices one account keeps signed in at once: a phone, a tablet, a laptop and a script side
 * by side, each with a session of its own (the security screen lists them and signs any out). A login
 * past it ends the least recently used, which is told why (SessionReplaced).
 */
export const MAX_SESSIONS = 10;

/**
 * Opens a session: a 256-bit random token. The trader's other devices stay signed in, whatever their
 * kind, up to MAX_SESSIONS. Returns the token, shown to the client once.
 */
export async function openSession(db: Db, userId: string, terminal: number, ttlMs: number, now = new Date()): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  let ended: string[] = [];
  await db.transaction().execute(async (tx) => {
    // Two logins of one user at once would both count the same live sessions: taking the user's row
    // lock first makes them count one after the other.
    await tx.selectFrom('users').select('id').where('id', '=', userId).forUpdate().execute();
    const live = await tx.selectFrom('sessions').select(['id', 'last_seen_at', 'created_at']).where('user_id', '=', userId).where('revoked_at', 'is', null).where('expires_at', '>', now).execute();
    // The least recently used first (a session never used since its login: by its login's time).
    const byUse = live.sort((a, b) => (a.last_seen_at ?? a.created_at).getTime() - (b.last_seen_at ?? b.created_at).getTime() || Number(a.id) - Number(b.id));
    ended = byUse.slice(0, Math.max(0, live.length - (MAX_SESSIONS - 1))).map((s) => String(s.id));
    if (ended.length > 0) await tx.updateTable('sessions').set({ revoked_at: now, ended_by: 'replaced' }).where('id', 'in', ended).execute();
    await tx
      .insertInto('sessions')
      .values({ user_id: userId, token_hash: hashToken(token), terminal, expires_at: new Date(now.getTime() + ttlMs), revoked_at: null })
      .execute();
    if (ended.length > 0) await notifyUser(tx, SESSION_CHANNEL, userId); // the sessions it ended, on the other processes
  });
  if (ended.length > 0) forget(db, (s) => ended.includes(s.sessionId));
  return token;
}

export interface SessionInfo {
  sessionId: string;
  userId: string;
}

/**
 * Live sessions seen in the last few seconds, by token hash, per database: a busy screen (the bot list
 * polls) does not look its session up on every call. A revocation (logout, a new login on the same
 * terminal, a password change) drops the user's entries at once here, and on every other process
 * through PostgreSQL's NOTIFY (server/main.ts listens); anything else (a manual change in
 * the database, a notification lost with a dropped connection) is seen within SESSION_CACHE_MS.
 */
const SESSION_CACHE_MS = 5_000;
interface CachedSession extends SessionInfo {
  terminal: number;
  until: number;
}
const sessionCache = new WeakMap<Db, Map<string, CachedSession>>();
const cacheOf = (db: Db) => {
  let c = sessionCache.get(db);
  if (!c) {
    c = new Map();
    sessionCache.set(db, c);
  }
  return c;
};
function forget(db: Db, drop: (s: CachedSession) => boolean): void {
  const c = sessionCache.get(db);
  if (!c) return;
  for (const [hash, s] of c) if (drop(s)) c.delete(hash);
}

/** Another process changed the user's sessions: the next call of each looks its session up again. */
export function forgetUserSessions(db: Db, userId: string): void {
  forget(db, (s) => s.userId === userId);
}

/** Notifications may have been missed (the listening connection dropped): every session is looked up again. */
export function forgetAllSessions(db: Db): void {
  sessionCache.get(db)?.clear();
}

/** How often a session's last use is written: the security screen shows it to the minute. */
const LAST_SEEN_EVERY_MS = 60_000;

/**
 * The live session of a bearer token. Unknown token: NotLoggedIn (101); expired: TokenExpired (1006);
 * ended by its wrong password or code tries: SessionTriesExhausted (1024); revoked otherwise, or the
 * account disabled: SessionRevoked (2003).
 */
export async function resolveSession(db: Db, token: string, now = new Date()): Promise<SessionInfo> {
  if (!token) throw fail('NotLoggedIn');
  const hash = hashToken(token);
  const cache = cacheOf(db);
  const hit = cache.get(hash);
  if (hit && hit.until > now.getTime()) return { sessionId: hit.sessionId, userId: hit.userId };
  const row = await db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .select(['sessions.id', 'sessions.user_id', 'sessions.terminal', 'sessions.expires_at', 'sessions.revoked_at', 'sessions.ended_by', 'sessions.last_seen_at', 'users.disabled'])
    .where('sessions.token_hash', '=', hash)
    .executeTakeFirst();
  cache.delete(hash);
  if (!row) throw fail('NotLoggedIn');
  if (row.revoked_at && row.ended_by === 'tries') throw fail('SessionTriesExhausted');
  if (row.revoked_at && row.ended_by === 'replaced') throw fail('SessionReplaced', { values: { max: MAX_SESSIONS } });
  if (row.revoked_at || row.disabled) throw fail('SessionRevoked');
  if (row.expires_at.getTime() <= now.getTime()) throw fail('TokenExpired');
  if (!row.last_seen_at || now.getTime() - row.last_seen_at.getTime() >= LAST_SEEN_EVERY_MS) {
    await db.updateTable('sessions').set({ last_seen_at: now }).where('id', '=', row.id).execute();
  }
  const info = { sessionId: String(row.id), userId: String(row.user_id) };
  if (cache.size > 10_000) cache.clear(); // bounded: a flood of tokens cannot grow it without limit
  cache.set(hash, { ...info, terminal: row.terminal, until: Math.min(now.getTime() + SESSION_CACHE_MS, row.expires_at.getTime()) });
  return info;
}

/** A device's push subscription belongs to the session that made it: that session's end stops its alerts. */
async function forgetDevices(db: Db, sessionIds: string[]): Promise<void> {
  if (sessionIds.length > 0) await db.deleteFrom('push_subscriptions').where('session_id', 'in', sessionIds).execute();
}

/** Ends one session (logout). */
export async function revokeSession(db: Db, sessionId: string, now = new Date()): Promise<void> {
  const row = await db.updateTable('sessions').set({ revoked_at: now }).where('id', '=', sessionId).where('revoked_at', 'is', null).returning('user_id').executeTakeFirst();
  forget(db, (s) => s.sessionId === sessionId);
  await forgetDevices(db, [sessionId]);
  if (row) await notifyUser(db, SESSION_CHANNEL, String(row.user_id));
}

/** The session's wrong tries ran out (security/session-tries.ts ended it): every process forgets it now. */
export async function endedByTries(db: Db, userId: string, sessionId: string): Promise<void> {
  forget(db, (s) => s.sessionId === sessionId);
  await notifyUser(db, SESSION_CHANNEL, userId);
}

/** Records where a new session's login came from (its token, just answered): the security screen lists it. */
export async function describeSession(db: Db, token: string, where: { agent: string | undefined; ip: string }, now = new Date()): Promise<void> {
  await db
    .updateTable('sessions')
    .set({ agent: (where.agent ?? '').slice(0, 200), ip: where.ip.slice(0, 100), last_seen_at: now })
    .where('token_hash', '=', hashToken(token))
    .execute();
}

/** Ends every other session of the user (after a login password change, or asked on the security screen); answers how many were live. */
export async function revokeOtherSessions(db: Db, userId: string, keepSessionId: string, now = new Date()): Promise<number> {
  const ended = await db
    .updateTable('sessions')
    .set({ revoked_at: now })
    .where('user_id', '=', userId)
    .where('id', '!=', keepSessionId)
    .where('revoked_at', 'is', null)
    .returning(['id', 'expires_at'])
    .execute();
  forget(db, (s) => s.userId === userId && s.sessionId !== keepSessionId);
  await forgetDevices(
    db,
    ended.map((r) => String(r.id)),
  );
  await notifyUser(db, SESSION_CHANNEL, userId);
  return ended.filter((r) => r.expires_at.getTime() > now.getTime()).length;
}

/** Ends one live session of the user, by id; answers false when the user has no such live session (another user's ids included). */
export async function revokeUserSession(db: Db, userId: string, sessionId: string, now = new Date()): Promise<boolean> {
  const row = await db
    .updateTable('sessions')
    .set({ revoked_at: now })
    .where('id', '=', sessionId)
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .returning('id')
    .executeTakeFirst();
  if (!row) return false;
  forget(db, (s) => s.sessionId === sessionId);
  await forgetDevices(db, [sessionId]);
  await notifyUser(db, SESSION_CHANNEL, userId);
  return true;
}

/** Deletes sessions that expired or were revoked more than `keepMs` ago (they can never be used again). */
export async function pruneSessions(db: Db, keepMs = 7 * 86_400_000, now = new Date()): Promise<number> {
  const before = new Date(now.getTime() - keepMs);
  const result = await db
    .deleteFrom('sessions')
    .where((eb) => eb.or([eb('expires_at', '<', before), eb('revoked_at', '<', before)]))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
