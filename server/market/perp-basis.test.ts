import { describe, expect, it } from 'vitest';
import { money } from '../../strategy/money.ts';
import { averagePremium, fundingRate } from '../../strategy/perpetual/funding.ts';
import { PerpetualBasis } from './perp-basis.ts';
import { GENESIS_MS } from './simulated.ts';

const DAY = 86_400_000;

describe("the basis of Paper's perpetuals", () => {
  it('is the same for the same seed, symbol and minute, on any instance; another symbol has its own', () => {
    const t = GENESIS_MS + 40 * DAY + 123_456;
    expect(new PerpetualBasis(56).at('BTC/USDT', t)).toBe(new PerpetualBasis(56).at('BTC/USDT', t));
    expect(new PerpetualBasis(56).at('BTC/USDT', t)).toBe(new PerpetualBasis(56).at('BTC/USDT', t + 59_000 - (t % 60_000)));
    expect(new PerpetualBasis(56).at('ETH/USDT', t)).not.toBe(new PerpetualBasis(56).at('BTC/USDT', t));
    expect(new PerpetualBasis(56).lastAt('BTC/USDT', t, '60000.00')).toMatch(/^\d+\.\d{2}$/);
  });

  it('stays near the index (a few hundredths of a percent), mostly above it, and its funding changes sign from day to day', () => {
    const basis = new PerpetualBasis(56);
    const values: number[] = [];
    for (let m = 0; m < 30 * 1440; m += 7) values.push(basis.at('BTC/USDT', GENESIS_MS + 100 * DAY + m * 60_000));
    const mean = values.reduce((s, v) => s + v, 0) / values.length;
    const spread = Math.sqrt(values.reduce((s, v) => s + (v - mean) ** 2, 0) / values.length);
    expect(Math.abs(mean)).toBeLessThan(0.0004);
    expect(spread).toBeGreaterThan(0.0001);
    expect(spread).toBeLessThan(0.001);
    expect(Math.max(...values.map(Math.abs))).toBeLessThan(0.003);
    // Three 8 h intervals a day for 30 days: funding paid by longs on some, by shorts on others, within the cap.
    const cap = money('0.003');
    const rates = Array.from({ length: 90 }, (_, i) => basis.fundingAt('BTC/USDT', GENESIS_MS + 100 * DAY + (i + 1) * 8 * 3_600_000, 8, cap));
    expect(rates.some((r) => r.gt(0))).toBe(true);
    expect(rates.some((r) => r.lt(0))).toBe(true);
    expect(rates.every((r) => r.abs().lte(cap))).toBe(true);
    // A 4 h contract's rate: its own 240 minutes' premiums, time-weighted, through the 8 h formula, halved.
    const end = GENESIS_MS + 120 * DAY;
    const samples = Array.from({ length: 240 }, (_, k) => money(basis.at('BTC/USDT', end - (240 - k) * 60_000).toFixed(8)));
    expect(basis.fundingAt('BTC/USDT', end, 4, cap).toFixed()).toBe(fundingRate(averagePremium(samples), 4, cap).toFixed());
    expect(fundingRate(averagePremium(samples), 4, cap).toFixed()).toBe(fundingRate(averagePremium(samples), 8, cap).div(2).toFixed());
  });
});
