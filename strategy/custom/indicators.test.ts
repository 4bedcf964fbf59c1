import { BollingerBands, EMA, MACD, ROC, RSI, SMA } from 'trading-signals';
import { describe, expect, it } from 'vitest';
import { CustomFeed } from './feed.ts';
import { bollingerStream, changeStream, emaStream, macdStream, rsiStream, smaStream } from './indicators.ts';
import type { CustomParams } from './rules.ts';

/** A seeded walk of closes around 60,000 (deterministic: no clock, no randomness of the machine's). */
function closes(n: number, seed = 7): number[] {
  let x = seed;
  let price = 60_000;
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    x = (x * 1_103_515_245 + 12_345) % 2_147_483_648;
    price += (x / 2_147_483_648 - 0.5) * 200;
    out.push(Math.round(price * 100) / 100);
  }
  return out;
}

/**
 * The indicators are the trading-signals library's arithmetic, written with their memory as plain data:
 * every result equals the library's bit for bit (the library's own EMA seeded as the stream seeds it).
 */
describe('custom bot indicators: the library’s numbers exactly', () => {
  const series = closes(1500);
  const compare = (ours: { add: (c: number) => unknown }, theirs: (c: number) => unknown) => {
    for (const c of series) expect(ours.add(c)).toEqual(theirs(c));
  };

  it.each([1, 2, 14, 200])('SMA, RSI, ROC of period %i', (n) => {
    const sma = new SMA(n);
    compare(smaStream(n), (c) => sma.add(c));
    const rsi = new RSI(n);
    compare(rsiStream(n), (c) => rsi.add(c));
    const roc = new ROC(n);
    compare(changeStream(n), (c) => {
      const r = roc.add(c);
      return r === null ? null : r * 100;
    });
  });

  it.each([2, 20, 200])('EMA seeded with the SMA, Bollinger bands of period %i', (n) => {
    const seed = new SMA(n);
    const ema = new EMA(n);
    let started = false;
    compare(emaStream(n), (c) => {
      if (started) return ema.add(c);
      const mean = seed.add(c);
      if (mean === null) return null;
      started = true;
      return ema.add(mean);
    });
    const bb = new BollingerBands(n, 2.5);
    compare(bollingerStream(n, 2.5), (c) => bb.add(c));
  });

  it('MACD', () => {
    const macd = new MACD(new EMA(12), new EMA(26), new EMA(9));
    compare(macdStream(12, 26, 9), (c) => macd.add(c));
  });
});

/**
 * A feed's memory carried as plain data (structuredClone, as a worker thread's answer is): the feed that
 * loads it decides exactly as the feed that was fed, minute after minute.
 */
describe('a custom feed saved and loaded', () => {
  const rsi = { kind: 'rsi', period: 14, timeframe: '5m' } as const;
  const params = {
    entry: {
      join: 'and',
      conditions: [
        { left: rsi, op: '<', right: { kind: 'value', value: '45' } },
        { left: { kind: 'price' }, op: 'crossesAbove', right: { kind: 'bb', band: 'lower', period: 20, deviation: '2', timeframe: '1m' } },
      ],
    },
    exit: {
      join: 'or',
      conditions: [
        { left: { kind: 'macd', line: 'histogram', fast: 12, slow: 26, signal: 9, timeframe: '15m' }, op: 'crossesBelow', right: { kind: 'value', value: '0' } },
        { left: { kind: 'ema', period: 50, timeframe: '1h' }, op: '<', right: { kind: 'sma', period: 30, timeframe: '1m' } },
        { left: { kind: 'change', period: 3, timeframe: '5m' }, op: '>', right: { kind: 'value', value: '0.2' } },
      ],
    },
  } as Pick<CustomParams, 'entry' | 'exit'>;

  it('decides as the feed it was saved from, tick after tick', () => {
    const prices = closes(6000, 11);
    const start = Date.UTC(2026, 2, 1);
    const fed = new CustomFeed(params);
    // Half the prices, ticked 15 s apart (4 to a minute): its minutes, candles of each timeframe, indicators.
    for (let i = 0; i < 3000; i++) fed.tick(start + i * 15_000, prices[i]!);
    const loaded = new CustomFeed(params);
    loaded.load(structuredClone(fed.save()));
    let entries = 0;
    for (let i = 3000; i < prices.length; i++) {
      const t = start + i * 15_000;
      expect(loaded.tick(t, prices[i]!)).toBe(fed.tick(t, prices[i]!));
      expect([...loaded.values]).toEqual([...fed.values]);
      expect([loaded.entryHolds, loaded.exitHolds]).toEqual([fed.entryHolds, fed.exitHolds]);
      if (fed.entryHolds) entries++;
    }
    // The rules did act in that stretch (the comparison is not of two idle feeds).
    expect(entries).toBeGreaterThan(0);
  });

  it('refuses the memory of other rules', () => {
    const other = new CustomFeed({ entry: { join: 'and', conditions: [{ left: rsi, op: '>', right: { kind: 'value', value: '70' } }] } });
    expect(() => other.load(new CustomFeed(params).save())).toThrow(/other rules/);
  });
});
