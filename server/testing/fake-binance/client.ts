import { binance } from 'ccxt';
import { pointApiAt } from '../../exchanges/live.ts';
import type { FakeBinance } from './server.ts';

/**
 * The real ccxt `binance` class pointed at a fake exchange: same signing, parsing and error mapping as
 * against Binance, no network. What it needs beyond the URLs (ccxt 4.5.x, binance.js):
 *
 * - `fetchCurrencies: false`: loadMarkets first calls fetchCurrencies, which for binance, whenever keys
 *   are set, asks the signed wallet endpoint sapi/v1/capital/config/getall. Off, the currencies are
 *   derived from the markets, which is all the engine reads.
 * - `fetchMarkets: { types: ['spot'] }`: by default markets load from spot (api/v3/exchangeInfo), USD-M
 *   (fapi/v1/exchangeInfo) and COIN-M (dapi/v1/exchangeInfo) alike.
 * - `fetchMargins: false`: with keys, loading spot markets also asks sapi/v1/margin/allPairs and
 *   sapi/v1/margin/isolated/allPairs, to mark which pairs trade on margin.
 * - `enableRateLimit: false` unless asked: ccxt's own throttle only spaces requests out (50 ms each),
 *   which the fake's limits do not need.
 *
 * Every api section's URL (sapi, fapi, papi... too) is rewritten to the fake's origin, keeping its path:
 * a call to an endpoint the fake does not serve is its 404 (ccxt: ExchangeNotAvailable), never a
 * request to Binance.
 */
export const FAKE_CLIENT_OPTIONS = {
  defaultType: 'spot',
  fetchCurrencies: false,
  fetchMarkets: { types: ['spot'] },
  fetchMargins: false,
};

export interface FakeClientOptions {
  apiKey?: string;
  secret?: string;
  /** ccxt's request timeout (ms); small in a test that times out on purpose. */
  timeout?: number;
  enableRateLimit?: boolean;
  /** More ccxt options, over FAKE_CLIENT_OPTIONS. */
  options?: Record<string, unknown>;
}

export function fakeBinanceClient(fake: Pick<FakeBinance, 'url' | 'apiKey' | 'secret'>, o: FakeClientOptions = {}): binance {
  const ex = new binance({
    apiKey: o.apiKey ?? fake.apiKey,
    secret: o.secret ?? fake.secret,
    timeout: o.timeout ?? 5000,
    enableRateLimit: o.enableRateLimit ?? false,
    options: { ...FAKE_CLIENT_OPTIONS, ...o.options },
  });
  pointAt(ex, fake.url);
  return ex;
}

/** Points every api section of `ex` at `baseUrl` ("http://127.0.0.1:PORT"), keeping each section's path (/api/v3, /sapi/v1...): the product's own EXCHANGE_URLS rewrite. */
export function pointAt(ex: binance, baseUrl: string): void {
  pointApiAt(ex, baseUrl);
}
