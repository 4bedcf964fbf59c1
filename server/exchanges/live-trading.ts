import { createHash } from 'node:crypto';
import type { CandleData, SymbolInfo, Ticker } from '../../contract/market.ts';
import type { ExchangeBalance } from '../../contract/exchanges.ts';
import type { Db } from '../db/connect.ts';
import type { LiveFeed } from '../market/live-feed.ts';
import { ExchangeHealth, type HealthOptions } from '../market/exchange-health.ts';
import { announceExchangeState } from './exchange-status.ts';
import { simSymbols, type Timeframe } from '../market/symbols.ts';
import type { SecretBox } from '../security/secret-box.ts';
import { AppError, fail } from '../errors.ts';
import type { Exchange } from 'ccxt';
import type { LiveCredentials, LiveExchange } from './live.ts';
import type { MarketInfo } from './port.ts';

/** The pairs the app offers on a live exchange: the simulated market's main USDT pairs, where listed. */
const MAIN_PAIRS = simSymbols.map((s) => s.symbol);

/**
 * The live side of trading: bots' venues with the owner's keys, prices from one
 * shared feed per exchange and symbol, markets' rules from a keyless instance. ccxt (large) is
 * imported on the first live call only, so a server that never trades live never loads it.
 */
/** A trader's account on a live exchange: whose keys, and on which exchange (a bot's record carries them). */
export interface LiveAccount {
  userId: string;
  exchangeId: number;
  exchange: string;
}

export interface LiveTrading {
  venue(bot: LiveAccount): Promise<LiveExchange>;
  /** A bound account's balances on the exchange (ApiInvalidKey when the exchange refuses the key). */
  balances(account: LiveAccount): Promise<ExchangeBalance[]>;
  price(exchange: string, symbol: string): Promise<string>;
  /** The last price this process read of a pair, however old, and when (ms): undefined when none. */
  lastPrice(exchange: string, symbol: string): Promise<{ price: string; at: number } | undefined>;
  market(exchange: string, symbol: string): Promise<MarketInfo>;
  symbols(exchange: string, options: { symbol?: string | undefined; history?: { timeframe: Timeframe; limit: number } | undefined }): Promise<SymbolInfo[]>;
  tickers(exchange: string, symbols: string[]): Promise<Ticker[]>;
  /** Candles oldest first (one request: at most the exchange's page, ~1000). */
  candles(exchange: string, symbol: string, timeframe: Timeframe, limit: number): Promise<CandleData[]>;
}

type Modules = { live: typeof import('./live.ts'); feed: typeof import('../market/live-feed.ts') };

/** Whether a ccxt error means the exchange could not be reached (vs. it answered "no"). */
const unreachable = (error: unknown) => (error as { constructor?: { name?: string } })?.constructor?.name?.match(/Network|Timeout|NotAvailable|DDoS|RateLimit/) !== null;

export interface LiveTradingDeps {
  db: Db;
  box: SecretBox;
  /** The trader's keys for an exchange, opened from where the services keep them sealed (services/exchange-keys.ts readCredentials). */
  credentials(userId: string, exchangeId: number): Promise<LiveCredentials>;
  /** When an exchange counts as down (tests shorten it). */
  healthOptions?: Omit<HealthOptions, 'onChange'>;
  /** Makes a ccxt instance (with keys to trade, without for market data); tests replay recorded answers. */
  ccxt?: (exchange: string, credentials?: LiveCredentials) => Promise<Exchange>;
}

/**
 * The receive window a trader's orders are signed with, where the exchange checks one (Binance): 10 s,
 * ccxt's own default there. An order not found once it has passed never reached the exchange, and its bot
 * sends it again instead of pausing (server/engine/lost-orders.ts).
 */
const ORDER_WINDOW_MS = 10_000;

