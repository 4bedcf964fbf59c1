import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../db/connect.ts';
import { dbKinds, openTestDb } from '../testing/test-support.ts';
import { DutyLost, runDuties, Singleton } from './singletons.ts';
import { Worker } from './workers.ts';

/** Short for a quick test, long enough for a loaded machine: a worker fences itself after 60 % of it without a heartbeat (1 s was too short under CI's load). */
const TTL = 2500;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Duties of one process at a time: the chain follower and withdrawal sender, AI
 * re-tuning and pruning run on the process that holds their lease, move when it dies, and a process
 * that lost one commits nothing under it.
 */
describe.each(dbKinds)('singleton duties on %s', (kind) => {
  let db: Db;
  let drop: () => Promise<void>;
  const stops: (() => Promise<void>)[] = [];
  beforeAll(async () => {
    ({ db, drop } = await openTestDb(kind));
  });
  afterAll(async () => {
    for (const stop of stops) await stop().catch(() => undefined);
    await drop();
  });

  const worker = async () => {
    const w = new Worker(db, { ttlMs: TTL });
    await w.start();
    stops.push(async () => w.halt());
    return w;
  };

  it('is held by one process; when it dies another takes it within the TTL, and the old holder is fenced out', async () => {
    const [a, b] = [await worker(), await worker()];
    const [onA, onB] = [new Singleton(db, a, 'chain'), new Singleton(db, b, 'chain')];
    expect(await onA.claim()).toBe(true);
    expect(await onB.claim()).toBe(false);
    expect([onA.held(), onB.held()]).toEqual([true, false]);
    await db.transaction().execute((tx) => onA.fence(tx)); // the holder's transaction goes on
    await expect(db.transaction().execute((tx) => onB.fence(tx))).rejects.toBeInstanceOf(DutyLost);

    a.halt(); // A stops heartbeating (a crash, a pause): B takes the duty once A's TTL has run out
    const died = performance.now();
    while (!(await onB.claim()) && performance.now() - died < 3 * TTL) await sleep(50);
    expect(performance.now() - died).toBeLessThan(TTL + 1000);
    expect(onA.held()).toBe(false); // A's own view: it missed its heartbeats, so it does nothing
    await expect(db.transaction().execute((tx) => onA.fence(tx))).rejects.toBeInstanceOf(DutyLost);
    await db.transaction().execute((tx) => onB.fence(tx));
  });

  it('starts the duty on the process that takes it and stops it on the one that loses it; a release hands it over at once', async () => {
    const [a, b] = [await worker(), await worker()];
    const log: string[] = [];
    const duty = (w: Worker, name: string) => ({ singleton: new Singleton(db, w, 'maintenance'), start: () => void log.push(`${name} start`), stop: () => void log.push(`${name} stop`) });
    const stopA = await runDuties([duty(a, 'A')], 100);
    const stopB = await runDuties([duty(b, 'B')], 100);
    stops.push(stopA, stopB);
    await sleep(300);
    expect(log).toEqual(['A start']); // one holder; B waits
    await stopA(); // SIGTERM on A: it stops the duty and releases it
    const released = performance.now();
    while (!log.includes('B start') && performance.now() - released < 2000) await sleep(20);
    expect(performance.now() - released).toBeLessThan(500); // no TTL to wait for
    expect(log).toEqual(['A start', 'A stop', 'B start']);
  });
});
