import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ccxt from 'ccxt';
import type { CcxtExchange } from '../exchanges/live.ts';

/**
 * Offline ccxt instances that answer from the real exchange recordings in server/exchanges/fixtures/ccxt
 * (their README says how): real ccxt parsing and endpoint choice, no network. Tests only.
 */
export interface FixtureEntry {
  description: string;
  method: string;
  input: unknown[];
  httpResponse: unknown;
  parsedResponse: Record<string, unknown>;
}
export interface FixtureFile {
  exchange: string;
  options: Record<string, unknown>;
  methods: Record<string, FixtureEntry[]>;
}

const root = fileURLToPath(new URL('../exchanges/fixtures/ccxt/', import.meta.url));

export function fixture(exchange: string): FixtureFile {
  return JSON.parse(readFileSync(`${root}${exchange}.json`, 'utf8')) as FixtureFile;
}

export function entry(file: FixtureFile, method: string, description: string): FixtureEntry {
  const found = file.methods[method]?.find((e) => e.description === description);
  if (!found) throw new Error(`${file.exchange} has no ${method} "${description}"`);
  return found;
}

/** Market ids per exchange (fixtures README). */
const ids: Record<string, (base: string, quote: string) => string> = {
  binance: (b, q) => `${b}${q}`,
  bybit: (b, q) => `${b}${q}`,
  bitget: (b, q) => `${b}${q}`,
  okx: (b, q) => `${b}-${q}`,
  gate: (b, q) => `${b}_${q}`,
  htx: (b, q) => `${b}${q}`.toLowerCase(),
};

/** The spot markets the recordings use, with realistic precision (tick size mode) and limits. */
const markets: [string, string, number, number, number][] = [
  ['BTC', 'USDT', 0.01, 0.000001, 5],
  ['LTC', 'USDT', 0.01, 0.001, 5],
  ['ETH', 'USDT', 0.01, 0.0001, 5],
  ['SOL', 'USDT', 0.01, 0.001, 5],
  ['XRP', 'USDT', 0.0001, 0.01, 5],
];

export interface Replaying {
  ex: CcxtExchange;
  /** The answers still to give, in order; each call takes the next (the last repeats). */
  answers: unknown[];
  /** What ccxt asked for: "METHOD url body". */
  urls: string[];
}

/**
 * A ccxt instance of `exchange` whose HTTP answers are `answers`, one per request in order. A thrown
 * Error in the list is thrown by that request instead (a network failure, say).
 */
export function replaying(exchange: string, answers: unknown[]): Replaying {
  const file = fixture(exchange);
  const Exchange = (
    ccxt as unknown as Record<
      string,
      new (
        o: object,
      ) => CcxtExchange & { options: Record<string, unknown>; deepExtend: (...o: object[]) => Record<string, unknown>; setMarkets: (m: object[]) => void; fetch: unknown }
    >
  )[exchange]!;
  const ex = new Exchange({ apiKey: 'key', secret: 'secret', password: 'pass', enableRateLimit: false });
  ex.options = ex.deepExtend(ex.options, file.options, exchange === 'bybit' ? { enableUnifiedAccount: true, enableUnifiedMargin: false } : {});
  ex.setMarkets(
    markets.map(([base, quote, tick, step, minCost]) => ({
      id: ids[exchange]!(base, quote),
      symbol: `${base}/${quote}`,
      base,
      quote,
      baseId: base,
      quoteId: quote,
      type: 'spot',
      spot: true,
      swap: false,
      future: false,
      option: false,
      contract: false,
      active: true,
      taker: 0.001,
      maker: 0.001,
      precision: { amount: step, price: tick },
      limits: { amount: { min: step }, price: {}, cost: { min: minCost } },
      info: { orderTypes: ['LIMIT', 'MARKET'] },
    })),
  );
  const state: Replaying = { ex, answers: [...answers], urls: [] };
  ex.fetch = async (url: string, method = 'GET', _headers?: unknown, body?: string) => {
    state.urls.push(`${method} ${url} ${body ?? ''}`);
    const next = state.answers.length > 1 ? state.answers.shift() : state.answers[0];
    if (next instanceof Error) throw next;
    return structuredClone(next);
  };
  return state;
}
