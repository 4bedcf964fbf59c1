import type { Db } from './db/connect.ts';
import type { Worker } from './cluster/workers.ts';
import type { Metrics } from './metrics.ts';
import { Engine, type BotRecord, type PriceSource } from './engine/runner.ts';
import { exchangeByCode } from './exchanges/catalog.ts';
import { paperMarket } from './exchanges/paper-fill.ts';
import { matchRestingOrders, PaperVenue, simulatedSource, type PaperAudit, type PaperSource } from './exchanges/paper-venue.ts';
import { money } from '../strategy/money.ts';
import type { ExchangePort, MarketInfo } from './exchanges/port.ts';
import { isPlainSimulation, SimulatedMarket } from './market/simulated.ts';
import type { Timeframe } from './market/symbols.ts';
import { symbolList, ticker } from './market/tickers.ts';
import type { CandleData, SymbolInfo, Ticker } from '../contract/market.ts';
import type { ExchangeBalance } from '../contract/exchanges.ts';
import { BotListCache } from './services/bot-list-cache.ts';
import { catchUp, liveHistory, paperHistory, warmUpHistory, type ClosedCandles } from './market/custom-history.ts';
import { heavyPool } from './workers/heavy-pool.ts';
import type { CustomFeed, FeedMemory } from '../strategy/custom/feed.ts';
import { kitOf, type IndicatorRules } from '../strategy/kit.ts';
import { fail } from './errors.ts';

/** The trading side of the server: the engine, the prices it reads and the venues it trades on. */
/**
 * The market data every part reads: prices now, trading rules, candles and history, pairs and tickers,
 * and the simulated market with its clock. Nothing here trades.
 */
export interface MarketData {
  prices: PriceSource;
  /**
   * The last price this process read of a live pair, however old, and when (ms); undefined when none was
   * read (and on Paper, whose price never fails). Never for a decision (the engine trades on fresh prices
   * only): for a screen while the exchange does not answer.
   */
  lastPrice(exchange: string, symbol: string): Promise<{ price: string; at: number } | undefined>;
  feed: SimulatedMarket;
  /** The market's clock: the wall clock, or a faster one for tests of long price paths. */
  now: () => number;
  /** A symbol's trading rules on an exchange; refused (OrderInvalidPair) when it has no such market. */
  market(exchange: string, symbol: string): Promise<MarketInfo>;
  /** An exchange's pairs with prices and trading rules (and candles when asked). */
  symbols(exchange: string, options: { symbol?: string | undefined; history?: { timeframe: Timeframe; limit: number } | undefined }): Promise<SymbolInfo[]>;
  /** Candles oldest first: Paper's simulated market, or one page from a live exchange. */
  candles(exchange: string, symbol: string, timeframe: Timeframe, limit: number): Promise<CandleData[]>;
  /** Closed candles of any custom bot timeframe (1m to 1d) before a time: a custom bot's warm-up and backtest. */
  history(exchange: string, symbol: string): ClosedCandles;
  /** Prices now and 24 h changes. */
  tickers(exchange: string, symbols: string[]): Promise<Ticker[]>;
  /** The bot types whose orders rest on the book as limit orders (RESTING_ORDERS): backtests fill them so. */
  restingTypes: readonly string[];
}

/** The traders' accounts: Paper venues, simulated accounts' sources, and balances on bound exchanges. */
export interface Venues {
  /** A user's Paper account. */
  paper(userId: string): PaperVenue;
  /** Where a simulated account (Paper, or one on a live exchange's prices: `code`) reads its prices and rules. */
  simulatedSource(code: string): PaperSource;
  /** A user's balances on a bound exchange (GET /api/user/asset). */
  assets(userId: string, exchange: string): Promise<{ exchange: string; balances: ExchangeBalance[] }>;
}

/** The engine that runs the bots, and the bot lists' cache it drops when a user's bots change. */
export interface EngineSide {
  engine: Engine;
  /** The bot list answers, dropped whenever a user's bots change (engine or trader). */
  listCache: BotListCache;
}

/** Everything of the trading side, as the app is built with it; a service takes the parts it uses (MarketData, Venues, EngineSide). */
export interface Trading extends MarketData, Venues, EngineSide {}

export interface LiveSide {
  venue(bot: BotRecord): Promise<ExchangePort>;
  balances(account: Pick<BotRecord, 'userId' | 'exchangeId' | 'exchange'>): Promise<ExchangeBalance[]>;
  price(exchange: string, symbol: string): Promise<string>;
  /** The last price read of a pair, however old, and when (ms): what a screen shows while the exchange does not answer. */
  lastPrice?(exchange: string, symbol: string): Promise<{ price: string; at: number } | undefined>;
  market(exchange: string, symbol: string): Promise<MarketInfo>;
  symbols(exchange: string, options: { symbol?: string | undefined; history?: { timeframe: Timeframe; limit: number } | undefined }): Promise<SymbolInfo[]>;
  tickers(exchange: string, symbols: string[]): Promise<Ticker[]>;
  candles(exchange: string, symbol: string, timeframe: Timeframe, limit: number): Promise<CandleData[]>;
}

