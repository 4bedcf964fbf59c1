import { describe, expect, it } from 'vitest';
import { SimulatedMarket } from './simulated.ts';
import { symbolList } from './tickers.ts';

describe('a pair with its chart', () => {
  it('shows the price its chart ends at: the last candle closes at the ticker price, at any second', () => {
    const feed = new SimulatedMarket();
    for (let second = 0; second < 60; second += 13) {
      const now = Date.UTC(2026, 10, 28, 9, 41, second, 250);
      for (const timeframe of ['1m', '15m', '1h', '1d'] as const) {
        const [btc] = symbolList(feed, now, { timeframe, limit: 100 }, 'BTC/USDT');
        const last = btc!.history!.at(-1)!;
        expect(last.close).toBe(btc!.price);
        expect(Number(last.high)).toBeGreaterThanOrEqual(Number(btc!.price));
        expect(Number(last.low)).toBeLessThanOrEqual(Number(btc!.price));
      }
    }
  });
});
