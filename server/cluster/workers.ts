import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { Kysely, PostgresDialect, sql } from 'kysely';
import type { Db } from '../db/connect.ts';
import { BOT_CHANNEL, notify } from './notify.ts';

/** How long a worker's bots stay its own without a heartbeat (config LEASE_TTL_MS). */
export const DEFAULT_LEASE_TTL_MS = 10_000;

/** LEASE_TTL_MS from the environment (at least 1 s), else the default. */
export function leaseTtlMs(env: Record<string, string | undefined> = process.env): number {
  const ms = Number(env.LEASE_TTL_MS);
  return Number.isInteger(ms) && ms >= 1000 ? ms : DEFAULT_LEASE_TTL_MS;
}

export interface WorkerOptions {
  /** A lease is valid while its worker's heartbeat is younger than this (default 10 s). */
  ttlMs?: number;
  /** How often the worker says it is alive (default a fifth of the TTL: 2 s). */
  heartbeatMs?: number;
  /**
   * The embedded PGlite is one process by construction: at start every other worker row is a dead
   * run of this server (SIGKILL), cleared at once so its bots are taken without waiting for the TTL.
   */
  solo?: boolean;
  /**
   * PostgreSQL (DATABASE_URL): the heartbeat gets a connection of its own. On the shared pool it waited
   * behind the engine's work: with 2,000 bots acting in one round it queued for more than TTL - 4 s and
   * the worker fenced itself (bench/bots-per-process.ts), though the database and the process were fine.
   */
  url?: string;
  log?: { error(obj: unknown, msg: string): void };
}

/**
 * This process as a member of the cluster: one `workers` row, kept alive by
 * a heartbeat every 2 s whose liveness is judged by the database's clock only. The cost is one UPDATE
 * per heartbeat whatever the number of bots. A worker that has not heartbeated successfully for
 * TTL - 4 s fences itself: it neither commits nor sends until a heartbeat succeeds again, so by the
 * time another process may take its bots (TTL) it has stopped trading them.
 */
export class Worker {
  readonly id = randomUUID();
  readonly ttlMs: number;
  readonly heartbeatMs: number;
  /** After this long without a successful heartbeat the worker stops trading (TTL - 4 s; 60 % of a short test TTL). */
  readonly fenceMs: number;
  private readonly db: Db;
  /** Where the heartbeat is written: its own connection on PostgreSQL, else the shared handle. */
  private readonly beatDb: Db;
  private readonly ownConnection: boolean;
  /** The embedded PGlite's one worker: nobody to hand its bots to. */
  readonly solo: boolean;
  private readonly log: WorkerOptions['log'];
  /** The monotonic time at which the last successful heartbeat started. */
  private lastBeat = Number.NEGATIVE_INFINITY;
  private timer: NodeJS.Timeout | undefined;
  private beating = false;

  constructor(db: Db, options: WorkerOptions = {}) {
    this.db = db;
    this.ttlMs = options.ttlMs ?? DEFAULT_LEASE_TTL_MS;
    this.heartbeatMs = options.heartbeatMs ?? Math.max(50, Math.floor(this.ttlMs / 5));
    this.fenceMs = this.ttlMs >= 8000 ? this.ttlMs - 4000 : Math.floor(this.ttlMs * 0.6);
    this.solo = options.solo ?? false;
    this.log = options.log;
    this.ownConnection = options.url !== undefined && options.url !== '';
    this.beatDb = this.ownConnection ? heartbeatConnection(options.url as string, options.log) : db;
  }

  /** Registers this process and starts its heartbeat. */
  async start(): Promise<void> {
    const began = performance.now();
    await sql`insert into workers (id, host, pid) values (${this.id}, ${hostname()}, ${process.pid})`.execute(this.db);
    if (this.solo) await sql`delete from workers where id <> ${this.id}`.execute(this.db);
    this.lastBeat = began;
    this.timer = setInterval(() => void this.heartbeat(), this.heartbeatMs);
    this.timer.unref?.();
  }

  /** One heartbeat; a row removed meanwhile (its bots freed) is written again. */
  async heartbeat(): Promise<void> {
    if (this.beating) return;
    this.beating = true;
    const began = performance.now();
    try {
      const { rows } = await sql<{ id: string }>`update workers set heartbeat_at = now() where id = ${this.id} returning id`.execute(this.beatDb);
      if (rows.length === 0) await sql`insert into workers (id, host, pid) values (${this.id}, ${hostname()}, ${process.pid})`.execute(this.db);
      this.lastBeat = began;
    } catch (error) {
      this.log?.error({ err: error }, 'heartbeat failed');
    } finally {
      this.beating = false;
    }
  }

  /** True while the last successful heartbeat is too old to trade on: nothing is committed or sent. */
  fenced(): boolean {
    return performance.now() - this.lastBeat > this.fenceMs;
  }

  /** Stops the heartbeat without leaving: to the others this worker dies once its TTL runs out (tests of a crash). */
  halt(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.lastBeat = Number.NEGATIVE_INFINITY;
  }

  /** Leaves the cluster (SIGTERM): every bot of this worker is freed at once for the others to claim. */
  async leave(): Promise<void> {
    this.halt();
    await sql`update workers set draining = true where id = ${this.id}`.execute(this.db);
    const { rows } = await sql<{ bot_id: string }>`update bot_leases set worker_id = null where worker_id = ${this.id} returning bot_id`.execute(this.db);
    await sql`delete from workers where id = ${this.id}`.execute(this.db);
    // The others' ownership rounds (every second) would take the freed bots; one notification on the
    // bots' channel, of a bot none of them holds, starts that round on each of them now (engine.wake).
    if (rows[0]) await notify(this.db, BOT_CHANNEL, String(rows[0].bot_id));
    if (this.ownConnection) await this.beatDb.destroy();
  }
}

/** A pool of one connection for the heartbeat (pg loaded on first use, as connect.ts does). */
function heartbeatConnection(url: string, log: WorkerOptions['log']): Db {
  return new Kysely({
    dialect: new PostgresDialect({
      pool: async () => {
        const { default: pg } = await import('pg');
        const pool = new pg.Pool({ connectionString: url, max: 1, allowExitOnIdle: true });
        // A connection the database closed (a restart): the next heartbeat opens another.
        pool.on('error', (error) => log?.error({ err: error }, 'heartbeat connection lost'));
        return pool;
      },
    }),
  });
}
