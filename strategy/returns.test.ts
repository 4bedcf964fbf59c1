import { describe, expect, it } from 'vitest';
import { DAY_SECONDS, returnsOf, runtimeOf } from './returns.ts';

/** The worked numbers of docs/engine.md "Returns: ROI and APR". */
describe('ROI and APR on the investment', () => {
  it('adds realised and floating PnL and divides by the investment', () => {
    // 12.5 realised, 2.5 under water: 10 USDT on 1,000 = 1%; 10 days -> 1% x 365 / 10 = 36.5%.
    expect(returnsOf({ realized: '12.5', unrealized: '-2.5', investment: '1000', runtimeSeconds: 10 * DAY_SECONDS })).toEqual({ total: '10', roi: '1', apr: '36.5' });
  });

  it('annualises a day and a half exactly, rounded once to 4 decimals', () => {
    // 1% x 365 / 1.5 = 243.3333...%
    expect(returnsOf({ realized: '10', unrealized: '0', investment: '1000', runtimeSeconds: 1.5 * DAY_SECONDS }).apr).toBe('243.3333');
    // ROI 7 / 3000 = 0.2333...% -> 0.2333; APR from the exact ROI over 3 days: 28.3888...% -> 28.3889
    const r = returnsOf({ realized: '7', unrealized: '0', investment: '3000', runtimeSeconds: 3 * DAY_SECONDS });
    expect(r).toEqual({ total: '7', roi: '0.2333', apr: '28.3889' });
  });

  it('gives no APR under one day of runtime, and one from exactly a day', () => {
    expect(returnsOf({ realized: '5', unrealized: '0', investment: '1000', runtimeSeconds: DAY_SECONDS - 1 })).toEqual({ total: '5', roi: '0.5', apr: null });
    expect(returnsOf({ realized: '5', unrealized: '0', investment: '1000', runtimeSeconds: DAY_SECONDS }).apr).toBe('182.5');
  });

  it('shows a loss as a negative ROI and APR, and nothing without an investment', () => {
    expect(returnsOf({ realized: '0', unrealized: '-25.5', investment: '500', runtimeSeconds: 2 * DAY_SECONDS })).toEqual({ total: '-25.5', roi: '-5.1', apr: '-930.75' });
    expect(returnsOf({ realized: '1', unrealized: '0', investment: '0', runtimeSeconds: 2 * DAY_SECONDS })).toEqual({ total: '1', roi: null, apr: null });
  });

  it('is exact where floats are not', () => {
    // 0.1 + 0.2 is 0.3 here, not 0.30000000000000004.
    expect(returnsOf({ realized: '0.1', unrealized: '0.2', investment: '3', runtimeSeconds: 0 })).toEqual({ total: '0.3', roi: '10', apr: null });
  });
});

describe('runtime', () => {
  const t0 = Date.UTC(2026, 10, 1);
  it('runs from the first start to now, or to the last stop of a stopped bot', () => {
    expect(runtimeOf(null, null, false, t0)).toBe(0);
    expect(runtimeOf(t0, null, false, t0 + 90_500)).toBe(90);
    expect(runtimeOf(t0, t0 + 3_600_000, true, t0 + 86_400_000)).toBe(3600);
    // Started again after a stop: the clock runs to now.
    expect(runtimeOf(t0, t0 + 3_600_000, false, t0 + 7_200_000)).toBe(7200);
  });
});
