import rateLimit, { type FastifyRateLimitStore, type RateLimitOptions } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import type { CallName } from '../../contract/schemas.ts';
import type { RateLimit, RateLimits } from '../config.ts';
import type { Db } from '../db/connect.ts';
import { AppError } from '../services/errors.ts';
import { sourceOf } from '../services/login-limiter.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The rate limit of a call that needs no token (every such call has one). */
    publicCallLimit(name: CallName): RateLimitOptions;
  }
}

/** Which limit each call that needs no token counts against; any other such call: `public`. */
const limitOfCall: Partial<Record<CallName, keyof RateLimits>> = {
  loginRegister: 'register',
  loginAccount: 'login',
  loginNonce: 'wallet',
  loginVerify: 'wallet',
  loginChallenge: 'challenge',
};

type Counted = (error: Error | null, result?: { current: number; ttl: number }) => void;

/**
 * The rate-limit store: one row per (source, call) in the database (table rate_limits), counted by an
 * upsert that also starts a new window when the old one is over, so every server process on PostgreSQL
 * shares the counts and a restart (PGlite's one process too) forgets none (issue 15 §4). The
 * database's clock decides, so the processes' clocks need not agree. Rows of windows long over are
 * deleted now and then.
 *
 * At most one upsert per process is on its way at a time: requests that come meanwhile are counted
 * together by the next one (each of them gets its own place in its source's count, as if counted one by
 * one). A lone request costs one statement and waits for nothing else; a burst costs one statement
 * per round trip, not one per request (PGlite runs in this process's thread: a flood from many
 * sources must not queue the other traders' queries behind one upsert each).
 *
 * A source the database has answered "over the limit until T" is refused by this process until T
 * without asking again: a flood from one source costs one upsert per process and window. That memory
 * only ever repeats what the database said (it is never the only truth) and is bounded.
 */
export function databaseStore(db: Db, maxBlocked = 100_000) {
  let lastPurge = 0;
  const blocked = new Map<string, { until: number; current: number }>();
  /** Waiting to be counted, per key: the window and max of its call, and each request's callback. */
  let waiting = new Map<string, { windowMs: number; max: number; callbacks: Counted[] }>();
  let counting = false;

  const count = () => {
    if (counting || waiting.size === 0) return;
    counting = true;
    const batch = waiting;
    waiting = new Map();
    const keys = [...batch.keys()];
    const entries = [...batch.values()];
    sql<{ key: string; count: number; ttl: number }>`
      insert into rate_limits as r (key, count, reset_at)
      select k, n, now() + w * interval '1 millisecond'
      from unnest(${keys}::varchar[], ${entries.map((e) => e.callbacks.length)}::int[], ${entries.map((e) => e.windowMs)}::float8[]) as u(k, n, w)
      on conflict (key) do update set
        count = case when r.reset_at <= now() then excluded.count else r.count + excluded.count end,
        reset_at = case when r.reset_at <= now() then excluded.reset_at else r.reset_at end
      returning key, count, greatest(0, extract(epoch from (reset_at - now())) * 1000)::float8 as ttl`
      .execute(db)
      .then(
        ({ rows }) => {
          const now = Date.now();
          for (const row of rows) {
            const entry = batch.get(row.key);
            if (!entry) continue;
            batch.delete(row.key);
            const total = Number(row.count);
            const ttl = Math.ceil(Number(row.ttl));
            if (total > entry.max && ttl > 0) {
              if (blocked.size >= maxBlocked) for (const [k, v] of blocked) if (v.until <= now || blocked.size >= maxBlocked) blocked.delete(k);
              blocked.set(row.key, { until: now + ttl, current: total });
            }
            // The batch's requests of this source, in the order they came: the last one holds the total.
            const first = total - entry.callbacks.length + 1;
            for (const [i, callback] of entry.callbacks.entries()) callback(null, { current: first + i, ttl });
          }
          for (const entry of batch.values()) for (const callback of entry.callbacks) callback(new Error('rate limit not counted'));
        },
        (e: Error) => {
          for (const entry of batch.values()) for (const callback of entry.callbacks) callback(e);
        },
      )
      .finally(() => {
        counting = false;
        count();
      });
  };

  class DatabaseStore implements FastifyRateLimitStore {
    incr(key: string, callback: Counted, timeWindow: number, max: number): void {
      const now = Date.now();
      const known = blocked.get(key);
      if (known && known.until > now) {
        callback(null, { current: known.current, ttl: known.until - now });
        return;
      }
      if (known) blocked.delete(key);
      const entry = waiting.get(key);
      if (entry) entry.callbacks.push(callback);
      else waiting.set(key, { windowMs: Math.max(1, Math.trunc(timeWindow)), max, callbacks: [callback] });
      count();
      if (now - lastPurge > 60_000) {
        lastPurge = now;
        sql`delete from rate_limits where reset_at < now() - interval '1 minute'`.execute(db).catch(() => undefined);
      }
    }
    child(): FastifyRateLimitStore {
      // Keys already name the call (groupId): one table serves every route.
      return this;
    }
  }
  return DatabaseStore;
}

/**
 * Answered when a limit is reached: HTTP 429 with the envelope, code 1020 and the wait in seconds (the
 * envelope's error handler writes the text in the request's language).
 */
export class RateLimitedError extends AppError {
  readonly statusCode = 429;
  constructor(seconds: number) {
    super('RateLimited', { values: { seconds } });
  }
}

const optionsOf = (limit: RateLimit, groupId: string): RateLimitOptions => ({ max: limit.max, timeWindow: limit.windowMs, groupId });

/**
 * Registers @fastify/rate-limit (no global limit: `route()` gives each call that needs no token its
 * limit through `app.publicCallLimit`). Counts per source IP and call, in the database (PGlite or
 * PostgreSQL): one statement per counted request, none for a source already refused until its window ends.
 */
export async function registerRateLimits(app: FastifyInstance, db: Db, limits: RateLimits): Promise<void> {
  await app.register(rateLimit, {
    global: false,
    hook: 'onRequest',
    // The source: its IP (TRUST_PROXY decides which), an IPv6 client by its /64.
    keyGenerator: (request: FastifyRequest) => sourceOf(request.ip),
    store: databaseStore(db),
    errorResponseBuilder: (_request, context) => new RateLimitedError(Math.max(1, Math.ceil(context.ttl / 1000))),
  });
  app.decorate('publicCallLimit', (name: CallName) => optionsOf(limits[limitOfCall[name] ?? 'public'], name));
}
