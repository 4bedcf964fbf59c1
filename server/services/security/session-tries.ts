import { sql } from 'kysely';
import type { Db } from '../../db/connect.ts';
import { fail } from '../../errors.ts';
import type { LoginLimiter } from '../login-limiter.ts';
import { endedByTries } from '../sessions.ts';

/**
 * The secrets checked behind a session (the old login password, the payment password, a 2FA or
 * recovery code) are guessed through that session only: its wrong tries count against it alone, and
 * after `limiter.triesPerSession` of them it is ended (SessionTriesExhausted, 1024). So whoever holds a
 * stolen session gets a few guesses and loses it, while the owner's sessions, and a fresh login, keep
 * budgets of their own: no try through one session ever refuses another.
 *
 * A try is claimed on the session's row before the secret is looked at (a conditional update: of any
 * number of tries at once, on any number of processes, no more go ahead than the budget has left) and
 * settled after: a right secret gives its claim back, a wrong one becomes a failure. A try that finds
 * the budget full only of claims still being checked waits for them (they may well be right: the
 * owner's parallel requests all go through); one that finds it spent ends the session. Claims left by a
 * process that died count as wrong once they are older than STALE_MS.
 */
export interface TriesDeps {
  db: Db;
  limiter: LoginLimiter;
}

export interface SessionRef {
  userId: string;
  sessionId: string;
}

/** A claim older than this without its answer was abandoned (a check takes well under a second). */
const STALE_MS = 10_000;
/** How long a try waits for the claims ahead of it before answering Timeout. */
const WAIT_MS = 15_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Checks a secret as one try of the session: `check` answers whether it was right (it may also
 * consume what a right secret uses up, as a TOTP step). Answers that; a wrong secret that spends the
 * budget ends the session and throws SessionTriesExhausted instead. An error thrown by `check` gives
 * the claim back and is rethrown.
 */
export async function trySecret(deps: TriesDeps, session: SessionRef, check: () => Promise<boolean>): Promise<boolean> {
  await claim(deps, session);
  let right: boolean;
  try {
    right = await check();
  } catch (error) {
    await giveBack(deps.db, session.sessionId);
    throw error;
  }
  if (right) {
    await giveBack(deps.db, session.sessionId);
    return true;
  }
  const max = deps.limiter.triesPerSession;
  const now = new Date();
  const row = await deps.db
    .updateTable('sessions')
    .set({
      tries_pending: sql`greatest(tries_pending - 1, 0)`,
      tries_failed: sql`tries_failed + 1`,
      revoked_at: sql`case when tries_failed + 1 >= ${max}::int then coalesce(revoked_at, ${now}::timestamptz) else revoked_at end`,
      ended_by: sql`case when tries_failed + 1 >= ${max}::int and revoked_at is null then 'tries' else ended_by end`,
    })
    .where('id', '=', session.sessionId)
    .returning(['tries_failed'])
    .executeTakeFirst();
  if (row && row.tries_failed >= max) await exhausted(deps, session);
  return false;
}

/** Claims one try, waiting while the budget is held by claims still being checked. */
async function claim(deps: TriesDeps, session: SessionRef): Promise<void> {
  const max = deps.limiter.triesPerSession;
  const started = Date.now();
  for (let pause = 10; ; pause = Math.min(pause * 2, 200)) {
    const now = new Date();
    const claimed = await deps.db
      .updateTable('sessions')
      .set({ tries_pending: sql`tries_pending + 1`, tries_at: now })
      .where('id', '=', session.sessionId)
      .where('revoked_at', 'is', null)
      .where(sql<boolean>`tries_failed + tries_pending < ${max}::int`)
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) === 1) return;
    const row = await deps.db.selectFrom('sessions').select(['tries_failed', 'tries_pending', 'tries_at', 'revoked_at', 'ended_by']).where('id', '=', session.sessionId).executeTakeFirst();
    if (!row || row.revoked_at) throw fail(row?.ended_by === 'tries' ? 'SessionTriesExhausted' : 'SessionRevoked');
    if (row.tries_failed >= max) {
      // Spent by settled failures (a smaller budget than when they were counted): the session ends now.
      await deps.db.updateTable('sessions').set({ revoked_at: now, ended_by: 'tries' }).where('id', '=', session.sessionId).where('revoked_at', 'is', null).execute();
      await exhausted(deps, session);
    }
    if (row.tries_at && now.getTime() - row.tries_at.getTime() > STALE_MS) {
      // Claims nobody answered for this long were abandoned: they count as wrong, then the next try settles it.
      await deps.db
        .updateTable('sessions')
        .set({ tries_failed: sql`tries_failed + tries_pending`, tries_pending: 0 })
        .where('id', '=', session.sessionId)
        .where('tries_at', '=', row.tries_at)
        .execute();
      continue;
    }
    if (Date.now() - started > WAIT_MS) throw fail('Timeout');
    await sleep(pause);
  }
}

async function giveBack(db: Db, sessionId: string): Promise<void> {
  await db.updateTable('sessions').set({ tries_pending: sql`greatest(tries_pending - 1, 0)` }).where('id', '=', sessionId).execute();
}

/**
 * The session's tries ran out: it is dropped from every process's cache, the account's logins count
 * it as a failure (so whoever holds the login password and logs in again and again to guess the
 * payment password soon needs a solved challenge for each login), and the answer is 1024.
 */
async function exhausted(deps: TriesDeps, session: SessionRef): Promise<never> {
  await endedByTries(deps.db, session.userId, session.sessionId);
  const user = await deps.db.selectFrom('users').select('account').where('id', '=', session.userId).executeTakeFirst();
  if (user?.account) await deps.limiter.sessionExhausted(user.account.toLowerCase());
  throw fail('SessionTriesExhausted');
}
