import { createHash } from 'node:crypto';
import { normalizeIP } from '@fastify/rate-limit';
import { sql } from 'kysely';
import type { LoginLimits } from '../config.ts';
import type { Db } from '../db/connect.ts';
import { fail } from './errors.ts';

export type LimitReason = 'account' | 'pair' | 'ip';
export type LimitVerdict = { ok: true } | { ok: false; reason: LimitReason; minutes: number };

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
 * Secrets checked behind a session (old password, payment password, 2FA code: `claim` / `release`,
 * under keys of their own) keep budgets that do shut: after `perAccountIp` failures per key and IP,
 * `perAccount` per key or `perIp` per IP, for a window. Only a session holder reaches them. A check is
 * claimed (counted) before the secret is looked at, so parallel tries cannot all slip past a budget.
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

  private secretKeys(key: string, ip: string): [LimitReason, string, number][] {
    const source = sourceOf(ip);
    return [
      ['pair', fitKey(`s:p:${key}|${source}`), this.limits.perAccountIp],
      ['account', fitKey(`s:a:${key}`), this.limits.perAccount],
      ['ip', fitKey(`s:s:${source}`), this.limits.perIp],
    ];
  }

  /** The verdict on the rows of a secret's three budgets: the first one shut, with the minutes it stays shut. */
  private verdictOf(keys: [LimitReason, string, number][], rows: Map<string, Row>, now: number): LimitVerdict {
    for (const [reason, k, max] of keys) {
      const row = rows.get(k);
      if (row && this.live(row, now) >= max) return { ok: false, reason, minutes: Math.max(1, Math.ceil((row.last_at.getTime() + this.limits.windowMs - now) / 60_000)) };
    }
    return { ok: true };
  }

  /** Whether a secret behind a session may be checked for `key` from this IP now (reads only; `claim` is what callers use). */
  async check(key: string, ip: string): Promise<LimitVerdict> {
    const keys = this.secretKeys(key, ip);
    return this.verdictOf(keys, await this.rows(keys.map(([, k]) => k)), this.now());
  }

  /**
   * Claims one check of a secret behind a session for `key` from this IP, counted as a failure on all
   * three budgets before the secret is checked (`release` takes it back when the secret was right), or
   * answers why not and for how many minutes (nothing is counted then). One statement: the key-and-IP
   * count moves by a conditional upsert on its own row, so of any number of tries at once, on any
   * number of server processes, exactly as many go ahead as that budget has left. The key's and the
   * IP's budgets are read in the same statement (tries from other sources at the very same moment may
   * pass them by one each).
   */
  async claim(key: string, ip: string): Promise<LimitVerdict> {
    const now = this.now();
    const keys = this.secretKeys(key, ip);
    const [[, pair, pairMax], [, account, accountMax], [, source, sourceMax]] = keys as [[LimitReason, string, number], [LimitReason, string, number], [LimitReason, string, number]];
    const at = new Date(now);
    const cutoff = new Date(now - this.limits.windowMs);
    const { rows } = await sql<{ claimed: number; key: string | null; failures: number | null; last_at: Date | null }>`
      with cur as (
        select key, failures, last_at from login_attempts where key in (${pair}, ${account}, ${source})
      ), open as (
        select not exists (
          select 1 from cur where last_at > ${cutoff}::timestamptz
            and ((key = ${account} and failures >= ${accountMax}::int) or (key = ${source} and failures >= ${sourceMax}::int))
        ) as ok
      ), pair as (
        insert into login_attempts as a (key, failures, last_at)
        select ${pair}::varchar, 1, ${at}::timestamptz from open where ok
        on conflict (key) do update set
          failures = case when a.last_at <= ${cutoff}::timestamptz then 1 else a.failures + 1 end,
          last_at = ${at}::timestamptz
        where a.last_at <= ${cutoff}::timestamptz or a.failures < ${pairMax}::int
        returning a.key
      ), others as (
        insert into login_attempts as a (key, failures, last_at)
        select k, 1, ${at}::timestamptz from (values (${account}::varchar), (${source}::varchar)) v(k) where exists (select 1 from pair)
        on conflict (key) do update set
          failures = case when a.last_at <= ${cutoff}::timestamptz then 1 else a.failures + 1 end,
          last_at = ${at}::timestamptz
        returning a.key
      )
      select (select count(*) from pair)::int as claimed, cur.key, cur.failures, cur.last_at
      from (select 1) one left join cur on true`.execute(this.db);
    this.purgeSometimes(now);
    if (Number(rows[0]?.claimed) === 1) return { ok: true };
    const read = new Map<string, Row>();
    for (const r of rows) if (r.key !== null && r.failures !== null && r.last_at !== null) read.set(r.key, { key: r.key, failures: r.failures, last_at: r.last_at });
    const verdict = this.verdictOf(keys, read, now);
    // Not claimed, yet under every budget as read: tries at the same moment took the last of the key-and-IP budget.
    return verdict.ok ? { ok: false, reason: 'pair', minutes: Math.max(1, Math.ceil(this.limits.windowMs / 60_000)) } : verdict;
  }

  /** The secret was right: the try `claim` counted is taken back from all three budgets. */
  async release(key: string, ip: string): Promise<void> {
    await this.db
      .updateTable('login_attempts')
      .set({ failures: sql`greatest(failures - 1, 0)` })
      .where(
        'key',
        'in',
        this.secretKeys(key, ip).map(([, k]) => k),
      )
      .execute();
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
