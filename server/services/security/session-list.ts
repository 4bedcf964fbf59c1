import type { SessionList } from '../../../contract/account.ts';
import type { Db } from '../../db/connect.ts';
import { fail } from '../../errors.ts';
import { revokeOtherSessions, revokeSession, revokeUserSession } from '../sessions.ts';
import type { SessionRef } from './session-tries.ts';

/**
 * The trader's live sessions on the security screen, and signing them out. Ending the others needs
 * only a fresh login of the asking device (within FRESH_LOGIN_MS): nothing an attacker holding an
 * older session can block or spend, as a password or a 2FA budget could be. The owner who sees a
 * stranger's session logs in again and ends it; the stranger, without the password, cannot come back.
 */
export const FRESH_LOGIN_MS = 10 * 60_000;

/** The live sessions of the asking trader, the asking one first, then by last use. */
export async function listSessions(db: Db, session: SessionRef, page: number, pageSize: number, now = new Date()): Promise<SessionList> {
  const live = db.selectFrom('sessions').where('user_id', '=', session.userId).where('revoked_at', 'is', null).where('expires_at', '>', now);
  const [count, rows, mine] = await Promise.all([
    live.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
    live
      .select(['id', 'terminal', 'agent', 'ip', 'created_at', 'last_seen_at'])
      .orderBy((eb) => eb.case().when('id', '=', session.sessionId).then(0).else(1).end())
      .orderBy((eb) => eb.fn.coalesce('last_seen_at', 'created_at'), 'desc')
      .orderBy('id', 'desc')
      .limit(pageSize)
      .offset((page - 1) * pageSize)
      .execute(),
    freshUntil(db, session, now),
  ]);
  return {
    list: rows.map((r) => ({
      id: String(r.id),
      terminal: r.terminal,
      agent: r.agent,
      ip: r.ip,
      createdAt: r.created_at.toISOString(),
      lastSeenAt: (r.last_seen_at ?? r.created_at).toISOString(),
      current: String(r.id) === session.sessionId,
    })),
    total: Number(count.n),
    page,
    page_size: pageSize,
    freshUntil: mine ? mine.toISOString() : null,
  };
}

/** Until when the asking session may end the others, or null once that time is past. */
async function freshUntil(db: Db, session: SessionRef, now: Date): Promise<Date | null> {
  const row = await db.selectFrom('sessions').select('created_at').where('id', '=', session.sessionId).executeTakeFirst();
  const until = row ? new Date(row.created_at.getTime() + FRESH_LOGIN_MS) : null;
  return until && until.getTime() > now.getTime() ? until : null;
}

async function requireFresh(db: Db, session: SessionRef, now: Date): Promise<void> {
  if (!(await freshUntil(db, session, now))) throw fail('LoginAgainRequired', { values: { minutes: FRESH_LOGIN_MS / 60_000 } });
}

/**
 * Signs one session of the trader out. The asking session itself is a logout; another needs a fresh
 * login; an id that is not one of the trader's live sessions (another trader's too) is SessionNotFound.
 */
export async function endSession(db: Db, session: SessionRef, id: string, now = new Date()): Promise<void> {
  if (id === session.sessionId) return revokeSession(db, id, now);
  await requireFresh(db, session, now);
  if (!(await revokeUserSession(db, session.userId, id, now))) throw fail('SessionNotFound');
}

/** Signs every other session of the trader out (a fresh login needed); answers how many were live. */
export async function endOtherSessions(db: Db, session: SessionRef, now = new Date()): Promise<{ ended: number }> {
  await requireFresh(db, session, now);
  return { ended: await revokeOtherSessions(db, session.userId, session.sessionId, now) };
}
