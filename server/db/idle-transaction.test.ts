import { afterAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { connectDatabase, IDLE_TX_TIMEOUT_MS } from './connect.ts';
import { PG_URL } from '../testing/test-support.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * A process frozen inside a transaction (SIGSTOP, a paused VM) must not hold its locks for as long as it
 * sleeps (the other processes' lease claims waited on them, 13.3 s at the default lease and
 * unbounded for a longer freeze). PostgreSQL ends such a transaction after IDLE_TX_TIMEOUT_MS, and the
 * frozen side learns it from its next statement, without the process crashing.
 */
describe('a transaction left idle on PostgreSQL', () => {
  const frozen = connectDatabase({ url: PG_URL });
  const other = connectDatabase({ url: PG_URL });
  afterAll(async () => {
    await frozen.db.destroy();
    await other.db.destroy();
  });

  it('is ended after the timeout: its locks are freed for others, its next statement fails, and the process and pool go on', { timeout: 60_000 }, async () => {
    const key = Math.floor(Math.random() * 1e9);
    let locked!: () => void;
    const holding = new Promise<void>((r) => (locked = r));
    // The frozen side takes a lock, then sends nothing for longer than the timeout (as if stopped).
    const stale = frozen.db.transaction().execute(async (tx) => {
      await sql`select pg_advisory_xact_lock(${key})`.execute(tx);
      locked();
      await sleep(IDLE_TX_TIMEOUT_MS + 3000);
      await sql`select 1`.execute(tx);
    });
    const staleEnd = stale.then(
      () => 'committed',
      (e: Error) => e.message,
    );
    await holding;
    const asked = performance.now();
    await other.db.transaction().execute((tx) => sql`select pg_advisory_xact_lock(${key})`.execute(tx));
    const waited = performance.now() - asked;
    // Freed by the timeout, well before the frozen side would have woken.
    expect(waited).toBeGreaterThan(IDLE_TX_TIMEOUT_MS - 1000);
    expect(waited).toBeLessThan(IDLE_TX_TIMEOUT_MS + 2500);
    expect(await staleEnd).not.toBe('committed');
    // The same pool serves the next request on a fresh session.
    expect((await sql<{ one: number }>`select 1 as one`.execute(frozen.db)).rows).toEqual([{ one: 1 }]);
  });
});
