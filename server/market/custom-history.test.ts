import { describe, expect, it } from 'vitest';
import type { CandleData } from '../../contract/market.ts';
import { customFieldText } from '../../contract/custom-fields.ts';
import { liveHistory, paperHistory } from './custom-history.ts';
import { SimulatedMarket } from './simulated.ts';

const HOUR = 3_600_000;

/** The history a custom bot's warm-up and backtest read. */
describe('custom bot candle history', () => {
  it('on Paper: the simulated market’s closed candles of any timeframe, the same as its own candles', async () => {
    const feed = new SimulatedMarket();
    const end = Date.UTC(2026, 2, 5, 10);
    const hours = await paperHistory(feed, 'ETH/USDT')('1h', end + 25 * 60_000, 5);
    // Closed by the hour holding `end` + 25 min: the 5 hours before 10:00.
    expect(hours.map((c) => c.time)).toEqual([5, 4, 3, 2, 1].map((k) => end - k * HOUR));
    const own = feed.candles('ETH/USDT', '1h', end - 1, 5);
    expect(hours.map((c) => [c.open, c.high, c.low, c.close])).toEqual(own.map((c) => [c.open, c.high, c.low, c.close].map(Number)));
    // A timeframe the market does not serve itself (2h) is made from its minutes, UTC-aligned.
    const two = await paperHistory(feed, 'ETH/USDT')('2h', end, 2);
    expect(two.map((c) => c.time)).toEqual([end - 4 * HOUR, end - 2 * HOUR]);
    expect(two[1]!.close).toBe(hours[4]!.close);
    expect(two[1]!.open).toBe(hours[3]!.open);
    expect(two[1]!.high).toBe(Math.max(hours[3]!.high, hours[4]!.high));
  });

  it('on a live exchange: one page of the nearest size it serves, closed candles only, whole buckets only', async () => {
    // Hourly candles from 00:00 to 13:00 (the 13:00 one still open at 13:20).
    const now = Date.UTC(2026, 2, 5, 13, 20);
    const rows: CandleData[] = Array.from({ length: 14 }, (_, h) => ({
      time: Date.UTC(2026, 2, 5, h),
      open: String(100 + h),
      high: String(110 + h),
      low: String(90 + h),
      close: String(101 + h),
      volume: '1',
    }));
    const asked: [string, number][] = [];
    const history = liveHistory(
      async (timeframe, limit) => {
        asked.push([timeframe, limit]);
        return rows.slice(-limit);
      },
      () => now,
    );
    // 6h is read in hours: 00:00-06:00 and 06:00-12:00 are whole and closed by 12:00; 12:00-18:00 is not.
    const six = await history('6h', now, 5);
    // Asked for the hours since 12:00 (2) and 6 more buckets of 6 hours.
    expect(asked[0]).toEqual(['1h', 2 + 36]);
    expect(six).toEqual([
      { time: Date.UTC(2026, 2, 5, 0), open: 100, high: 115, low: 90, close: 106 },
      { time: Date.UTC(2026, 2, 5, 6), open: 106, high: 121, low: 96, close: 112 },
    ]);
    // 1h as it is, closed by 13:00: without the open 13:00 candle.
    const hours = await history('1h', Date.UTC(2026, 2, 5, 13), 3);
    expect(hours.map((c) => new Date(c.time).getUTCHours())).toEqual([10, 11, 12]);
  });

  it('names a custom bot’s field in words, zh and en, never its path', () => {
    expect(customFieldText('entry.conditions.1.right.period', 'en')).toBe('buy rule, condition 2, right side, period');
    expect(customFieldText('entry.conditions.1.right.period', 'zh')).toBe('买入规则 第 2 个条件 右侧 周期数');
    expect(customFieldText('exit.conditions.0.left.fast', 'en')).toBe('sell rule, condition 1, left side, fast period');
    expect(customFieldText('size.kind', 'en')).toBe('position size');
    expect(customFieldText('size.percent', 'zh')).toBe('仓位 每次买入占投资比例');
    expect(customFieldText('stopLoss', 'zh')).toBe('止损');
    expect(customFieldText('', 'en')).toBe('parameters');
    expect(customFieldText('entry.conditions', 'en')).toBe('buy rule, conditions');
  });
});
