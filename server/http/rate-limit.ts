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
const limitOfCall: Partial<Record<CallName, keyof Omit<RateLimits, 'shared'>>> = {
  loginRegister: 'register',
  loginAccount: 'login',
  loginNonce: 'wallet',
  loginVerify: 'wallet',
  loginChallenge: 'challenge',
};

/**
 * The rate-limit store of several processes: one row per (source, call) in PostgreSQL, counted with one
 * upsert that also starts a new window when the old one is over. The database's clock decides, so the
 * processes' clocks need not agree. Rows of windows long over are deleted now and then.
 *
 * A source the database has answered "over the limit until T" is refused by this process until T
 * without asking again: a flood costs one upsert per process and window, not one per request. That
 * memory only ever repeats what the database said (it is never the only truth) and is bounded.
 */
export function databaseStore(db: Db, maxBlocked = 100_000) {
  let lastPurge = 0;
  const blocked = new Map<string, { until: number; current: number }>();
  class DatabaseStore implements FastifyRateLimitStore {
    incr(key: string, callback: (error: Error | null, result?: { current: number; ttl: number }) => void, timeWindow: number, max: number): void {
      const now = Date.now();
      const known = blocked.get(key);
      if (known && known.until > now) {
        callback(null, { current: known.current, ttl: known.until - now });
        return;
      }
      if (known) blocked.delete(key);
      const window = `${Math.max(1, Math.trunc(timeWindow))} milliseconds`;
      sql<{ count: number; ttl: number }>`
        insert into rate_limits as r (key, count, reset_at) values (${key}, 1, now() + ${window}::interval)
        on conflict (key) do update set
          count = case when r.reset_at <= now() then 1 else r.count + 1 end,
          reset_at = case when r.reset_at <= now() then now() + ${window}::interval else r.reset_at end
        returning count, greatest(0, extract(epoch from (reset_at - now())) * 1000)::float8 as ttl`
        .execute(db)
        .then(
          ({ rows }) => {
            const current = Number(rows[0]!.count);
            const ttl = Math.ceil(Number(rows[0]!.ttl));
            if (current > max && ttl > 0) {
              if (blocked.size >= maxBlocked) for (const [k, v] of blocked) if (v.until <= now || blocked.size >= maxBlocked) blocked.delete(k);
              blocked.set(key, { until: Date.now() + ttl, current });
            }
            callback(null, { current, ttl });
          },
          (e: Error) => callback(e),
        );
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
 * limit through `app.publicCallLimit`). Counts per source IP and call; PostgreSQL when `limits.shared`,
 * else this process's memory (PGlite serves one process).
 */
export async function registerRateLimits(app: FastifyInstance, db: Db, limits: RateLimits): Promise<void> {
  await app.register(rateLimit, {
    global: false,
    hook: 'onRequest',
    // The source: its IP (TRUST_PROXY decides which), an IPv6 client by its /64.
    keyGenerator: (request: FastifyRequest) => sourceOf(request.ip),
    // In memory: enough sources that a flood from many addresses does not push the others out early.
    cache: 50_000,
    ...(limits.shared ? { store: databaseStore(db) } : {}),
    errorResponseBuilder: (_request, context) => new RateLimitedError(Math.max(1, Math.ceil(context.ttl / 1000))),
  });
  app.decorate('publicCallLimit', (name: CallName) => optionsOf(limits[limitOfCall[name] ?? 'public'], name));
}