export function createLiveTrading(deps: LiveTradingDeps): LiveTrading {
  let modules: Promise<Modules> | null = null;
  const load = () =>
    (modules ??= Promise.all([import('./live.ts'), import('../market/live-feed.ts')])
      .then(([live, feed]) => ({ live, feed }))
      .catch((error: unknown) => {
        modules = null;
        throw error;
      }));
  const salt = deps.box.fingerprint('client-order-ids').slice(0, 6);
  const instance = (m: Modules, exchange: string, credentials?: LiveCredentials) => (deps.ccxt ?? m.live.ccxtInstance)(exchange, credentials);
  let feed: LiveFeed | null = null;
  // An exchange out of reach for 30 s is down for its traders (their open app, their alerts), up at its first answer.
  const health = new ExchangeHealth({
    ...(deps.healthOptions ?? {}),
    onChange: (exchange, state) => void announceExchangeState(deps.db, exchange, state).catch(() => undefined),
  });
  const feedHealth = { ok: (exchange: string) => health.ok(exchange), failed: (exchange: string, error: unknown) => health.failed(exchange, unreachable(error)) };
  const liveFeed = async () => {
    const m = await load();
    feed ??= new m.feed.LiveFeed((exchange) => instance(m, exchange), { health: feedHealth });
    return feed;
  };
  const publicVenues = new Map<string, Promise<LiveExchange>>();
  const publicVenue = (exchange: string) => {
    let found = publicVenues.get(exchange);
    if (!found) {
      found = load().then(async (m) => new m.live.LiveExchange(await instance(m, exchange), { salt }));
      found.catch(() => publicVenues.delete(exchange));
      publicVenues.set(exchange, found);
    }
    return found;
  };
  // One instance per user and key: bots of one account share its rate limit; new keys, new instance.
  const venues = new Map<string, Promise<LiveExchange>>();

  /** Market data errors as answers: an unknown pair, or the exchange out of reach. */
  async function guarded<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (error instanceof AppError) throw error; // already an answer
      if ((error as Error)?.constructor?.name === 'BadSymbol') throw fail('OrderInvalidPair');
      throw fail(unreachable(error) ? 'ServiceUnavailable' : 'ThirdPartyError');
    }
  }

  const tickerOf = async (exchange: string, symbol: string): Promise<Ticker> => {
    const t = await (await liveFeed()).ticker(exchange, symbol);
    return { symbol, price: t.price.toFixed(), change24h: t.change24h ? t.change24h.toDecimalPlaces(2).toFixed(2) : '0.00' };
  };

  return {
    async venue(bot) {
      const creds = await deps.credentials(bot.userId, bot.exchangeId);
      const key = `${bot.userId}:${bot.exchange}:${createHash('sha256')
        .update(`${creds.apiKey}\n${creds.secretKey}\n${creds.passphrase ?? ''}`)
        .digest('hex')}`;
      let found = venues.get(key);
      if (!found) {
        found = load().then(async (m) => new m.live.LiveExchange(await instance(m, bot.exchange, creds), { salt, orderWindowMs: ORDER_WINDOW_MS }));
        found.catch(() => venues.delete(key));
        venues.set(key, found);
      }
      return found;
    },
    async balances(account) {
      const venue = await this.venue(account);
      return guarded(async () => {
        try {
          return await venue.balances();
        } catch (error) {
          if (/Authentication|PermissionDenied|AccountSuspended/.test((error as Error)?.constructor?.name ?? '')) throw fail('ApiInvalidKey');
          throw error;
        }
      });
    },
    candles: (exchange, symbol, timeframe, limit) => guarded(async () => (await liveFeed()).candles(exchange, symbol, timeframe, limit)),
    price: (exchange, symbol) => guarded(async () => (await (await liveFeed()).price(exchange, symbol)).toFixed()),
    async lastPrice(exchange, symbol) {
      const last = feed?.lastKnown(exchange, symbol);
      return last ? { price: last.price.toFixed(), at: last.at } : undefined;
    },
    market: (exchange, symbol) => guarded(async () => (await publicVenue(exchange)).market(symbol)),
    tickers: (exchange, symbols) => guarded(() => Promise.all(symbols.map((s) => tickerOf(exchange, s)))),
    symbols: (exchange, options) =>
      guarded(async () => {
        const venue = await publicVenue(exchange);
        const wanted = options.symbol ? [options.symbol] : MAIN_PAIRS;
        const rows = await Promise.allSettled(
          wanted.map(async (symbol): Promise<SymbolInfo> => {
            const m = await venue.market(symbol);
            const info: SymbolInfo = {
              ...(await tickerOf(exchange, symbol)),
              exchange,
              tickSize: m.tickSize.toFixed(),
              stepSize: m.stepSize.toFixed(),
              minAmount: m.minAmount.toFixed(),
              minCost: m.minCost.toFixed(),
              feeRate: m.feeRate.toFixed(),
              ...(m.makerFeeRate ? { makerFeeRate: m.makerFeeRate.toFixed() } : {}),
            };
            if (options.history) info.history = await (await liveFeed()).candles(exchange, symbol, options.history.timeframe, options.history.limit);
            return info;
          }),
        );
        const listed = rows.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
        if (listed.length === 0) {
          const first = rows.find((r) => r.status === 'rejected');
          throw first ? first.reason : fail('OrderInvalidPair');
        }
        return listed;
      }),
  };
}
