import type { MarketRules } from '../../../strategy/core/market.ts';
import type { CandleColumns } from '../../../strategy/backtest.ts';
import { mergeSearches, type RiskLevel, type SearchPart, type SearchResult } from '../../../strategy/ai/search.ts';
import type { MinutePath } from '../../market/simulated.ts';
import { marketStrings, type CandleSource } from '../../workers/heavy-jobs.ts';
import { heavyPool, stopHeavyPool } from '../../workers/heavy-pool.ts';

/** How far a search is: candidates backtested of all. */
export type SearchProgress = (done: number, total: number) => void;

/**
 * A parameter search in the server's heavy-work pool (server/workers/heavy-pool.ts), in `owner`'s turn.
 * A history of the simulated market goes as its seed and window: the worker makes the minutes and their
 * seconds' path again there (a path's functions cannot cross to a thread, and the main thread does not
 * spend the time making them).
 */
export function searchInWorker(
  input: {
    investment: string;
    risk: RiskLevel;
    market: MarketRules;
    history: CandleColumns & { time: Float64Array };
    recent: number;
    slippage?: string | undefined;
    /** The bot types whose orders rest on the book (RESTING_ORDERS): their candidates' backtests fill so. */
    resting?: readonly string[] | undefined;
    /** Whose search it is: the pool's turns are per trader. */
    owner?: string | undefined;
  },
  progress?: SearchProgress,
): Promise<SearchResult> {
  return searchSource({ ...input, owner: input.owner ?? '', history: sourceOf(input.history) }, progress);
}

/**
 * A search on a history as a task carries it (the simulated market's minutes by their seed and window),
 * in `owner`'s turn, split over the pool's threads (each part on a core; strategy/ai/search.ts
 * searchPart), its parts merged into what one search over all the candidates answers.
 */
export async function searchSource(
  input: { investment: string; risk: RiskLevel; market: MarketRules; history: CandleSource; recent: number; slippage?: string | undefined; resting?: readonly string[] | undefined; owner: string },
  progress?: SearchProgress,
): Promise<SearchResult> {
  const pool = heavyPool();
  const of = Math.max(1, Math.min(pool.threads, 4));
  const done = new Array<number>(of).fill(0);
  const totals = new Array<number>(of).fill(0);
  const market = marketStrings(input.market);
  const parts = await Promise.all(
    Array.from({ length: of }, (_, index) =>
      pool.run<SearchPart>(
        input.owner,
        { kind: 'search', investment: input.investment, risk: input.risk, recent: input.recent, slippage: input.slippage, resting: input.resting, market, history: input.history, part: { index, of } },
        {
          progress: (d, t) => {
            done[index] = d;
            totals[index] = t;
            // Told once every part has said its size: the total never moves.
            if (totals.every((x) => x > 0))
              progress?.(
                done.reduce((a, b) => a + b, 0),
                totals.reduce((a, b) => a + b, 0),
              );
          },
        },
      ),
    ),
  );
  return mergeSearches(parts);
}

/** Columns as a task carries them: the simulated market's minutes by their seed and window, others as numbers. */
export function sourceOf(history: CandleColumns & { time: Float64Array }): CandleSource {
  const path = history.path as MinutePath | undefined;
  const n = history.time.length;
  if (path && 'source' in path && n > 0) {
    // minuteColumns' window: the first minute's open to the last one's end.
    return { simulated: { ...path.source, fromMs: history.time[0]!, toMs: history.time[n - 1]! + 60_000 } };
  }
  const { time, open, high, low, close } = history;
  return { columns: { time, open, high, low, close } };
}

/** Stops the pool's threads (tests, shutdown). */
export const stopSearchWorker = stopHeavyPool;
