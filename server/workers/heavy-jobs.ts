import type { BuiltBotType } from '../../strategy/params.ts';
import type { RiskLevel } from '../../strategy/ai/search.ts';
import type { Candle } from '../../strategy/custom/feed.ts';
import type { WarmUpHistory } from '../market/custom-history.ts';
import type { Timeframe as RuleTimeframe } from '../../strategy/custom/rules.ts';
import type { MarketRules } from '../../strategy/core/market.ts';

/**
 * What the heavy-work threads are asked to do (heavy-worker.ts), as plain data: a worker thread receives
 * copies, never functions or Decimal objects, so exact numbers travel as strings and candles as columns
 * of doubles (moved, not copied).
 */
export type MarketStrings = { tickSize: string; stepSize: string; minAmount: string; minCost: string; feeRate: string; makerFeeRate?: string | undefined };

/** Candle columns of doubles, oldest first. */
export interface Columns {
  time: Float64Array;
  open: Float64Array;
  high: Float64Array;
  low: Float64Array;
  close: Float64Array;
}

/**
 * Where a job's candles come from: columns read on the main thread (a live exchange's page), or the
 * simulated market's own minutes, made in the worker from its seed (a pure function of seed, symbol and
 * time: the same numbers as the main thread's SimulatedMarket, and the seconds' path with them).
 */
export type CandleSource = { columns: Columns } | { simulated: { seed: number; symbol: string; fromMs: number; toMs: number } };

/** An AI parameter search (strategy/ai/search.ts) on a history. */
export interface SearchJob {
  kind: 'search';
  investment: string;
  risk: RiskLevel;
  market: MarketStrings;
  history: CandleSource;
  recent: number;
  slippage?: string | undefined;
  /** The bot types whose orders rest on the book (RESTING_ORDERS): their candidates' backtests fill so. */
  resting?: readonly string[] | undefined;
  /** Its share of the candidates, when a search is split over the threads (strategy/ai/search.ts searchPart). */
  part: { index: number; of: number };
}

/** A backtest of one bot (strategy/backtest-report.ts) on a history, with its indicators' warm-up when it has one. */
export interface BacktestJob {
  kind: 'backtest';
  type: BuiltBotType;
  /** The bot's stored parameters (plain strings and numbers). */
  params: unknown;
  market: MarketStrings;
  candles: CandleSource;
  slippage: string;
  /** Its orders rest on the book as the live engine rests them (RESTING_ORDERS; strategy/backtest.ts FillModel). */
  resting?: boolean | undefined;
  /** Closed candles of each timeframe before the first minute (custom bots, DCA indicator starts); absent: none. */
  warmUp?: Partial<Record<RuleTimeframe, Candle[]>> | undefined;
  /** The simulated market to read that warm-up from, in the worker, when `warmUp` is not given. */
  warmUpFrom?: { seed: number; symbol: string; rules: { entry: unknown; exit?: unknown } } | undefined;
}

/**
 * A live custom bot's warm-up (server/market/custom-history.ts): its feed built and fed with the history
 * before the market time `now` (read here from the simulated market, or read by the main thread from an
 * exchange), answered as the feed's memory (CustomFeed.save) for the engine's feed to load.
 */
export interface WarmUpJob {
  kind: 'warmUp';
  rules: { entry: unknown; exit?: unknown };
  now: number;
  from: { simulated: { seed: number; symbol: string } } | { read: WarmUpHistory };
}

export type HeavyJob = SearchJob | BacktestJob | WarmUpJob;

/** Decimal market rules as strings, for a job. */
export function marketStrings(m: MarketRules): MarketStrings {
  const strings = { tickSize: m.tickSize.toFixed(), stepSize: m.stepSize.toFixed(), minAmount: m.minAmount.toFixed(), minCost: m.minCost.toFixed(), feeRate: m.feeRate.toFixed() };
  return m.makerFeeRate ? { ...strings, makerFeeRate: m.makerFeeRate.toFixed() } : strings;
}
