import type { AiProposal, AiSearchAnswer } from '../../contract/strategy.ts';
import { columnsOf, DEFAULT_SLIPPAGE, type CandleColumns } from '../../strategy/backtest.ts';
import { searchInWorker, searchSource, type SearchProgress } from '../engine/ai/search-pool.ts';
import { GENESIS_MS, isPlainSimulation } from '../market/simulated.ts';
import { configure, SEARCHED_TYPES, type Configuration, type RiskLevel, type SearchResult } from '../../strategy/ai/search.ts';
import { kitOf } from '../../strategy/kit.ts';
import type Decimal from 'decimal.js';
import { exchangeById } from '../exchanges/catalog.ts';
import type { MarketRules } from '../../strategy/core/market.ts';
import { money } from '../../strategy/money.ts';
import type { MarketData } from '../trading.ts';
import { fail } from '../errors.ts';

/**
 * The AI bot's search as the API answers it: 30 days of the symbol's history (Paper: its
 * 1-minute candles; a live exchange: one page of hourly candles), searched in a worker thread.
 */
const DAY = 86_400_000;

/** How much history the search backtests on: `days`, and again the last `recentDays` of them. */
export interface SearchWindow {
  days: number;
  recentDays: number;
}
/**
 * The product's window (30 and 7 days; AI_SEARCH_DAYS, the app's config `aiSearchWindow`). Only tests
 * pass a shorter one: the same search on fewer candles; the full size is measured by `npm run bench`.
 */
export const SEARCH_WINDOW: SearchWindow = { days: 30, recentDays: 7 };

export async function historyFor(
  trading: MarketData,
  exchange: string,
  symbol: string,
  window: SearchWindow = SEARCH_WINDOW,
): Promise<{ history: CandleColumns & { time: Float64Array }; recent: number; timeframe: string }> {
  const now = trading.now();
  if (exchange === 'paper') return { history: trading.feed.minuteColumns(symbol, now - window.days * DAY, now), recent: Math.round(window.recentDays * 1440), timeframe: '1m' };
  const rows = await trading.candles(exchange, symbol, '1h', Math.round(window.days * 24));
  return { history: columnsOf(rows), recent: Math.round(window.recentDays * 24), timeframe: '1h' };
}

/** Whether botCreate's checks pass a configuration at `price` (it can be created now). */
function fitsNow(c: Configuration, market: MarketRules, price: Decimal): boolean {
  return kitOf(c.type).problem(c.params, market, price) === null;
}

/** A configuration as the create call takes it (optional fields present, empty). */
export function inputOf(c: Configuration) {
  return kitOf(c.type).input(c.params) as AiProposal['params'];
}

/** What a search is asked: the market and its rules, the trader's money and risk, and whose turn it takes in the heavy-work pool. */
export interface SearchAsk {
  market: MarketRules;
  exchange: string;
  symbol: string;
  investment: string;
  risk: RiskLevel;
  /** The trader it is for (the pool's turns are per trader). */
  owner: string;
  window?: SearchWindow | undefined;
  /** Its backtests fill at the trigger with this slippage (default 0.05 %). */
  slippage?: string | undefined;
  progress?: SearchProgress | undefined;
}

/**
 * The search on the symbol's history, in the heavy-work pool. On Paper the worker makes the simulated
 * market's minutes itself from its seed (the main thread does not spend the time); a live exchange's
 * hourly candles are read here and sent.
 */
export async function search(trading: MarketData, ask: SearchAsk): Promise<{ result: SearchResult; timeframe: string; seconds: boolean }> {
  const window = ask.window ?? SEARCH_WINDOW;
  const common = { investment: ask.investment, risk: ask.risk, market: ask.market, slippage: ask.slippage ?? DEFAULT_SLIPPAGE, resting: trading.restingTypes, owner: ask.owner };
  if (ask.exchange === 'paper' && isPlainSimulation(trading.feed)) {
    const now = trading.now();
    const fromMs = Math.max(GENESIS_MS, now - window.days * DAY);
    if (now - fromMs < 2 * 60_000) throw fail('OrderInvalidPair');
    const history = { simulated: { seed: trading.feed.seed, symbol: ask.symbol, fromMs, toMs: now } };
    return { result: await searchSource({ ...common, history, recent: Math.round(window.recentDays * 1440) }, ask.progress), timeframe: '1m', seconds: true };
  }
  const { history, recent, timeframe } = await historyFor(trading, ask.exchange, ask.symbol, window);
  if (history.close.length < 2) throw fail('OrderInvalidPair');
  return { result: await searchInWorker({ ...common, history, recent }, ask.progress), timeframe, seconds: history.path !== undefined };
}

export async function aiSearch(
  trading: MarketData,
  owner: string,
  input: { exchangeId: number; symbol: string; investment: string; risk: RiskLevel; slippage?: string | undefined },
  window: SearchWindow = SEARCH_WINDOW,
  progress?: SearchProgress,
): Promise<AiSearchAnswer> {
  const started = performance.now();
  const exchange = exchangeById(input.exchangeId);
  if (!exchange) throw fail('ApiExchangeUnsupported');
  if (money(input.investment).lte(0)) throw fail('StrategyInvalidInvestment');
  const market = await trading.market(exchange.code, input.symbol);
  const { result, timeframe, seconds } = await search(trading, {
    market,
    exchange: exchange.code,
    symbol: input.symbol,
    investment: input.investment,
    risk: input.risk,
    owner,
    window,
    slippage: input.slippage,
    progress,
  });
  // Each proposal is placed at the price of this moment and checked by the same rules as botCreate
  //: a grid's range is re-centred there; one the market now refuses is left out.
  const price = money(await trading.prices.price(exchange.code, input.symbol));
  const fitted = result.proposals.map((p) => ({ ...p, configuration: configure(p.candidate, input.investment, price.toNumber(), market) })).filter((p) => fitsNow(p.configuration, market, price));
  return {
    exchange: exchange.code,
    symbol: input.symbol,
    risk: input.risk,
    tried: result.tried,
    kept: result.kept,
    limit: result.limit,
    timeframe,
    elapsedMs: Math.round(performance.now() - started),
    // The searched types (martin, grid) whose orders rest on the book, as their backtests filled them.
    fill: { price: 'trigger', slippage: result.slippage, seconds, resting: SEARCHED_TYPES.filter((t) => trading.restingTypes.includes(t)) },
    proposals: fitted.map((p) => ({ type: p.configuration.type, params: inputOf(p.configuration), score: p.score, d30: p.d30, d7: p.d7, equity: p.equity })),
  };
}
