import { describe, expect, it } from 'vitest';
import { BACKOFF_STEPS_MS, backoffDelay } from './backoff.ts';

describe('the reconnect back-off', () => {
  it('waits 1, 2, 5, 10, then 30 s at most, without jitter at the middle', () => {
    const middle = () => 0.5;
    expect([0, 1, 2, 3, 4, 5, 50].map((n) => backoffDelay(n, middle))).toEqual([1_000, 2_000, 5_000, 10_000, 30_000, 30_000, 30_000]);
  });

  it('moves each wait by at most a fifth either way', () => {
    for (const [attempt, base] of BACKOFF_STEPS_MS.entries()) {
      expect(backoffDelay(attempt, () => 0)).toBe(base * 0.8);
      expect(backoffDelay(attempt, () => 0.999999)).toBeCloseTo(base * 1.2, -1);
      for (let i = 0; i < 50; i++) {
        const wait = backoffDelay(attempt);
        expect(wait).toBeGreaterThanOrEqual(base * 0.8);
        expect(wait).toBeLessThanOrEqual(base * 1.2);
      }
    }
  });
});
