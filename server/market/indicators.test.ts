import { describe, expect, it } from 'vitest';
import { ema, rsi, sma } from './indicators.ts';

describe('chart indicators', () => {
  it('averages the last n closes, and waits for n of them', () => {
    expect(sma([1, 2, 3, 4, 5], 3)).toEqual([null, null, 2, 3, 4]);
  });
  it('starts the EMA at the first n closes’ average, then weighs 2 / (n + 1)', () => {
    // (1 + 3 + 4) / 3, then 8 x 0.5 + 2.6667 x 0.5
    expect(ema([1, 3, 4, 8], 3)).toEqual([null, null, 2.6666667, 5.3333333]);
    // (2 + 2) / 2, then 4 x 2/3 + 2 x 1/3, then 8 x 2/3 + 3.3333 x 1/3
    expect(ema([2, 2, 4, 8], 2)).toEqual([null, 2, 3.3333333, 6.4444444]);
  });
  it('gives Wilder’s RSI: 100 with no losses, and smooths gains and losses', () => {
    expect(rsi([1, 2, 3, 4], 3)).toEqual([null, null, null, 100]);
    // n = 2: gains/losses 0.5/0.5 -> 50; 0.75/0.25 -> 75; 0.375/0.625 -> 37.5
    expect(rsi([10, 11, 10, 11, 10], 2)).toEqual([null, null, 50, 75, 37.5]);
  });
});
