import { describe, expect, it } from 'vitest';
import { backtestMartin } from './backtest.ts';
import { backtestReport } from './backtest-report.ts';
import { martinKit } from './kit.ts';
import { money } from './money.ts';
import type { MartinView } from './martin/strategy.ts';

const view: MartinView = {
  params: { investment: '300', firstOrder: '100', multiplier: '2', maxPositions: 2, addTrigger: '2', takeProfit: '1', repeat: false },
  market: { tickSize: money('0.01'), stepSize: money('0.0001'), minAmount: money('0'), minCost: money('0'), feeRate: money('0.001') },
};
/** time, open, high, low, close: opens at 100, adds at 98, takes profit at 99.65 (not at the high, 100). */
const rows = [
  [0, 100, 100, 100, 100],
  [60_000, 100, 100, 98, 98],
  [120_000, 98, 100, 98, 100],
] as const;
const candles = {
  time: Float64Array.from(rows, (r) => r[0]),
  open: Float64Array.from(rows, (r) => r[1]),
  high: Float64Array.from(rows, (r) => r[2]),
  low: Float64Array.from(rows, (r) => r[3]),
  close: Float64Array.from(rows, (r) => r[4]),
};
const exact = { slippage: '0' };

describe('the backtest report', () => {
  it('works the worked example out: fills, fees, equity, drawdown, return, the engine’s exact profit', () => {
    const r = backtestReport(martinKit.backtest, view, candles, exact);
    // buy 1 at 100 (100 USDT), add 2.0408 at 98 (199.9984); average 299.9984 / 3.0408 = 98.6577..,
    // take profit ceil(x 1.01) = 99.65: sell floor((1 + 2.0408) x 0.999, 0.0001) = 3.0377 there.
    expect(r.fills).toBe(3);
    expect(r.cycles).toBe(1);
    expect(r.fill).toEqual({ price: 'trigger', slippage: '0', seconds: false, resting: false });
    expect(r.realized).toBe(backtestMartin(view, candles, exact).realized);
    expect(r.fees).toBeCloseTo((100 + 199.9984 + 3.0377 * 99.65) * 0.001, 4);
    // End: cash 300 - 299.9984 + 302.706805 x 0.999 = 302.405698, plus the 0.0000592 left in base x 100.
    expect(r.equity.at(-1)!.value).toBeCloseTo(302.41162, 4);
    expect(r.returnPct).toBe(0.8);
    // Lowest point after the add: cash 0.0016 + 3.0377592 x 98 = 297.70200 against the 300 start.
    expect(r.maxDrawdownPct).toBe(0.77);
    expect(r.priceChangePct).toBe(0);
    expect(r.open).toBeNull();
    expect(r.equity.map((e) => e.time)).toEqual([0, 60_000, 120_000]);
    // Proceeds 3.0377 x 99.65 x 0.999 = 302.404098195 less the 299.9984 spent (the books are in the quote).
    expect(r.realized).toBe('2.405698195');
    // With the default slippage (0.05 %): 100 x 1.0005; the add floor(100.05 x 0.98) = 98.04, x 1.0005; its take profit 99.73 x 0.9995.
    expect(backtestReport(martinKit.backtest, view, candles).fill.slippage).toBe('0.0005');
    expect(backtestMartin(view, candles).fills.map((f) => f.price)).toEqual(['100.05', '98.08902', '99.680135']);
  });

  it('samples a long run down to about 300 points, first and last included', () => {
    const n = 43_200;
    const wave = (i: number) => 100 + 5 * Math.sin(i / 500);
    const long = {
      time: Float64Array.from({ length: n }, (_, i) => i * 60_000),
      open: Float64Array.from({ length: n }, (_, i) => wave(i)),
      high: Float64Array.from({ length: n }, (_, i) => wave(i) + 0.1),
      low: Float64Array.from({ length: n }, (_, i) => wave(i) - 0.1),
      close: Float64Array.from({ length: n }, (_, i) => wave(i + 1)),
    };
    const r = backtestReport(martinKit.backtest, { ...view, params: { ...view.params, repeat: true } }, long);
    expect(r.equity.length).toBeGreaterThanOrEqual(290);
    expect(r.equity.length).toBeLessThanOrEqual(302);
    expect(r.equity[0]!.time).toBe(0);
    expect(r.equity.at(-1)!.time).toBe((n - 1) * 60_000);
    expect(r.cycles).toBeGreaterThan(10);
    expect(r.maxDrawdownPct).toBeGreaterThan(0);
  });

  it('marks to market exactly as a close-by-close count does, also where it passes over quiet candles', () => {
    // The reference: every fill applied at its candle, then the value at every close, the peak and the
    // largest fall from it, and the sampled points, as a plain loop over all candles.
    const reference = (fills: ReturnType<typeof backtestMartin>['fills'], c: typeof candles, points: number) => {
      const fee = 0.001;
      let cash = 300;
      let held = 0;
      let peak = 300;
      let worst = 0;
      let next = 0;
      const n = c.close.length;
      const every = Math.max(1, Math.ceil(n / points));
      const equity: { time: number; value: number }[] = [];
      for (let i = 0; i < n; i++) {
        for (; next < fills.length && fills[next]!.candle === i; next++) {
          const f = fills[next]!;
          const value = Number(f.price) * Number(f.amount);
          if (f.side === 'buy') {
            cash -= value;
            held += Number(f.amount) * (1 - fee);
          } else {
            cash += value * (1 - fee);
            held -= Number(f.amount);
          }
        }
        const value = cash + held * c.close[i]!;
        if (value > peak) peak = value;
        else worst = Math.max(worst, (peak - value) / peak);
        if (i % every === 0 || i === n - 1) equity.push({ time: c.time[i]!, value: Math.round(value * 1e4) / 1e4 });
      }
      return { maxDrawdownPct: Math.round(worst * 1e4) / 1e2, equity };
    };
    // Waves, then a steady fall over the last candles (a last block with no new peak); 6,400 candles at
    // 82 points samples every 79th, and 6,399 is a multiple of 79: the last point is a sampled one.
    for (const [n, points] of [
      [6400, 82],
      [5000, 300],
      [1000, 37],
    ] as const) {
      const price = (i: number) => (i < n - 300 ? 100 + 4 * Math.sin(i / 170) + 1.5 * Math.sin(i / 23) : 100 + 4 * Math.sin((n - 300) / 170) - (i - n + 300) / 40);
      const long = {
        time: Float64Array.from({ length: n }, (_, i) => i * 60_000),
        open: Float64Array.from({ length: n }, (_, i) => price(i)),
        high: Float64Array.from({ length: n }, (_, i) => Math.max(price(i), price(i + 1)) + 0.05),
        low: Float64Array.from({ length: n }, (_, i) => Math.min(price(i), price(i + 1)) - 0.05),
        close: Float64Array.from({ length: n }, (_, i) => price(i + 1)),
      };
      const bot = { ...view, params: { ...view.params, repeat: true } };
      const r = backtestReport(martinKit.backtest, bot, long, exact, points);
      const expected = reference(backtestMartin(bot, long, exact).fills, long, points);
      expect(r.fills).toBeGreaterThan(10);
      expect(r.maxDrawdownPct).toBe(expected.maxDrawdownPct);
      expect(r.equity).toEqual(expected.equity);
    }
  });
});
