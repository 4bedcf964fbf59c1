import { createHash } from 'node:crypto';
import { normalizeIP } from '@fastify/rate-limit';
import { sql } from 'kysely';
import type { LoginLimits } from '../config.ts';
import type { Db } from '../db/connect.ts';
import { fail } from '../errors.ts';

/** Takes a solved challenge (the request's `challenge` field) and uses it up; throws ChallengeRequired / ChallengeFailed. */
export interface ChallengeTaker {
  use(payload: string | undefined): Promise<void>;
}

interface Row {
  key: string;
  failures: number;
  last_at: Date;
}

/** What the counters say about the next login of an account from a source. */
export interface LoginGate {
  /** Milliseconds until this account may be tried from this source again (0: now). */
  waitMs: number;
  /** Whether the next try needs a solved challenge. */
  challenge: boolean;
}

/** The source of a request: its IP (TRUST_PROXY decides which), an IPv6 client by its /64 (it holds them all). */
export const sourceOf = (ip: string) => normalizeIP(ip, 64);

/** Keys fit the column (varchar 200): a longer one (an odd IPv6 form) is hashed. */
const fitKey = (key: string) => (key.length <= 190 ? key : `h:${createHash('sha256').update(key).digest('hex')}`);

/**
 * Failed-login counting in the database (table login_attempts), so every server process sees the same
 * counts and a restart forgets nothing. Counts are forgotten `windowMs` after their last failure.
 *
 * Logins (`beginLogin` / `loginSucceeded`) are never locked, so a stranger can never keep the owner out:
 *  - per account and source: after the n-th failure (n >= 2) the next try waits min(cap, base x 2^(n-2))
 *    (1, 2, 4 ... 60 s), answered RateLimited with the seconds; after `challengeAfter` failures every try
 *    also needs a solved proof-of-work challenge (ChallengeRequired until one comes);
 *  - per account (any source) and per source (any account): past their thresholds, every login to that
 *    account / from that source needs a solved challenge. No wait and no lock: the owner with the right
 *    password and a solved challenge from a clean source always gets in.
 * A try is counted as a failure before the password is checked (and taken back when it was right), and
 * the account-and-source count moves by compare-and-set: parallel tries cannot slip past the wait, nor
 * a crash between check and count. Unknown accounts are counted exactly like known ones.
 *
 * Secrets checked behind a session (old password, payment password, 2FA code) are not counted here:
 * each session has its own budget of wrong tries (security/session-tries.ts), so one session's tries
 * never refuse another's.
 */
export class LoginLimiter {
  private readonly db: Db;
  private readonly limits: LoginLimits;
  private readonly now: () => number;
  private lastPurge = 0;

  constructor(db: Db, limits: LoginLimits, now: () => number = Date.now) {
    this.db = db;
    this.limits = limits;
    this.now = now;
  }

  private loginKeys(account: string, ip: string) {
    const source = sourceOf(ip);
    return { pair: fitKey(`l:p:${account}|${source}`), account: fitKey(`l:a:${account}`), source: fitKey(`l:s:${source}`) };
  }

  private async rows(keys: string[]): Promise<Map<string, Row>> {
    const rows = await this.db.selectFrom('login_attempts').select(['key', 'failures', 'last_at']).where('key', 'in', keys).execute();
    return new Map(rows.map((r) => [r.key, r]));
  }

  /** A row's failures if it is still within the window, else 0. */
  private live(row: Row | undefined, now: number): number {
    return row && now - row.last_at.getTime() < this.limits.windowMs ? row.failures : 0;
  }

  /**
   * The wait after `failures` failures of one account from one source: none after the first (a typo
   * corrected at once), then base x 1, 2, 4 ... up to the cap.
   */
  delayAfter(failures: number): number {
    return failures <= 1 ? 0 : Math.min(this.limits.delayCapMs, this.limits.delayBaseMs * 2 ** Math.min(failures - 2, 30));
  }

  /** What the next login of `account` from `source` needs (for tests and the screens' hints). */
  async loginGate(account: string, source: string): Promise<LoginGate> {
    const keys = this.loginKeys(account, source);
    const rows = await this.rows([keys.pair, keys.account, keys.source]);
    const { waitMs, challenge } = this.gateOf(rows, keys, this.now());
    return { waitMs, challenge };
  }

