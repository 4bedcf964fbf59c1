import { sql } from 'kysely';
import type { Db } from '../db/connect.ts';

/**
 * One simulated market clock for all processes: with MARKET_SPEED > 1 the market's time
 * runs `speed` times faster than the wall clock from an origin; each process used its own start as the
 * origin, so two processes showed prices minutes of market time apart. On PostgreSQL the first process
 * stores the origin and the speed (cluster_settings), and every other one uses them; a process started
 * with another speed refuses to start rather than trade on another clock.
 */
export async function sharedMarketOrigin(db: Db, speed: number, now = Date.now()): Promise<number> {
  const value = JSON.stringify({ origin: now, speed });
  await sql`insert into cluster_settings (name, value) values ('market_clock', ${value}) on conflict (name) do nothing`.execute(db);
  const { rows } = await sql<{ value: string }>`select value from cluster_settings where name = 'market_clock'`.execute(db);
  const stored = JSON.parse(rows[0]!.value) as { origin: number; speed: number };
  if (stored.speed !== speed) {
    throw new Error(
      `MARKET_SPEED=${speed}, but the other server processes on this database run the simulated market at ${stored.speed}: start every process with the same MARKET_SPEED (or clear cluster_settings' market_clock row when none runs)`,
    );
  }
  return stored.origin;
}
