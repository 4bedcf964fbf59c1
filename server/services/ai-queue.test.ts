import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Code } from '../../contract/codes.ts';
import type { Db } from '../db/connect.ts';
import { bareUser, dbKinds, openTestDb } from '../testing/test-support.ts';
import { SearchQueue } from './ai-queue.ts';
import { AppError } from '../errors.ts';

const codeOf = async (p: Promise<unknown>) =>
  p.then(
    () => 1,
    (e: unknown) => (e instanceof AppError ? Code[e.codeName] : -1),
  );

/**
 * The AI searches wait in a bounded line, one per trader, each knowing its place;
 * The line is kept in the database, so with two processes (two queues on one database) a
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
    // One worker: b's search starts when a's ends.
    await expect.poll(() => gates.length).toBe(1);
    gates.shift()!();
    expect(await first).toBe('done');
    await expect.poll(() => line.placeOf(b!)).toEqual({ position: 0, length: 1, progress: null });
    const third = line.run(c!, work);
    await expect.poll(() => line.placeOf(c!)).toEqual({ position: 1, length: 2, progress: null });
    await expect.poll(() => gates.length).toBe(1);
    gates.shift()!();
    await expect.poll(() => gates.length).toBe(1);
    gates.shift()!();
    await Promise.all([second, third]);
    expect(await line.placeOf(b!)).toEqual({ position: null, length: 0, progress: null });
  });

  it('tells the trader how far their running search is', async () => {
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
    // a's and c's searches run, each on its process; b's waits for a's.
    await expect.poll(() => gates.length).toBe(2);
    for (const gate of gates.splice(0)) gate();
    await expect.poll(() => gates.length).toBe(1);
    gates.splice(0)[0]!();
    await Promise.all([first, second, third]);
    for (const q of [one, two]) for (const t of [a!, b!, c!]) expect(await q.placeOf(t)).toEqual({ position: null, length: 0, progress: null });
  });

  /** Searches that begin when the line hands them on and end when the test says; `started` in the order they began. */
  const turns = () => {
    const started: string[] = [];
    const ends = new Map<string, () => void>();
    const work = (who: string) => () =>
      new Promise<string>((resolve) => {
        started.push(who);
        ends.set(who, () => {
          ends.delete(who);
          resolve(who);
        });
      });
    return { started, ends, work };
  };
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

  it('gives every trader a turn: eight traders searching again and again cannot keep a ninth out', async () => {
    const eight = await traders(8);
    const [ninth] = await traders(1);
    const line = new SearchQueue(db, 8);
    const { started, ends, work } = turns();
    const tries = new Map<string, number>();
    let stop = false;
    // Each of the eight searches again the moment their search ends (and again a moment after a refusal).
    const loops = eight.map(async (t) => {
      while (!stop) {
        tries.set(t!, (tries.get(t!) ?? 0) + 1);
        const code = await codeOf(line.run(t!, work(t!)));
        if (code !== 1 && code !== Code.AiSearchQueueFull) throw new Error(`code ${code}`);
        if (code !== 1) await sleep(5);
      }
    });
    // All eight in line (whichever of them asked first runs first).
    await expect.poll(async () => (await line.placeOf(eight[0]!)).length).toBe(8);
    let outcome: 'waiting' | 'in' | number = 'waiting';
    let turn = 0;
    let entered = -1;
    while (!started.includes(ninth!) && turn < 40) {
      // The running search ends; its trader is back before anyone else can ask.
      await expect.poll(() => ends.size).toBe(1);
      const running = started[started.length - 1]!;
      const before = tries.get(running) ?? 0;
      ends.get(running)!();
      turn++;
      await expect.poll(() => tries.get(running)! > before && ends.size === 1).toBe(true);
      if (outcome === 'waiting' || typeof outcome === 'number') {
        // The ninth asks once a turn until the line takes them.
        outcome = 'waiting';
        const attempt = line.run(ninth!, work(ninth!));
        attempt.then(
          () => undefined,
          (e: unknown) => {
            outcome = e instanceof AppError ? Code[e.codeName] : -1;
          },
        );
        await expect.poll(async () => outcome !== 'waiting' || (await line.placeOf(ninth!)).position !== null).toBe(true);
        if (outcome === 'waiting') {
          outcome = 'in';
          entered = turn;
          // Behind the running search and the six who waited since before the ninth asked, never behind the one who just had a turn.
          expect((await line.placeOf(ninth!)).position).toBe(7);
        } else expect(outcome).toBe(Code.AiSearchQueueFull);
      }
    }
    expect(entered).toBe(1);
    expect(started).toContain(ninth!);
    // The ninth's search ran within one round of the eight: asked after the 1st turn, ran at the 8th.
    expect(turn).toBeLessThanOrEqual(8);
    stop = true;
    let done = false;
    void Promise.all(loops).then(() => (done = true));
    while (!done) {
      for (const end of [...ends.values()]) end();
      await sleep(10);
    }
  });

  it('hands as many searches on at once as it has workers, in the order of the line', async () => {
    const [a, b, c, d] = await traders(4);
    const line = new SearchQueue(db, 4, { slots: 2 });
    const { started, ends, work } = turns();
    const runs: Promise<unknown>[] = [];
    for (const t of [a!, b!, c!, d!]) {
      runs.push(line.run(t, work(t)));
      await expect.poll(async () => (await line.placeOf(t)).position).not.toBeNull();
    }
    await expect.poll(() => started).toEqual([a, b]);
    expect(await Promise.all([a!, b!, c!, d!].map((t) => line.placeOf(t).then((p) => p.position)))).toEqual([0, 0, 2, 3]);
    ends.get(a!)!();
    await expect.poll(() => started).toEqual([a, b, c]);
    await expect.poll(() => line.placeOf(d!)).toEqual({ position: 2, length: 3, progress: null });
    ends.get(c!)!();
    await expect.poll(() => started).toEqual([a, b, c, d]);
    ends.get(b!)!();
    ends.get(d!)!();
    await Promise.all(runs);
  });

  it('two processes agree on the order, and a trader who just had a search on one yields a full line’s place on the other', async () => {
    const [a, b, c, d, e, f] = await traders(6);
    const one = new SearchQueue(db, 3);
    const two = new SearchQueue(db, 4);
    const { started, ends, work } = turns();
    const runs = new Map<string, Promise<number>>();
    const join = async (q: SearchQueue, t: string) => {
      runs.set(t, codeOf(q.run(t, work(t))));
      await expect.poll(async () => (await one.placeOf(t)).position).not.toBeNull();
    };
    const positions = (q: SearchQueue, ts: string[]) => Promise.all(ts.map((t) => q.placeOf(t).then((p) => [p.position, p.length])));
    await join(one, a!);
    await join(one, b!);
    await join(two, d!);
    await join(two, e!);
    const first = [a!, b!, d!, e!, f!];
    await expect
      .poll(() => positions(one, first))
      .toEqual([
        [0, 2],
        [1, 2],
        [0, 2],
        [1, 2],
        [null, 2],
      ]);
    expect(await positions(two, first)).toEqual(await positions(one, first));
    await expect.poll(() => started).toEqual([a, d]);
    // a's search ends while e waits on the other process; a asks again there, then c, and that line is full.
    ends.get(a!)!();
    expect(await runs.get(a!)).toBe(1);
    await expect.poll(() => started).toEqual([a, d, b]);
    await join(two, a!);
    await join(two, c!);
    const second = [d!, e!, a!, c!, f!];
    expect(await positions(one, second)).toEqual([
      [0, 4],
      [1, 4],
      [2, 4],
      [3, 4],
      [null, 1],
    ]);
    expect(await positions(two, second)).toEqual([
      [0, 4],
      [1, 4],
      [2, 4],
      [3, 4],
      [null, 4],
    ]);
    // f, who has not searched, takes the place of a (whose search ended a moment ago), not of c, who has
    // not searched either; a is told the line is full.
    runs.set(f!, codeOf(two.run(f!, work(f!))));
    expect(await runs.get(a!)).toBe(Code.AiSearchQueueFull);
    const third = [d!, e!, c!, f!, a!];
    const after = [
      [0, 4],
      [1, 4],
      [2, 4],
      [3, 4],
      [null, 1],
    ];
    await expect.poll(() => positions(one, third)).toEqual(after);
    expect(await positions(two, third)).toEqual([...after.slice(0, 4), [null, 4]]);
    // Each runs in that order.
    for (const [running, next] of [
      [d!, e!],
      [e!, c!],
      [c!, f!],
    ] as const) {
      ends.get(running)!();
      await expect.poll(() => started[started.length - 1]).toBe(next);
    }
    for (const end of [...ends.values()]) end();
    await Promise.all(runs.values());
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
    // Stale after 1.5 s, refreshed every 0.1 s, and asked after 2.5 s: on a loaded 2-core machine a timer
    // may fire late by a few hundred ms (staleMs 400 with refreshes every 50 ms failed once under the suite).
    const quick = new SearchQueue(db, 2, { refreshMs: 100, staleMs: 1500 });
    const { gates, work } = held();
    const long = quick.run(b!, work);
    await new Promise((r) => setTimeout(r, 2500));
    expect(await quick.placeOf(b!)).toEqual({ position: 0, length: 1, progress: null });
    await expect.poll(() => gates.length).toBe(1);
    gates[0]!();
    await long;
  });
});
