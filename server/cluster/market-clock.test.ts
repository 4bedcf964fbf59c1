import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../db/connect.ts';
import { openTestDb } from '../testing/test-support.ts';
import { fastClock } from '../trading.ts';
import { sharedMarketOrigin } from './market-clock.ts';

/** One simulated market clock for every process on PostgreSQL: measured 41 market-minutes apart before. */
describe('the shared market clock on postgres', () => {
  let db: Db;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ db, drop } = await openTestDb('postgres'));
  });
  afterAll(() => drop());

  it('gives a process started later the first one’s origin, so both read the same market time', async () => {
    const first = await sharedMarketOrigin(db, 60, 1_000_000);
    const later = await sharedMarketOrigin(db, 60, 1_000_000 + 41_000); // started 41 s later: 41 market-minutes at 60x
    expect(later).toBe(first);
    const wall = () => 2_000_000;
    expect(fastClock(60, wall, later)()).toBe(fastClock(60, wall, first)());
    expect(fastClock(60, wall, 1_041_000)()).not.toBe(fastClock(60, wall, first)()); // what each process's own start gave
  });

  it('refuses a process started with another speed', async () => {
    await expect(sharedMarketOrigin(db, 30)).rejects.toThrow(/MARKET_SPEED=30.*at 60/);
  });
});
