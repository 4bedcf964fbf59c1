import { Worker } from 'node:worker_threads';
import type { MarketRules } from '../../../strategy/martin/rules.ts';
import type { CandleColumns } from '../../../strategy/backtest.ts';
import type { RiskLevel, SearchResult } from '../../../strategy/ai/search.ts';
import type { MinutePath } from '../../market/simulated.ts';
import type { SearchJob } from './search-worker.ts';

/**
 * One worker thread for parameter searches, started on first use and reused; searches queue behind
 * each other (the machine has few cores; the engine keeps the main thread).
 */
let worker: Worker | undefined;
let nextId = 1;
/** How far a search is: candidates backtested of all. */
export type SearchProgress = (done: number, total: number) => void;
const waiting = new Map<number, { resolve: (r: SearchResult) => void; reject: (e: Error) => void; progress?: SearchProgress | undefined }>();
let queue: Promise<unknown> = Promise.resolve();

function workerOf(): Worker {
  if (!worker) {
    worker = new Worker(new URL('./search-worker.ts', import.meta.url));
    worker.unref();
    worker.on('message', (m: { id: number; result?: SearchResult; error?: string; progress?: { done: number; total: number } }) => {
      const w = waiting.get(m.id);
      if (m.progress) return w?.progress?.(m.progress.done, m.progress.total);
      waiting.delete(m.id);
      if (m.error !== undefined) w?.reject(new Error(m.error));
      else w?.resolve(m.result!);
    });
    worker.on('error', (e: Error) => {
      for (const w of waiting.values()) w.reject(e);
      waiting.clear();
      worker = undefined;
    });
  }
  return worker;
}

export function searchInWorker(
  input: {
    investment: string;
    risk: RiskLevel;
    market: MarketRules;
    history: CandleColumns & { time: Float64Array };
    recent: number;
    slippage?: string | undefined;
  },
  progress?: SearchProgress,
): Promise<SearchResult> {
  const run = () =>
    new Promise<SearchResult>((resolve, reject) => {
      const id = nextId++;
      waiting.set(id, { resolve, reject, progress });
      const m = input.market;
      const job: SearchJob = {
        id,
        investment: input.investment,
        risk: input.risk,
        recent: input.recent,
        // A path's functions cannot cross to the worker: the market that makes its seconds does.
        history: columnsOnly(input.history),
        seconds: input.history.path && 'source' in input.history.path ? (input.history.path as MinutePath).source : undefined,
        slippage: input.slippage,
        market: { tickSize: m.tickSize.toFixed(), stepSize: m.stepSize.toFixed(), minAmount: m.minAmount.toFixed(), minCost: m.minCost.toFixed(), feeRate: m.feeRate.toFixed() },
      };
      workerOf().postMessage(job);
    });
  const result = queue.then(run, run);
  queue = result.catch(() => undefined);
  return result;
}

const columnsOnly = ({ time, open, high, low, close }: CandleColumns & { time: Float64Array }) => ({ time, open, high, low, close });

/** Stops the worker (tests, shutdown). */
export async function stopSearchWorker(): Promise<void> {
  const w = worker;
  worker = undefined;
  await w?.terminate();
}
