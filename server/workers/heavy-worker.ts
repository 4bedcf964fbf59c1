import type { MessagePort } from 'node:worker_threads';
import { searchPart, type SearchPart } from '../../strategy/ai/search.ts';
import type { BacktestReport } from '../../strategy/backtest-report.ts';
import { backtestReport } from '../../strategy/backtest-report.ts';
import { kitOf } from '../../strategy/kit.ts';
import type { CandleColumns } from '../../strategy/backtest.ts';
import type { CustomParams } from '../../strategy/custom/rules.ts';
import type { MarketRules } from '../../strategy/core/market.ts';
import { money } from '../../strategy/money.ts';
import { feedWarmUp, historyBefore, paperHistory, warmUpHistory } from '../market/custom-history.ts';
import { SimulatedMarket } from '../market/simulated.ts';
import { CustomFeed, type FeedMemory } from '../../strategy/custom/feed.ts';
import type { BacktestJob, CandleSource, HeavyJob, MarketStrings, SearchJob, WarmUpJob } from './heavy-jobs.ts';

/**
 * The heavy work of the server, run in the worker threads of heavy-pool.ts, never on the event loop
 * that runs the engine's rounds and answers requests: AI searches, backtests, and custom bots'
 * warm-ups (their history read from the simulated market, their indicators fed). Each task is one message in and one answer out; a
 * search also says how far it is through the port it is given.
 */
export default async function run(task: { job: HeavyJob; progress?: MessagePort }): Promise<SearchPart | BacktestReport | FeedMemory> {
  try {
    const { job } = task;
    switch (job.kind) {
      case 'search':
        return search(job, task.progress);
      case 'backtest':
        return await backtest(job);
      case 'warmUp':
        return await warmUp(job);
      default:
        throw new Error(`unknown heavy job ${(job as { kind: string }).kind}`);
    }
  } finally {
    task.progress?.close();
  }
}

/** A few simulated markets, kept between tasks: a market caches the days it made, which the next task on the same seed reads again. */
const markets = new Map<number, SimulatedMarket>();
function marketOf(seed: number): SimulatedMarket {
  let m = markets.get(seed);
  if (!m) {
    if (markets.size >= 4) markets.clear();
    m = new SimulatedMarket(seed);
    markets.set(seed, m);
  }
  return m;
}

function rulesOf(m: MarketStrings): MarketRules {
  const rules = { tickSize: money(m.tickSize), stepSize: money(m.stepSize), minAmount: money(m.minAmount), minCost: money(m.minCost), feeRate: money(m.feeRate) };
  return m.makerFeeRate ? { ...rules, makerFeeRate: money(m.makerFeeRate) } : rules;
}

function candlesOf(source: CandleSource): CandleColumns & { time: Float64Array } {
  if ('columns' in source) return source.columns;
  const s = source.simulated;
  return marketOf(s.seed).minuteColumns(s.symbol, s.fromMs, s.toMs);
}

/** How often a search says how far it is. */
const PROGRESS_MS = 100;

function search(job: SearchJob, port: MessagePort | undefined): SearchPart {
  let told = Number.NEGATIVE_INFINITY;
  const onProgress = (done: number, total: number) => {
    const now = performance.now();
    if (done < total && now - told < PROGRESS_MS) return; // the first and the last always go
    told = now;
    port?.postMessage({ done, total });
  };
  return searchPart({
    investment: job.investment,
    risk: job.risk,
    market: rulesOf(job.market),
    history: candlesOf(job.history),
    recent: job.recent,
    slippage: job.slippage,
    resting: job.resting,
    part: job.part,
    onProgress,
  });
}

async function backtest(job: BacktestJob): Promise<BacktestReport> {
  const market = rulesOf(job.market);
  const candles = candlesOf(job.candles);
  const kit = kitOf(job.type);
  const view = kit.view(job.params, market) as { params: { investment: string }; market: MarketRules };
  // A bot with indicators (a custom bot, a DCA indicator start) reads them from its first candle on: their warm-up first.
  const warmUp = kit.indicators?.rules(view.params) ? await warmUpOf(job, candles.time[0]!) : undefined;
  return backtestReport(kit.backtest, view, candles, { slippage: job.slippage, resting: job.resting === true && kit.resting !== undefined }, undefined, warmUp);
}

/** The closed candles before a backtest's first minute that its indicators need: given, or read from the simulated market here. */
function warmUpOf(job: BacktestJob, first: number) {
  if (job.warmUp || !job.warmUpFrom) return Promise.resolve(job.warmUp ?? {});
  const { seed, symbol, rules } = job.warmUpFrom;
  return historyBefore(rules as Pick<CustomParams, 'entry' | 'exit'>, paperHistory(marketOf(seed), symbol), first);
}

async function warmUp(job: WarmUpJob): Promise<FeedMemory> {
  const rules = job.rules as Pick<CustomParams, 'entry' | 'exit'>;
  const feed = new CustomFeed(rules);
  const data = 'read' in job.from ? job.from.read : await warmUpHistory(rules, paperHistory(marketOf(job.from.simulated.seed), job.from.simulated.symbol), job.now);
  feedWarmUp(feed, data, job.now);
  return feed.save();
}
