import { describe, expect, it } from 'vitest';
import { NetworkError } from 'ccxt';
import { toPlain } from '../../strategy/money.ts';
import { entry, fixture, replaying, type Replaying } from '../testing/ccxt-fixtures.ts';
import { LiveFeed, type PublicCcxt } from './live-feed.ts';

/** A feed whose exchanges answer from the recordings; `made` keeps each instance to count its requests. */
function feedOn(answers: Record<string, unknown[]>, options: { ttlMs?: number; now?: () => number } = {}) {
  const made = new Map<string, Replaying>();
  const feed = new LiveFeed(async (exchange) => {
    const r = replaying(exchange, answers[exchange] ?? [{}]);
    made.set(exchange, r);
    return r.ex as unknown as PublicCcxt;
  }, options);
  return { feed, made };
}
const ticker = (exchange: string, description = 'public spot ticker') => entry(fixture(exchange), 'fetchTicker', description);

describe('the live price feed (ccxt public endpoints, recorded answers)', () => {
  it('reads the last price of BTC/USDT on each exchange exactly', async () => {
    const names = ['binance', 'okx', 'gate', 'bitget', 'htx'];
    const { feed } = feedOn(Object.fromEntries(names.map((n) => [n, [ticker(n).httpResponse]])));
    for (const n of names) {
      expect(toPlain(await feed.price(n, 'BTC/USDT'))).toBe(String(ticker(n).parsedResponse.last));
    }
  });

  it('shares one request among callers asking at once, reuses it for the TTL, then asks again', async () => {
    let now = 1_000_000;
    const { feed, made } = feedOn({ binance: [ticker('binance').httpResponse] }, { ttlMs: 2000, now: () => now });
    const [a, b, c] = await Promise.all([feed.price('binance', 'BTC/USDT'), feed.price('binance', 'BTC/USDT'), feed.price('binance', 'BTC/USDT')]);
    expect([a, b, c].map(toPlain)).toEqual(['73369.84', '73369.84', '73369.84']);
    expect(made.get('binance')!.urls).toHaveLength(1);
    now += 1999;
    await feed.price('binance', 'BTC/USDT');
    expect(made.get('binance')!.urls).toHaveLength(1);
    now += 2;
    await feed.price('binance', 'BTC/USDT');
    expect(made.get('binance')!.urls).toHaveLength(2);
  });

  it('fails when the exchange is unreachable, and asks again next time', async () => {
    const { feed, made } = feedOn({ binance: [new NetworkError('down'), ticker('binance').httpResponse] });
    await expect(feed.price('binance', 'BTC/USDT')).rejects.toBeInstanceOf(NetworkError);
    expect(toPlain(await feed.price('binance', 'BTC/USDT'))).toBe('73369.84');
    expect(made.get('binance')!.urls).toHaveLength(2);
  });

  it('gives candles oldest first as exact strings (okx answers newest first)', async () => {
    const ohlcv = entry(fixture('okx'), 'fetchOHLCV', fixture('okx').methods.fetchOHLCV![0]!.description);
    const { feed } = feedOn({ okx: [ohlcv.httpResponse] });
    const candles = await feed.candles('okx', 'BTC/USDT', '1h', 3);
    expect(candles.map((c) => c.time)).toEqual((ohlcv.parsedResponse as unknown as number[][]).map((r) => r[0]));
    expect(candles[0]).toEqual({ time: 1706630400000, open: '43377.1', high: '43500', low: '43220.9', close: '43495.9', volume: '7137.30786672' });
  });
});