  private gateOf(rows: Map<string, Row>, keys: ReturnType<LoginLimiter['loginKeys']>, now: number): LoginGate & { pairFailures: number } {
    const pair = rows.get(keys.pair);
    const pairFailures = this.live(pair, now);
    const waitMs = pair && pairFailures > 0 ? Math.max(0, pair.last_at.getTime() + this.delayAfter(pairFailures) - now) : 0;
    const challenge =
      pairFailures >= this.limits.challengeAfter ||
      this.live(rows.get(keys.account), now) >= this.limits.accountChallengeAfter ||
      this.live(rows.get(keys.source), now) >= this.limits.sourceChallengeAfter;
    return { waitMs, challenge, pairFailures };
  }

  /**
   * Lets a login of `account` (lower case) from `source` go ahead, or throws RateLimited (with the
   * seconds to wait), ChallengeRequired or ChallengeFailed. Going ahead counts the try as a failure
   * until `loginSucceeded` takes it back.
   */
  async beginLogin(account: string, source: string, challenge: string | undefined, challenges: ChallengeTaker): Promise<void> {
    const keys = this.loginKeys(account, source);
    const now = this.now();
    const rows = await this.rows([keys.pair, keys.account, keys.source]);
    const gate = this.gateOf(rows, keys, now);
    if (gate.waitMs > 0) throw fail('RateLimited', { values: { seconds: Math.ceil(gate.waitMs / 1000) } });
    // A challenge that comes is checked (and used up) even when none was asked for.
    if (gate.challenge || challenge !== undefined) await challenges.use(challenge);
    // The account-and-source count moves only from what was read: of two tries at once, one goes ahead.
    const at = new Date(now);
    const pair = rows.get(keys.pair);
    const claimed = pair
      ? await this.db
          .updateTable('login_attempts')
          .set({ failures: gate.pairFailures + 1, last_at: at })
          .where('key', '=', keys.pair)
          .where('failures', '=', pair.failures)
          .where('last_at', '=', pair.last_at)
          .executeTakeFirst()
          .then((r) => Number(r.numUpdatedRows) === 1)
      : await this.db
          .insertInto('login_attempts')
          .values({ key: keys.pair, failures: 1, last_at: at })
          .onConflict((oc) => oc.column('key').doNothing())
          .executeTakeFirst()
          .then((r) => Number(r.numInsertedOrUpdatedRows ?? 0) === 1);
    if (!claimed) throw fail('RateLimited', { values: { seconds: Math.max(1, Math.ceil(this.delayAfter(gate.pairFailures + 1) / 1000)) } });
    await this.count([keys.account, keys.source], at);
  }

  /** The try was right: the account-and-source count starts afresh, the others take the try back. */
  async loginSucceeded(account: string, source: string): Promise<void> {
    const keys = this.loginKeys(account, source);
    await this.db.deleteFrom('login_attempts').where('key', '=', keys.pair).execute();
    await this.db.updateTable('login_attempts').set({ failures: sql`greatest(failures - 1, 0)` }).where('key', 'in', [keys.account, keys.source]).execute();
  }

  /** One more failure on each key (a count past the window starts again at 1). */
  private async count(keys: string[], at: Date): Promise<void> {
    const cutoff = new Date(at.getTime() - this.limits.windowMs);
    await this.db
      .insertInto('login_attempts')
      .values(keys.map((key) => ({ key, failures: 1, last_at: at })))
      .onConflict((oc) =>
        oc.column('key').doUpdateSet({
          failures: sql`case when login_attempts.last_at <= ${cutoff} then 1 else login_attempts.failures + 1 end`,
          last_at: at,
        }),
      )
      .execute();
    this.purgeSometimes(at.getTime());
  }

  /**
   * How many wrong password or code tries one session gets before it is ended
   * (security/session-tries.ts): the limits' `perAccountIp`, now counted per session.
   */
  get triesPerSession(): number {
    return this.limits.perAccountIp;
  }

  /**
   * A session of `account` (lower case) was ended by its wrong tries: one failure more on the
   * account's login count, so that logging in again and again for fresh budgets soon needs a solved
   * challenge for every login (never a wait or a lock: the owner still gets in).
   */
  async sessionExhausted(account: string): Promise<void> {
    await this.count([this.loginKeys(account, '').account], new Date(this.now()));
  }

  /** Forgets counts past their window (at most once a minute per process). */
  private purgeSometimes(now: number): void {
    if (now - this.lastPurge < 60_000) return;
    this.lastPurge = now;
    this.db
      .deleteFrom('login_attempts')
      .where('last_at', '<', new Date(now - this.limits.windowMs))
      .execute()
      .catch(() => undefined);
  }
}
