import { BollingerBands, EMA, MACD, RSI, SMA } from 'trading-signals';
import { describe, expect, it } from 'vitest';
import type { CandleData } from '../../../contract/market.ts';
import { timeframeMs, timeframes, type Rule } from '../../../strategy/custom/rules.ts';
import { aggregate, plotOn, ruleIndicators, sourceTimeframe, timeframeSpan } from './indicator-plots.ts';

const MIN = 60_000;
const T0 = Date.UTC(2026, 10, 28, 9, 0);

/** n one-minute candles from T0 on a seeded walk (deterministic), closes at 2 decimals. */
function minutes(n: number, from = T0): CandleData[] {
  let x = 11;
  let price = 68_000;
  return Array.from({ length: n }, (_, i) => {
    x = (x * 1_103_515_245 + 12_345) % 2_147_483_648;
    const open = price;
    price = Math.round((price + (x / 2_147_483_648 - 0.5) * 80) * 100) / 100;
    return { time: from + i * MIN, open: open.toFixed(2), high: Math.max(open, price).toFixed(2), low: Math.min(open, price).toFixed(2), close: price.toFixed(2), volume: '1' };
  });
}

const rule = (conditions: Rule['conditions']): Rule => ({ join: 'and', conditions });

describe('a custom bot’s indicators under its chart', () => {
  it('draws RSI on the chart’s minutes as the library computes it, the forming minute with the last closed value, and its thresholds', () => {
    const chart = minutes(100);
    const [wanted, ...none] = ruleIndicators({
      entry: rule([{ left: { kind: 'rsi', period: 14, timeframe: '1m' }, op: '<', right: { kind: 'value', value: '30' } }]),
      exit: rule([{ left: { kind: 'value', value: '70' }, op: '<', right: { kind: 'rsi', period: 14, timeframe: '1m' } }]),
    });
    expect(none).toEqual([]);
    expect(wanted!.thresholds).toEqual([
      { value: 30, rule: 'entry', op: '<' },
      { value: 70, rule: 'exit', op: '<' },
    ]);
    const plot = plotOn(wanted!, chart, chart);
    expect(plot.pane).toBe(true);
    const rsi = new RSI(14);
    // The library fed the closed minutes (all but the forming last one).
    const expected = chart.slice(0, -1).map((c) => rsi.add(Number(c.close)));
    expect(plot.lines[0]!.values.slice(0, -1)).toEqual(expected);
    expect(plot.lines[0]!.values.at(-1)).toBe(expected.at(-1));
    expect(plot.lines[0]!.values.filter((v) => v === null)).toHaveLength(14);
    expect(plot.lines[0]!.part).toEqual({ indicator: 'rsi', period: 14, timeframe: '1m' });
  });

  it('places a longer timeframe’s values as steps: each minute reads the last candle closed by its close', () => {
    const chart = minutes(100, T0 + 40 * 60 * MIN); // 40 hours later: the 1h candles below cover them
    const hours = aggregate(minutes(60 * 45), 3_600_000);
    const [wanted] = ruleIndicators({ entry: rule([{ left: { kind: 'ema', period: 10, timeframe: '1h' }, op: 'crossesBelow', right: { kind: 'price' } }]) });
    const plot = plotOn(wanted!, chart, hours);
    expect(plot.pane).toBe(false);
    // The library's EMA seeded with the SMA of the first 10 hourly closes, as the bot's stream is.
    const seed = new SMA(10);
    const ema = new EMA(10);
    let started = false;
    const byEnd = new Map<number, number | null>();
    for (const h of hours) {
      if (h.time + 3_600_000 > chart.at(-1)!.time) break;
      let v: number | null;
      if (started) v = ema.add(Number(h.close));
      else {
        const mean = seed.add(Number(h.close));
        v = mean === null ? null : ema.add(mean);
        started = mean !== null;
      }
      byEnd.set(h.time + 3_600_000, v);
    }
    chart.forEach((m, i) => {
      const end = Math.floor((m.time + MIN) / 3_600_000) * 3_600_000;
      expect(plot.lines[0]!.values[i]).toBe(byEnd.get(end) ?? null);
    });
    // Within an hour it stays flat; at the hour it moves.
    expect(new Set(plot.lines[0]!.values.slice(0, 59)).size).toBeLessThanOrEqual(2);
  });

  it('builds 3-minute candles from minutes, UTC-aligned, and reads Bollinger bands and MACD lines of one stream each', () => {
    for (const tf of timeframes) expect(timeframeSpan(tf)).toBe(timeframeMs[tf]);
    expect(sourceTimeframe('3m')).toBe('1m');
    expect(sourceTimeframe('30m')).toBe('15m');
    expect(sourceTimeframe('2h')).toBe('1h');
    expect(sourceTimeframe('12h')).toBe('4h');
    const chart = minutes(300);
    const threes = aggregate(chart, 3 * MIN);
    expect(threes).toHaveLength(100);
    expect(threes[1]).toMatchObject({ time: T0 + 3 * MIN, open: chart[3]!.open, close: chart[5]!.close, high: String(Math.max(...chart.slice(3, 6).map((c) => Number(c.high))).toFixed(2)) });
    const wanted = ruleIndicators({
      entry: rule([
        { left: { kind: 'price' }, op: '<', right: { kind: 'bb', band: 'lower', period: 20, deviation: '2', timeframe: '3m' } },
        {
          left: { kind: 'macd', line: 'macd', fast: 12, slow: 26, signal: 9, timeframe: '3m' },
          op: 'crossesAbove',
          right: { kind: 'macd', line: 'signal', fast: 12, slow: 26, signal: 9, timeframe: '3m' },
        },
      ]),
      exit: rule([{ left: { kind: 'price' }, op: '>', right: { kind: 'bb', band: 'upper', period: 20, deviation: '2', timeframe: '3m' } }]),
    });
    expect(wanted.map((w) => [w.key, w.operands.length])).toEqual([
      ['bb:20:2:3m', 2],
      ['macd:12:26:9:3m', 2],
    ]);
    const [bb, macd] = wanted.map((w) => plotOn(w, chart, threes));
    const closed = threes.filter((c) => c.time + 3 * MIN <= chart.at(-1)!.time);
    const bands = new BollingerBands(20, 2);
    const lines = new MACD(new EMA(12), new EMA(26), new EMA(9));
    const libBands = closed.map((c) => bands.add(Number(c.close)));
    const libMacd = closed.map((c) => lines.add(Number(c.close)));
    // The minute that closes each 3-minute candle reads it.
    closed.forEach((c, j) => {
      const i = chart.findIndex((m) => m.time + MIN === c.time + 3 * MIN);
      expect(bb!.lines.map((l) => l.values[i])).toEqual([libBands[j]?.lower ?? null, libBands[j]?.upper ?? null]);
      expect(macd!.lines.map((l) => l.values[i])).toEqual([libMacd[j]?.macd ?? null, libMacd[j]?.signal ?? null]);
    });
    expect(bb!.pane).toBe(false);
    expect(macd!.pane).toBe(true);
    expect(macd!.needs).toBe(26);
    expect(macd!.had).toBe(closed.length);
  });
});
