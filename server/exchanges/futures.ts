import type { FuturesRow } from '../../contract/market.ts';

/**
 * USDT-margined perpetuals of a live exchange, read only: price, 24 h change and funding
 * rate of the main pairs, through ccxt's public swap endpoints; answers are kept 30 s per exchange.
 */
export const FUTURES_PAIRS = ['BTC/USDT:USDT', 'ETH/USDT:USDT', 'BNB/USDT:USDT', 'SOL/USDT:USDT', 'XRP/USDT:USDT', 'DOGE/USDT:USDT', 'ADA/USDT:USDT', 'LINK/USDT:USDT'];
const TTL_MS = 30_000;

type SwapExchange = {
  markets: Record<string, unknown>;
  has: Record<string, unknown>;
  loadMarkets(): Promise<unknown>;
  fetchTickers(symbols: string[]): Promise<Record<string, { last?: number; percentage?: number }>>;
  fetchFundingRates(symbols: string[]): Promise<Record<string, { fundingRate?: number; nextFundingTimestamp?: number; fundingTimestamp?: number }>>;
  fetchFundingRate(symbol: string): Promise<{ fundingRate?: number; nextFundingTimestamp?: number; fundingTimestamp?: number }>;
};
export type SwapFactory = (exchange: string) => Promise<SwapExchange>;

async function ccxtSwap(exchange: string): Promise<SwapExchange> {
  const ccxt = (await import('ccxt')) as unknown as Record<string, new (options: object) => SwapExchange>;
  const Exchange = ccxt[exchange];
  if (!Exchange) throw new Error(`ccxt has no exchange "${exchange}"`);
  return new Exchange({ enableRateLimit: true, timeout: 10_000, options: { defaultType: 'swap' } });
}

const cache = new Map<string, { at: number; rows: Promise<FuturesRow[]> }>();

export function futuresMarkets(exchange: string, factory: SwapFactory = ccxtSwap, now = Date.now()): Promise<FuturesRow[]> {
  const hit = cache.get(exchange);
  if (hit && now - hit.at < TTL_MS) return hit.rows;
  const rows = (async () => {
    const ex = await factory(exchange);
    await ex.loadMarkets();
    const symbols = FUTURES_PAIRS.filter((s) => s in ex.markets);
    const [tickers, rates] = await Promise.all([
      ex.fetchTickers(symbols),
      ex.has.fetchFundingRates ? ex.fetchFundingRates(symbols) : Promise.all(symbols.map(async (s) => [s, await ex.fetchFundingRate(s)] as const)).then(Object.fromEntries),
    ]);
    return symbols.map((symbol) => {
      const r = (rates as Record<string, { fundingRate?: number; nextFundingTimestamp?: number; fundingTimestamp?: number }>)[symbol];
      const t = tickers[symbol];
      return {
        symbol: symbol.replace(/:USDT$/, ''),
        price: t?.last !== undefined ? String(t.last) : null,
        change24h: t?.percentage !== undefined ? t.percentage.toFixed(2) : null,
        fundingRate: r?.fundingRate !== undefined ? r.fundingRate.toString() : null,
        nextFundingTime: r?.nextFundingTimestamp ?? r?.fundingTimestamp ?? null,
      };
    });
  })();
  rows.catch(() => cache.delete(exchange));
  cache.set(exchange, { at: now, rows });
  return rows;
}
