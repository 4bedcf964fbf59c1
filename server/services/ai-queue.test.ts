import { describe, expect, it } from 'vitest';
import { Code } from '../../contract/codes.ts';
import { SearchQueue } from './ai-queue.ts';
import { AppError } from './errors.ts';

const codeOf = async (p: Promise<unknown>) =>
  p.then(
    () => 1,
    (e: unknown) => (e instanceof AppError ? Code[e.codeName] : -1),
  );

/** Issue 12 finding 8: the AI searches wait in a bounded line, one per trader, each knowing its place. */
describe('the AI search line', () => {
  it('keeps one search per trader, refuses past its length, and tells each trader their place', async () => {
    const line = new SearchQueue(2);
    const gates: (() => void)[] = [];
    const work = () => new Promise<string>((resolve) => gates.push(() => resolve('done')));
    const a = line.run('a', work);
    const b = line.run('b', work);
    expect(line.placeOf('a')).toEqual({ position: 0, length: 2, progress: null });
    expect(line.placeOf('b')).toEqual({ position: 1, length: 2, progress: null });
    expect(line.placeOf('c')).toEqual({ position: null, length: 2, progress: null });
    expect(await codeOf(line.run('a', work))).toBe(Code.AiSearchUserBusy);
    expect(await codeOf(line.run('c', work))).toBe(Code.AiSearchQueueFull);
    gates.shift()!();
    expect(await a).toBe('done');
    expect(line.placeOf('b')).toEqual({ position: 0, length: 1, progress: null });
    const c = line.run('c', work);
    expect(line.placeOf('c')).toEqual({ position: 1, length: 2, progress: null });
    gates.shift()!();
    gates.shift()!();
    await Promise.all([b, c]);
    expect(line.placeOf('b')).toEqual({ position: null, length: 0, progress: null });
  });

  it('tells the trader how far their running search is (issue 14 §2)', async () => {
    const line = new SearchQueue(2);
    let report: (done: number, total: number) => void = () => {};
    let finish = () => {};
    const a = line.run('a', (progress) => {
      report = progress;
      return new Promise<void>((resolve) => (finish = resolve));
    });
    expect(line.placeOf('a').progress).toBeNull();
    report(120, 629);
    expect(line.placeOf('a')).toEqual({ position: 0, length: 1, progress: { done: 120, total: 629 } });
    expect(line.placeOf('b').progress).toBeNull(); // only one's own
    finish();
    await a;
    expect(line.placeOf('a')).toEqual({ position: null, length: 0, progress: null });
  });

  it('frees the trader’s place when a search fails', async () => {
    const line = new SearchQueue(1);
    await expect(line.run('a', () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await line.run('a', async () => 'again')).toBe('again');
  });
});
