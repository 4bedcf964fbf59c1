import { describe, expect, it } from 'vitest';
import { futuresMarkets } from './futures.ts';

describe('futures markets (read only)', () => {
  it('answers the main USDT perpetuals the exchange lists, with price, change and funding', async () => {
    const asked: string[][] = [];
    const fake = async () => ({
      markets: { 'BTC/USDT:USDT': {}, 'ETH/USDT:USDT': {}, 'FOO/USDT:USDT': {} },
      has: { fetchFundingRates: true },
      loadMarkets: async () => undefined,
      fetchTickers: async (s: string[]) => {
        asked.push(s);
        return { 'BTC/USDT:USDT': { last: 64000.5, percentage: -1.234 }, 'ETH/USDT:USDT': { last: 2500 } };
      },
      fetchFundingRates: async () => ({ 'BTC/USDT:USDT': { fundingRate: 0.0001, nextFundingTimestamp: 1_800_000_000_000 } }),
      fetchFundingRate: async () => ({}),
    });
    const rows = await futuresMarkets('fakex', fake, 1);
    expect(asked).toEqual([['BTC/USDT:USDT', 'ETH/USDT:USDT']]);
    expect(rows).toEqual([
      { symbol: 'BTC/USDT', price: '64000.5', change24h: '-1.23', fundingRate: '0.0001', nextFundingTime: 1_800_000_000_000 },
      { symbol: 'ETH/USDT', price: '2500', change24h: null, fundingRate: null, nextFundingTime: null },
    ]);
    // Kept 30 s: the same answer without asking again.
    expect(await futuresMarkets('fakex', fake, 20_000)).toBe(rows);
    expect(asked).toHaveLength(1);
  });
});
