import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Code } from '../../contract/codes.ts';
import type { Db } from '../db/connect.ts';
import { bareUser, dbKinds, openTestDb } from '../test-support.ts';
import { SearchQueue } from './ai-queue.ts';
import { AppError } from './errors.ts';

const codeOf = async (p: Promise<unknown>) =>
  p.then(
    () => 1,
    (e: unknown) => (e instanceof AppError ? Code[e.codeName] : -1),
  );

/**
 * Issue 12 finding 8: the AI searches wait in a bounded line, one per trader, each knowing its place;
 * issue 15: the line is kept in the database, so with two processes (two queues on one database) a
 * trader still has one search in all, and either process tells the same place. On PGlite, one process.
 */
describe.each(dbKinds)('the AI search line on %s', (kind) => {
  let db: Db;
  let drop: () => Promise<void>;
  let users = 0;
  /** `n` new traders' ids. */
  const traders = async (n: number) => {
    const ids: string[] = [];
    for (let i = 0; i < n; i++) {
      users++;
      const row = await db
        .insertInto('users')
        .values(bareUser(String(60000000 + users), `line${users}`))
        .returning('id')
        .executeTakeFirstOrThrow();
      ids.push(String(row.id));
    }
    return ids;
  };
  /** Work held until the test lets it go. */
  const held = () => {
    const gates: (() => void)[] = [];
    const work = () => new Promise<string>((resolve) => gates.push(() => resolve('done')));
    return { gates, work };
  };

  beforeAll(async () => {
    ({ db, drop } = await openTestDb(kind));
  });
  afterAll(async () => {
    await drop();
  });

  it('keeps one search per trader, refuses past its length, and tells each trader their place', async () => {
    const [a, b, c] = await traders(3);
    const line = new SearchQueue(db, 2);
    const { gates, work } = held();
    const first = line.run(a!, work);
    await expect.poll(() => line.placeOf(a!)).toEqual({ position: 0, length: 1, progress: null });
    const second = line.run(b!, work);
    await expect.poll(() => line.placeOf(b!)).toEqual({ position: 1, length: 2, progress: null });
    expect(await line.placeOf(a!)).toEqual({ position: 0, length: 2, progress: null });
    expect(await line.placeOf(c!)).toEqual({ position: null, length: 2, progress: null });
    expect(await codeOf(line.run(a!, work))).toBe(Code.AiSearchUserBusy);
    expect(await codeOf(line.run(c!, work))).toBe(Code.AiSearchQueueFull);
    await expect.poll(() => gates.length).toBe(2);
    gates.shift()!();
    expect(await first).toBe('done');
    expect(await line.placeOf(b!)).toEqual({ position: 0, length: 1, progress: null });
    const third = line.run(c!, work);
    await expect.poll(() => line.placeOf(c!)).toEqual({ position: 1, length: 2, progress: null });
    await expect.poll(() => gates.length).toBe(2);
    gates.shift()!();
    gates.shift()!();
    await Promise.all([second, third]);
    expect(await line.placeOf(b!)).toEqual({ position: null, length: 0, progress: null });
  });

  it('tells the trader how far their running search is (issue 14 §2)', async () => {
    const [a, b] = await traders(2);
    const line = new SearchQueue(db, 2);
    let report: (done: number, total: number) => void = () => {};
    let finish = () => {};
    const running = line.run(a!, (progress) => {
      report = progress;
      return new Promise<void>((resolve) => (finish = resolve));
    });
    await expect.poll(() => line.placeOf(a!)).toEqual({ position: 0, length: 1, progress: null });
    report(120, 629);
    await expect.poll(() => line.placeOf(a!)).toEqual({ position: 0, length: 1, progress: { done: 120, total: 629 } });
    expect((await line.placeOf(b!)).progress).toBeNull(); // only one's own
    finish();
    await running;
    expect(await line.placeOf(a!)).toEqual({ position: null, length: 0, progress: null });
  });

  it('frees the trader’s place when a search fails', async () => {
    const [a] = await traders(1);
    const line = new SearchQueue(db, 1);
    await expect(line.run(a!, () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await line.run(a!, async () => 'again')).toBe('again');
  });

  it('holds across processes: one search per trader in all, the same place and progress from either, each process its own line', async () => {
    const [a, b, c] = await traders(3);
    const one = new SearchQueue(db, 2);
    const two = new SearchQueue(db, 2);
    const { gates, work } = held();
    let report: (done: number, total: number) => void = () => {};
    const first = one.run(a!, (progress) => {
      report = progress;
      return work();
    });
    await expect.poll(() => two.placeOf(a!)).toEqual({ position: 0, length: 1, progress: null });
    // The trader's second search, through the other process: refused, and nothing of it is left.
    expect(await codeOf(two.run(a!, work))).toBe(Code.AiSearchUserBusy);
    expect(await two.placeOf(c!)).toEqual({ position: null, length: 0, progress: null });
    // Another trader behind them on the first process: the same place through either.
    const second = one.run(b!, work);
    await expect.poll(() => two.placeOf(b!)).toEqual({ position: 1, length: 2, progress: null });
    expect(await one.placeOf(b!)).toEqual({ position: 1, length: 2, progress: null });
    report(7, 600);
    await expect.poll(() => two.placeOf(a!)).toEqual({ position: 0, length: 2, progress: { done: 7, total: 600 } });
    // A third trader on the second process runs at once there: its line is its own.
    const third = two.run(c!, work);
    await expect.poll(() => one.placeOf(c!)).toEqual({ position: 0, length: 1, progress: null });
    await expect.poll(() => gates.length).toBe(3);
    for (const gate of gates.splice(0)) gate();
    await Promise.all([first, second, third]);
    for (const q of [one, two]) for (const t of [a!, b!, c!]) expect(await q.placeOf(t)).toEqual({ position: null, length: 0, progress: null });
  });

  it('forgets a dead process’s searches once they go stale: their trader searches again', async () => {
    const [a] = await traders(1);
    // A process that died with the trader's search in its line (it no longer refreshes it).
    await sql`insert into ai_searches (user_id, line, seen_at) values (${a!}, 'a-dead-process', now() - interval '1 minute')`.execute(db);
    const line = new SearchQueue(db, 2, { staleMs: 5000 });
    expect(await line.placeOf(a!)).toEqual({ position: null, length: 0, progress: null });
    expect(await line.run(a!, async () => 'again')).toBe('again');
    // While it is fresh, it counts: refused.
    await sql`insert into ai_searches (user_id, line) values (${a!}, 'a-live-process')`.execute(db);
    expect(await codeOf(line.run(a!, async () => 'no'))).toBe(Code.AiSearchUserBusy);
    expect(await line.placeOf(a!)).toEqual({ position: 0, length: 1, progress: null });
    // A live process keeps its own searches fresh, however long they wait or run.
    const [b] = await traders(1);
    const quick = new SearchQueue(db, 2, { refreshMs: 50, staleMs: 400 });
    const { gates, work } = held();
    const long = quick.run(b!, work);
    await new Promise((r) => setTimeout(r, 1000));
    expect(await quick.placeOf(b!)).toEqual({ position: 0, length: 1, progress: null });
    await expect.poll(() => gates.length).toBe(1);
    gates[0]!();
    await long;
  });
});