export interface TradingOptions {
  db: Db;
  /** The chaos test's record of every Paper order (server/testing/venue-audit.ts; TEST_VENUE_AUDIT=1): absent in the product. */
  paperAudit?: PaperAudit | undefined;
  feed?: SimulatedMarket;
  now?: () => number;
  tickMs?: number;
  /** How long a pair may go without a fresh price before its bots open nothing (config STALE_PRICE_MS; default 30 s). */
  stalePriceMs?: number;
  /** Time between two reconciliation rounds of the accounts (config RECONCILE_EVERY_MS; default 30 s). */
  reconcileEveryMs?: number;
  /** The bot types whose orders rest as limit orders (config RESTING_ORDERS; default none). */
  restingTypes?: readonly string[];
  log?: { error(obj: unknown, msg: string): void };
  /** Share of a profitable cycle's profit paid in fuel (config FUEL_FEE_RATE; default 0.2). */
  fuelFeeRate?: string;
  /** Shares of a fee earned per referral level (config REFERRAL_RATES; default 0.1, 0.05). */
  referralRates?: readonly string[];
  /** The live exchanges' venues, prices and markets (ccxt, exchanges/live-trading.ts); absent, Paper only. */
  live?: LiveSide;
  /** This process as a worker of the cluster: the engine trades the bots it holds a lease on. */
  cluster?: Worker;
  /** Counts the orders handed to venues (GET /metrics). */
  metrics?: Metrics;
}

/** A market clock that runs `speed` times faster than the wall clock from `origin` (default now) on (tests, demos). */
export function fastClock(speed: number, wall: () => number = Date.now, origin = wall()): () => number {
  return () => origin + (wall() - origin) * speed;
}

