import { afterAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { connectDatabase } from './connect.ts';
import { PG_URL } from '../testing/test-support.ts';

/**
 * PostgreSQL ends a pool's idle sessions (a restart, a failover, DROP DATABASE ... WITH (FORCE), an
 * operator's pg_terminate_backend): the process goes on, and the next query gets a new session. With no
 * listener on the pool, its 'error' event was an uncaught exception that ended the process (seen at the
 * end of a cluster test, whose database was dropped under a pool).
 */
describe('idle sessions the database ends', () => {
  const { db } = connectDatabase({ url: PG_URL });
  const admin = connectDatabase({ url: PG_URL });
  afterAll(async () => {
    await db.destroy();
    await admin.db.destroy();
  });

  it('cost the process nothing: the pool forgets them and the next query opens a new one', async () => {
    const uncaught: unknown[] = [];
    const onUncaught = (error: unknown) => uncaught.push(error);
    process.on('uncaughtException', onUncaught);
    try {
      const before = (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(db)).rows[0]!.pid;
      // The session is idle in the pool now; the database ends it.
      await sql`select pg_terminate_backend(${before})`.execute(admin.db);
      await new Promise((r) => setTimeout(r, 300));
      const after = (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(db)).rows[0]!.pid;
      expect(after).not.toBe(before);
      expect(uncaught).toEqual([]);
    } finally {
      process.off('uncaughtException', onUncaught);
    }
  });
});
