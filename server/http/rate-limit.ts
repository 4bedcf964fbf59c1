import rateLimit, { type FastifyRateLimitStore, type RateLimitOptions } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import type { CallName } from '../../contract/calls.ts';
import type { RateLimit, RateLimits } from '../config.ts';
import { isEmbedded, type Db } from '../db/connect.ts';
import { AppError } from '../errors.ts';
import { sourceOf } from '../services/login-limiter.ts';
import { clientAddress } from './client-address.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The rate limit of a call that needs no token (every such call has one). */
    publicCallLimit(name: CallName): RateLimitOptions;
    /**
     * Counts one request against `limit` under `key` (a trader, a bot, a source), in the same store as
     * the per-source limits; throws RateLimitedError (1020, HTTP 429, the seconds to wait) when over it.
     */
    countLimit(key: string, limit: RateLimit): Promise<void>;
    /** The limits of this app (RATE_LIMIT_*). */
    rateLimits: RateLimits;
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
 * The rate-limit store of PostgreSQL: one row per (source, call) in the database (table rate_limits),
 * counted by an upsert that also starts a new window when the old one is over, so every server process
 * shares the counts and a restart forgets none. The database's clock decides, so the
 * processes' clocks need not agree. Rows of windows long over are deleted now and then.
 *
 * At most one upsert per process is on its way at a time: requests that come meanwhile are counted
 * together by the next one (each of them gets its own place in its source's count, as if counted one by
 * one). A lone request costs one statement and waits for nothing else; a burst costs one statement
 * per round trip, not one per request.
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

/**
 * The rate-limit store of the embedded database (PGlite serves one process: nothing to share): counted
 * in this process's memory, read from rate_limits at the first request and written back there when the
 * app closes, so a restart (SIGTERM) forgets no count; a crash forgets them. An upsert
 * per request would cost PGlite, which runs in this process's thread, about 0.5 ms of it each: a flood
 * from new sources at 330 requests a second took 3.5 times the server's time per request
 * (bench/flood.ts). At most `maxKeys` sources and calls are kept (the oldest go first).
 */
export function embeddedStore(db: Db, app: FastifyInstance, maxKeys = 50_000) {
  const counts = new Map<string, { count: number; resetAt: number }>();
  let loaded = false;
  let loading: Promise<void> | undefined;
  const load = async () => {
    try {
      const { rows } = await sql<{ key: string; count: number; reset_at: Date }>`select key, count, reset_at from rate_limits where reset_at > now()`.execute(db);
      for (const row of rows) if (!counts.has(row.key)) counts.set(row.key, { count: Number(row.count), resetAt: row.reset_at.getTime() });
    } catch (e) {
      app.log.warn({ err: { message: String((e as Error)?.message ?? e) } }, 'rate-limit counts not read back');
    }
    loaded = true;
  };
  app.addHook('onClose', async () => {
    const now = Date.now();
    const live = [...counts].filter(([, v]) => v.resetAt > now);
    try {
      for (let i = 0; i < live.length; i += 1000) {
        const part = live.slice(i, i + 1000);
        await sql`
          insert into rate_limits as r (key, count, reset_at)
          select k, n, to_timestamp(t / 1000.0)
          from unnest(${part.map(([k]) => k)}::varchar[], ${part.map(([, v]) => v.count)}::int[], ${part.map(([, v]) => v.resetAt)}::float8[]) as u(k, n, t)
          on conflict (key) do update set count = excluded.count, reset_at = excluded.reset_at`.execute(db);
      }
      await sql`delete from rate_limits where reset_at < now()`.execute(db);
    } catch (e) {
      app.log.warn({ err: { message: String((e as Error)?.message ?? e) } }, 'rate-limit counts not kept');
    }
  });
  const count = (key: string, timeWindow: number): { current: number; ttl: number } => {
    const now = Date.now();
    let entry = counts.get(key);
    if (!entry || entry.resetAt <= now) {
      if (entry) counts.delete(key);
      if (counts.size >= maxKeys) {
        for (const [k, v] of counts) if (v.resetAt <= now) counts.delete(k);
        for (const k of counts.keys()) {
          if (counts.size < maxKeys) break;
          counts.delete(k);
        }
      }
      entry = { count: 0, resetAt: now + timeWindow };
      counts.set(key, entry);
    }
    entry.count += 1;
    return { current: entry.count, ttl: entry.resetAt - now };
  };
  class EmbeddedStore implements FastifyRateLimitStore {
    incr(key: string, callback: Counted, timeWindow: number): void {
      if (loaded) {
        callback(null, count(key, timeWindow));
        return;
      }
      loading ??= load();
      void loading.then(() => callback(null, count(key, timeWindow)));
    }
    child(): FastifyRateLimitStore {
      return this;
    }
  }
  return EmbeddedStore;
}

const optionsOf = (limit: RateLimit, groupId: string): RateLimitOptions => ({ max: limit.max, timeWindow: limit.windowMs, groupId });

/**
 * Registers @fastify/rate-limit (no global limit: `route()` gives each call that needs no token its
 * limit through `app.publicCallLimit`). Counts per source IP and call: in PostgreSQL, shared by every
 * process (at most one statement per counted request, none for a source already refused until its
 * window ends); on PGlite in memory, kept in the database across restarts. `app.countLimit` counts
 * other keys in the same store: each trader's calls behind a token (`route()`), each bot's webhook
 * requests and each source's webhook tokens that open no bot (routes/signals.ts).
 */
export async function registerRateLimits(app: FastifyInstance, db: Db, limits: RateLimits): Promise<void> {
  const Store = isEmbedded(db) ? embeddedStore(db, app) : databaseStore(db);
  await app.register(rateLimit, {
    global: false,
    hook: 'onRequest',
    // The source: its IP (TRUST_PROXY decides which; never text a client wrote), an IPv6 client by its /64.
    keyGenerator: (request: FastifyRequest) => sourceOf(clientAddress(request)),
    store: Store,
    errorResponseBuilder: (_request, context) => new RateLimitedError(Math.max(1, Math.ceil(context.ttl / 1000))),
  });
  app.decorate('publicCallLimit', (name: CallName) => optionsOf(limits[limitOfCall[name] ?? 'public'], name));
  app.decorate('rateLimits', limits);
  // The same store (its rows, its memory of refused keys) counts the keys that are not sources.
  const own = new Store();
  app.decorate(
    'countLimit',
    (key: string, limit: RateLimit) =>
      new Promise<void>((resolve, reject) => {
        own.incr(
          key,
          (error, result) => {
            if (error || !result) reject(error ?? new Error('rate limit not counted'));
            else if (result.current > limit.max) reject(new RateLimitedError(Math.max(1, Math.ceil(result.ttl / 1000))));
            else resolve();
          },
          limit.windowMs,
          limit.max,
        );
      }),
  );
}