export function createTrading(options: TradingOptions): Trading {
  const feed = options.feed ?? new SimulatedMarket();
  const now = options.now ?? Date.now;
  const { db, live } = options;
  const paper = (userId: string) => new PaperVenue(db, userId, simulatedSource(feed, now), 1, options.paperAudit);
  const known = (symbol: string) => feed.symbols().some((s) => s.symbol === symbol);
  /** The live exchange behind a code: itself, or the one a simulated account trades on the prices of. */
  const liveOf = (code: string): { live: LiveSide; code: string } => {
    if (!live) throw fail('ApiExchangeUnsupported');
    return { live, code: exchangeByCode(code)?.simulatedOf ?? code };
  };
  /** A user's simulated account on a live exchange's prices: filled at its price, with its rules and fee. */
  const sourceOf = (code: string): PaperSource => {
    if (code === 'paper') return simulatedSource(feed, now);
    const l = liveOf(code);
    return { market: (symbol) => l.live.market(l.code, symbol), price: async (symbol) => money(await l.live.price(l.code, symbol)) };
  };
  const simulated = (userId: string, code: string) => new PaperVenue(db, userId, sourceOf(code), exchangeByCode(code)!.id, options.paperAudit);
  const prices: PriceSource = {
    async price(exchange, symbol) {
      if (exchange === 'paper') {
        if (!known(symbol)) throw fail('OrderInvalidPair');
        return feed.priceAt(symbol, now());
      }
      const l = liveOf(exchange);
      return l.live.price(l.code, symbol);
    },
  };
  const candles = async (exchange: string, symbol: string, timeframe: Timeframe, limit: number) => {
    if (!exchangeByCode(exchange)) throw fail('ApiExchangeUnsupported');
    if (exchange === 'paper') {
      if (!known(symbol)) throw fail('OrderInvalidPair');
      return feed.candles(symbol, timeframe, now(), limit);
    }
    const l = liveOf(exchange);
    return l.live.candles(l.code, symbol, timeframe, limit);
  };
  const history = (exchange: string, symbol: string): ClosedCandles =>
    exchange === 'paper' ? paperHistory(feed, symbol) : liveHistory((timeframe, limit) => candles(exchange, symbol, timeframe, limit), now);
  /**
   * A custom bot's (a DCA indicator start's) warm-up, off the event loop: its feed is built and fed in the
   * heavy-work pool in the bot owner's turn (on Paper its history is made there too; a live exchange's is
   * read here first), and the engine's feed loads its memory, then the minutes closed meanwhile.
   */
  const warmUp = async (bot: BotRecord, target: CustomFeed, rules: IndicatorRules) => {
    const source = history(bot.exchange, bot.symbol);
    const then = now();
    const from = bot.exchange === 'paper' && isPlainSimulation(feed) ? { simulated: { seed: feed.seed, symbol: bot.symbol } } : { read: await warmUpHistory(rules, source, then) };
    target.load(await heavyPool().run<FeedMemory>(bot.userId, { kind: 'warmUp', rules: { entry: rules.entry, exit: rules.exit }, now: then, from }));
    await catchUp(target, source, then, now());
  };
  const listCache = new BotListCache();
  /**
   * The prices as the engine's rounds read them: a simulated account's venue matches its resting orders at
   * each one (Paper's book is matched as the market moves, as a venue's is while the price trades through
   * its orders; matched only when asked, a price past a level and back between two asks would fill nothing).
   */
  const roundPrices: PriceSource = {
    async price(exchange, symbol, round) {
      const price = await prices.price(exchange, symbol);
      // Only on a pair where the engine keeps resting orders: a query per pair and round spared on the others.
      const simulatedId = exchange === 'paper' ? 1 : exchangeByCode(exchange)?.simulatedOf ? exchangeByCode(exchange)!.id : null;
      if (simulatedId !== null && round?.resting)
        await matchRestingOrders(db, sourceOf(exchange), simulatedId, symbol, undefined, money(price)).catch((error: unknown) =>
          options.log?.error({ err: error, exchange, symbol }, 'Paper resting orders not matched this round'),
        );
      return price;
    },
  };
  const engine = new Engine({
    db,
    changed: (userId) => listCache.bump(userId),
    prices: roundPrices,
    now,
    tickMs: options.tickMs ?? 1000,
    ...(options.stalePriceMs !== undefined ? { stalePriceMs: options.stalePriceMs } : {}),
    ...(options.reconcileEveryMs !== undefined ? { reconcileEveryMs: options.reconcileEveryMs } : {}),
    ...(options.restingTypes !== undefined ? { restingTypes: options.restingTypes } : {}),
    // A custom bot's candles and indicators are not stored: rebuilt from the market's history on every load.
    // So is a DCA bot's with an indicator start (its rule as the custom bot's entry rule).
    async warmUp(bot, state, view) {
      const indicators = kitOf(bot.type).indicators;
      const rules = indicators?.rules((view as { params: unknown }).params);
      const target = rules ? indicators!.feed(state, view) : null;
      if (rules && target) await warmUp(bot, target, rules);
    },
    ...(options.fuelFeeRate !== undefined ? { fuelFeeRate: options.fuelFeeRate } : {}),
    ...(options.referralRates !== undefined ? { referralRates: options.referralRates } : {}),
    ...(options.log ? { log: options.log } : {}),
    ...(options.cluster ? { cluster: options.cluster } : {}),
    ...(options.metrics ? { observe: options.metrics.engine } : {}),
    async venue(bot) {
      // Every order the engine sends goes through one of these: counted here for /metrics.
      const counted = (port: ExchangePort) => options.metrics?.countOrders(port, bot.exchange) ?? port;
      if (bot.exchange === 'paper') return counted(paper(bot.userId));
      if (exchangeByCode(bot.exchange)?.simulatedOf) return counted(simulated(bot.userId, bot.exchange));
      if (!live) throw fail('ApiExchangeUnsupported');
      return counted(await live.venue(bot));
    },
  });
  return {
    engine,
    prices,
    restingTypes: options.restingTypes ?? [],
    async lastPrice(exchange, symbol) {
      if (exchange === 'paper' || !live) return undefined;
      const l = liveOf(exchange);
      return l.live.lastPrice?.(l.code, symbol);
    },
    feed,
    now,
    paper,
    simulatedSource: sourceOf,
    listCache,
    async symbols(exchange, { symbol, history }) {
      if (!exchangeByCode(exchange)) throw fail('ApiExchangeUnsupported');
      if (exchange !== 'paper') {
        const l = liveOf(exchange);
        return (await l.live.symbols(l.code, { symbol, history })).map((x) => ({ ...x, exchange }));
      }
      const list = symbolList(feed, now(), history, symbol);
      if (symbol && list.length === 0) throw fail('OrderInvalidPair');
      return list;
    },
    candles,
    history,
    async assets(userId, code) {
      const exchange = exchangeByCode(code);
      if (!exchange) throw fail('ApiExchangeUnsupported');
      const bound = await db.selectFrom('exchange_keys').select('id').where('user_id', '=', userId).where('exchange_id', '=', exchange.id).executeTakeFirst();
      if (!bound) throw fail('ApiNotBound');
      if (code === 'paper' || exchange.simulatedOf) {
        const rows = await (code === 'paper' ? paper(userId) : simulated(userId, code)).balances();
        return { exchange: code, balances: rows.map((r) => ({ currency: r.currency, free: r.amount, total: r.amount })) };
      }
      if (!live) throw fail('ApiExchangeUnsupported');
      return { exchange: code, balances: await live.balances({ userId, exchangeId: exchange.id, exchange: code }) };
    },
    async tickers(exchange, symbols) {
      if (!exchangeByCode(exchange)) throw fail('ApiExchangeUnsupported');
      if (exchange !== 'paper') {
        const l = liveOf(exchange);
        return l.live.tickers(l.code, symbols);
      }
      if (symbols.some((s) => !known(s))) throw fail('OrderInvalidPair');
      const t = now();
      return symbols.map((s) => ticker(feed, s, t));
    },
    async market(exchange, symbol) {
      if (!exchangeByCode(exchange)) throw fail('ApiExchangeUnsupported');
      if (exchange === 'paper') {
        if (!known(symbol)) throw fail('OrderInvalidPair');
        const info = feed.info(symbol);
        return paperMarket(symbol, info.tick, info.step);
      }
      const l = liveOf(exchange);
      return l.live.market(l.code, symbol);
    },
  };
}
