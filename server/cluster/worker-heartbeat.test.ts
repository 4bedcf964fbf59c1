import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../db/connect.ts';
import { openTestDb, PG_URL } from '../testing/test-support.ts';
import { Worker } from './workers.ts';

/**
 * On PostgreSQL the heartbeat has a connection of its own: with every connection of the
 * shared pool busy (the engine's decisions when 2,000 bots act in one round), a heartbeat queued behind
 * them for longer than the fence and the worker stopped trading, though nothing was wrong.
 */
describe('the heartbeat of a worker on PostgreSQL', () => {
  let db: Db;
  let drop: () => Promise<void>;
  let url: string;
  beforeAll(async () => {
    ({ db, drop } = await openTestDb('postgres'));
    const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
    const u = new URL(PG_URL);
    u.searchParams.set('options', `-c search_path=${rows[0]!.schema}`);
    url = u.toString();
  });
  afterAll(async () => {
    await drop();
  });

  it('goes through while the shared pool is busy, so the worker does not fence itself', { timeout: 20_000 }, async () => {
    const worker = new Worker(db, { ttlMs: 2000, url });
    await worker.start();
    try {
      // Every connection of the shared pool (10) busy for 3 s, and more work queued behind them.
      const busy = Array.from({ length: 14 }, () => sql`select pg_sleep(3)`.execute(db));
      // Longer than the fence (60 % of the 2 s TTL: 1.2 s): the timer's heartbeats must have gone through meanwhile.
      await new Promise((r) => setTimeout(r, 1500));
      expect(worker.fenced(), 'fenced while the pool was busy').toBe(false);
      const other = new pg.Client({ connectionString: url });
      await other.connect();
      const { rows } = await other.query<{ age: number }>('select extract(epoch from now() - heartbeat_at) * 1000 as age from workers where id = $1', [worker.id]);
      await other.end();
      expect(Number(rows[0]!.age)).toBeLessThan(1200);
      await Promise.all(busy);
    } finally {
      await worker.leave();
    }
  });
});
