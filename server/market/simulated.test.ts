import { describe, expect, it } from 'vitest';
import { GENESIS_MS, SimulatedMarket } from './simulated.ts';

const DAY = 86_400_000;
const at = Date.UTC(2026, 5, 1, 12, 34, 56);

describe('the simulated market', () => {
  it('is a pure function of seed, symbol and time', () => {
    const a = new SimulatedMarket(7);
    const b = new SimulatedMarket(7);
    expect(a.candles('BTC/USDT', '1h', at, 48)).toEqual(b.candles('BTC/USDT', '1h', at, 48));
    expect(a.priceAt('ETH/USDT', at)).toBe(b.priceAt('ETH/USDT', at));
    expect(new SimulatedMarket(8).priceAt('ETH/USDT', at)).not.toBe(a.priceAt('ETH/USDT', at));
  });

  it('makes continuous, well-formed candles rounded to the tick', () => {
    const m = new SimulatedMarket();
    const candles = m.candles('SOL/USDT', '1m', at, 3000); // crosses two day boundaries
    expect(candles).toHaveLength(3000);
    for (let i = 0; i < candles.length; i++) {
      const c = candles[i]!;
      expect(Number(c.low)).toBeLessThanOrEqual(Math.min(Number(c.open), Number(c.close)));
      expect(Number(c.high)).toBeGreaterThanOrEqual(Math.max(Number(c.open), Number(c.close)));
      expect(c.close).toMatch(/^\d+\.\d{2}$/);
      if (i > 0) {
        expect(c.open).toBe(candles[i - 1]!.close);
        expect(c.time - candles[i - 1]!.time).toBe(60_000);
      }
    }
  });

  it('aggregates timeframes from the same minutes', () => {
    const m = new SimulatedMarket();
    const end = Date.UTC(2026, 5, 1, 12, 59, 59);
    const minutes = m.candles('BNB/USDT', '1m', end, 60);
    const [hour] = m.candles('BNB/USDT', '1h', end, 1);
    expect(hour!.open).toBe(minutes[0]!.open);
    expect(hour!.close).toBe(minutes[59]!.close);
    expect(Number(hour!.high)).toBe(Math.max(...minutes.map((c) => Number(c.high))));
    expect(Number(hour!.low)).toBe(Math.min(...minutes.map((c) => Number(c.low))));
  });

  it('ends the forming candle at the price of the moment, its range the seconds so far (candlesAt)', () => {
    const m = new SimulatedMarket();
    for (const timeframe of ['1m', '1h'] as const) {
      for (const second of [0, 7, 31, 58, 59]) {
        const now = Date.UTC(2026, 5, 1, 12, 34, second, 400);
        const whole = m.candles('BTC/USDT', timeframe, now, 30);
        const at = m.candlesAt('BTC/USDT', timeframe, now, 30);
        expect(at.slice(0, -1)).toEqual(whole.slice(0, -1));
        const last = at.at(-1)!;
        expect(last.time).toBe(whole.at(-1)!.time);
        expect(last.open).toBe(whole.at(-1)!.open);
        expect(last.close).toBe(m.priceAt('BTC/USDT', now));
        const seen = Array.from({ length: second + 1 }, (_, s) => Number(m.priceAt('BTC/USDT', now - (second - s) * 1000)));
        if (timeframe === '1m') {
          expect(Number(last.high)).toBe(Math.max(...seen));
          expect(Number(last.low)).toBe(Math.min(...seen));
        }
        expect(Number(last.high)).toBeLessThanOrEqual(Number(whole.at(-1)!.high));
        expect(Number(last.low)).toBeGreaterThanOrEqual(Number(whole.at(-1)!.low));
      }
    }
  });

  it('keeps every tick inside its minute candle', () => {
    const m = new SimulatedMarket();
    const [minute] = m.candles('DOGE/USDT', '1m', at, 1);
    for (let s = 0; s < 60; s++) {
      const p = Number(m.priceAt('DOGE/USDT', minute!.time + s * 1000));
      expect(p).toBeGreaterThanOrEqual(Number(minute!.low));
      expect(p).toBeLessThanOrEqual(Number(minute!.high));
    }
  });

  it('traces each minute candle with its seconds: the open at second 0, the low and the high reached, in the order its path gives', () => {
    // So a live bot reading the seconds sees the prices a backtest on the candles sees.
    const m = new SimulatedMarket();
    const from = Date.UTC(2026, 5, 1, 12);
    for (const symbol of ['BTC/USDT', 'SOL/USDT', 'DOGE/USDT']) {
      const cols = m.minuteColumns(symbol, from, from + 120 * 60_000);
      let lowFirst = 0;
      for (let i = 0; i < 120; i++) {
        const seconds = Array.from({ length: 60 }, (_, s) => Number(m.priceAt(symbol, from + i * 60_000 + s * 1000)));
        expect(seconds[0]).toBe(cols.open[i]);
        expect(Math.max(...seconds)).toBe(cols.high[i]);
        expect(Math.min(...seconds)).toBe(cols.low[i]);
        if (seconds.indexOf(cols.low[i]!) < seconds.indexOf(cols.high[i]!)) lowFirst++;
        // The candles' path says that order (the price goes from one extreme to the other, even when the
        // open rounds to one of them), and reads the same seconds (second 60: the next open).
        const [reachedFirst, reachedLast] = cols.path.lowFirst[i] === 1 ? [cols.low[i]!, cols.high[i]!] : [cols.high[i]!, cols.low[i]!];
        expect(seconds.indexOf(reachedFirst)).toBeLessThan(seconds.lastIndexOf(reachedLast));
        for (const s of [0, 17, 59]) expect(cols.path.second(i, s)).toBe(seconds[s]);
        expect(cols.path.second(i, 60)).toBe(i + 1 < 120 ? cols.open[i + 1] : cols.close[i]);
        // The last second is the close, where the next minute opens: a bot building its minutes from the
        // seconds (strategy/custom/feed.ts MinuteBuilder) closes each where the market's candle does.
        expect(seconds[59]).toBe(cols.close[i]);
      }
      // Which extreme comes first is the seed's choice, not the candle's colour.
      expect(lowFirst).toBeGreaterThan(35);
      expect(lowFirst).toBeLessThan(85);
    }
  });

  it('moves like a real market over years: realistic volatility, no runaway prices', () => {
    const m = new SimulatedMarket();
    const days = m.candles('BTC/USDT', '1d', GENESIS_MS + 3 * 365 * DAY, 3 * 365);
    const logs = days.map((c) => Math.log(Number(c.close)));
    const returns = logs.slice(1).map((l, i) => l - logs[i]!);
    const mean = returns.reduce((s, r) => s + r, 0) / returns.length;
    const vol = Math.sqrt(returns.reduce((s, r) => s + (r - mean) ** 2, 0) / returns.length) * Math.sqrt(365);
    expect(vol).toBeGreaterThan(0.35);
    expect(vol).toBeLessThan(0.8);
    for (const c of days) {
      expect(Number(c.close)).toBeGreaterThan(60000 / 8);
      expect(Number(c.close)).toBeLessThan(60000 * 8);
    }
  });

  it('computes a day of minute candles quickly', () => {
    const m = new SimulatedMarket(99);
    const t = performance.now();
    m.candles('ETH/USDT', '1m', at, 1440);
    expect(performance.now() - t).toBeLessThan(200);
  });
});
