import type { AiSearchAnswer } from '../../contract/schemas.ts';
import { columnsOf, DEFAULT_SLIPPAGE, type CandleColumns } from '../../strategy/backtest.ts';
import { searchInWorker, type SearchProgress } from '../engine/ai/search-pool.ts';
import { configure, type Configuration, type RiskLevel, type SearchResult } from '../../strategy/ai/search.ts';
import { validateGrid } from '../../strategy/grid/plan.ts';
import { validateMartin } from '../../strategy/martin/plan.ts';
import type Decimal from 'decimal.js';
import { exchangeById } from '../exchanges/catalog.ts';
import type { MarketRules } from '../../strategy/martin/rules.ts';
import { money } from '../../strategy/money.ts';
import type { Trading } from '../trading.ts';
import { fail } from './errors.ts';
import { gridInputParams } from './grid-queries.ts';

/**
 * The AI bot's search (issue 6 §3) as the API answers it: 30 days of the symbol's history (Paper: its
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
  trading: Trading,
  exchange: string,
  symbol: string,
  window: SearchWindow = SEARCH_WINDOW,
): Promise<{ history: CandleColumns & { time: Float64Array }; recent: number; timeframe: string }> {
  const now = trading.now();
  if (exchange === 'paper') return { history: trading.feed.minuteColumns(symbol, now - window.days * DAY, now), recent: Math.round(window.recentDays * 1440), timeframe: '1m' };
  const rows = await trading.candles(exchange, symbol, '1h', Math.round(window.days * 24));
  return { history: columnsOf(rows), recent: Math.round(window.recentDays * 24), timeframe: '1h' };
}

/** How many problems botCreate's checks find in a configuration at `price` (0: it can be created now). */
function problemsOf(c: Configuration, market: MarketRules, price: Decimal): number {
  return c.type === 'grid' ? validateGrid(c.params, market, price).length : validateMartin(c.params, market, price).length;
}

/** A configuration as the create call takes it (optional fields present, empty). */
export function inputOf(c: Configuration) {
  return c.type === 'grid' ? gridInputParams(c.params) : { ...c.params, stopLoss: c.params.stopLoss ?? '' };
}

/** The search on the symbol's history; its backtests fill at the trigger with `slippage` (default 0.05 %). */
export async function search(
  trading: Trading,
  market: MarketRules,
  exchange: string,
  symbol: string,
  investment: string,
  risk: RiskLevel,
  window: SearchWindow = SEARCH_WINDOW,
  slippage: string = DEFAULT_SLIPPAGE,
  progress?: SearchProgress,
): Promise<{ result: SearchResult; timeframe: string; seconds: boolean }> {
  const { history, recent, timeframe } = await historyFor(trading, exchange, symbol, window);
  if (history.close.length < 2) throw fail('OrderInvalidPair');
  return { result: await searchInWorker({ investment, risk, market, history, recent, slippage }, progress), timeframe, seconds: history.path !== undefined };
}

export async function aiSearch(
  trading: Trading,
  input: { exchangeId: number; symbol: string; investment: string; risk: RiskLevel; slippage?: string | undefined },
  window: SearchWindow = SEARCH_WINDOW,
  progress?: SearchProgress,
): Promise<AiSearchAnswer> {
  const started = performance.now();
  const exchange = exchangeById(input.exchangeId);
  if (!exchange) throw fail('ApiExchangeUnsupported');
  if (money(input.investment).lte(0)) throw fail('StrategyInvalidInvestment');
  const market = await trading.market(exchange.code, input.symbol);
  const { result, timeframe, seconds } = await search(trading, market, exchange.code, input.symbol, input.investment, input.risk, window, input.slippage ?? DEFAULT_SLIPPAGE, progress);
  // Each proposal is placed at the price of this moment and checked by the same rules as botCreate
  // (issue 14 §1): a grid's range is re-centred there; one the market now refuses is left out.
  const price = money(await trading.prices.price(exchange.code, input.symbol));
  const fitted = result.proposals
    .map((p) => ({ ...p, configuration: configure(p.candidate, input.investment, price.toNumber(), market) }))
    .filter((p) => problemsOf(p.configuration, market, price) === 0);
  return {
    exchange: exchange.code,
    symbol: input.symbol,
    risk: input.risk,
    tried: result.tried,
    kept: result.kept,
    limit: result.limit,
    timeframe,
    elapsedMs: Math.round(performance.now() - started),
    fill: { price: 'trigger', slippage: result.slippage, seconds },
    proposals: fitted.map((p) => ({ type: p.configuration.type, params: inputOf(p.configuration), score: p.score, d30: p.d30, d7: p.d7, equity: p.equity })),
  };
}
