import { sql } from 'kysely';
import type { Db } from '../db/connect.ts';
import type { Worker } from './workers.ts';

/** The duties one process at a time does. */
export type SingletonName = 'chain' | 'ai-retune' | 'maintenance' | 'alerts';

/** Thrown inside a transaction fenced by a duty this process no longer holds: nothing of it commits. */
export class DutyLost extends Error {
  constructor(name: string) {
    super(`the ${name} duty moved to another process`);
  }
}

/**
 * One duty held by one live process at a time: a `singleton_leases` row naming its worker
 * and a fencing number, valid while that worker's heartbeat is fresh (the same TTL as the bots'). A
 * process claims it, by a compare-and-set that increments the number, when nobody holds it or its
 * holder died; it keeps it by its worker's heartbeat, with no renewal of its own. `fence(tx)` inside a
 * transaction locks the row and refuses to go on unless this process still holds it under the number
 * it was granted, so a process that lost the duty while paused commits nothing of it.
 */
export class Singleton {
  readonly name: SingletonName;
  private readonly db: Db;
  private readonly worker: Worker;
  private epoch: string | null = null;

  constructor(db: Db, worker: Worker, name: SingletonName) {
    this.db = db;
    this.worker = worker;
    this.name = name;
  }

  /** Whether this process does the duty now (held, and its worker not fenced for a missed heartbeat). */
  held(): boolean {
    return this.epoch !== null && !this.worker.fenced();
  }

  /** Takes the duty if it is free or its holder is dead; true while this process holds it. */
  async claim(): Promise<boolean> {
    if (this.worker.fenced()) return false;
    const ttl = `${this.worker.ttlMs} milliseconds`;
    await sql`insert into singleton_leases (name) values (${this.name}) on conflict (name) do nothing`.execute(this.db);
    const { rows: granted } = await sql<{ epoch: string }>`
      update singleton_leases l set worker_id = ${this.worker.id}, epoch = l.epoch + 1, granted_at = now()
      where l.name = ${this.name}
        and (l.worker_id is null
          or (l.worker_id <> ${this.worker.id}
            and not exists (select 1 from workers w where w.id = l.worker_id and w.heartbeat_at > now() - ${ttl}::interval)))
      returning l.epoch`.execute(this.db);
    if (granted[0]) {
      this.epoch = String(granted[0].epoch);
      return true;
    }
    const { rows } = await sql<{ worker_id: string | null; epoch: string }>`select worker_id, epoch from singleton_leases where name = ${this.name}`.execute(this.db);
    const mine = rows[0]?.worker_id === this.worker.id;
    this.epoch = mine ? String(rows[0]!.epoch) : null;
    return mine;
  }

  /** Inside a transaction: throws DutyLost unless this process still holds the duty under its number. */
  async fence(tx: Db): Promise<void> {
    const epoch = this.epoch;
    if (epoch === null || this.worker.fenced()) throw new DutyLost(this.name);
    const { rows } = await sql<{ worker_id: string | null; epoch: string }>`select worker_id, epoch from singleton_leases where name = ${this.name} for update`.execute(tx);
    if (rows[0]?.worker_id !== this.worker.id || String(rows[0].epoch) !== epoch) {
      this.epoch = null;
      throw new DutyLost(this.name);
    }
  }

  /** Gives the duty up (SIGTERM): another process takes it on its next round. */
  async release(): Promise<void> {
    this.epoch = null;
    await sql`update singleton_leases set worker_id = null where name = ${this.name} and worker_id = ${this.worker.id}`.execute(this.db);
  }
}

export interface Duty {
  singleton: Singleton;
  /** Called when this process takes the duty, and `stop` when it loses it. */
  start(): void | Promise<void>;
  stop(): void | Promise<void>;
}

/**
 * Claims each duty now and then every `everyMs` (1 s), starting it when this process takes it and
 * stopping it when it moves elsewhere. Returns a stop that ends the rounds, stops the duties held and
 * releases them.
 */
export async function runDuties(duties: Duty[], everyMs = 1000, log?: { error(obj: unknown, msg: string): void }): Promise<() => Promise<void>> {
  const running = new Set<Duty>();
  let current: Promise<void> | undefined;
  let stopped = false;
  const round = async () => {
    for (const duty of duties) {
      if (stopped) return;
      const held = await duty.singleton.claim().catch((e: unknown) => {
        log?.error({ err: { message: String((e as Error)?.message ?? e) }, duty: duty.singleton.name }, 'duty claim failed');
        return duty.singleton.held();
      });
      if (stopped) return;
      if (held && !running.has(duty)) {
        running.add(duty);
        await duty.start();
      } else if (!held && running.has(duty)) {
        running.delete(duty);
        await duty.stop();
      }
    }
  };
  const next = () => {
    current ??= round().finally(() => {
      current = undefined;
    });
    return current;
  };
  await next();
  const timer = setInterval(() => void next(), everyMs);
  timer.unref?.();
  return async () => {
    stopped = true;
    clearInterval(timer);
    await current; // a round under way finishes first: it cannot take a duty back after the release
    for (const duty of running) await duty.stop();
    running.clear();
    for (const duty of duties) await duty.singleton.release().catch(() => undefined);
  };
}
