import { parentPort } from 'node:worker_threads';
import { money } from '../../../strategy/money.ts';
import { SimulatedMarket } from '../../market/simulated.ts';
import { searchParameters, type RiskLevel } from '../../../strategy/ai/search.ts';

/**
 * Runs parameter searches off the server's event loop (a search takes seconds of CPU): one message in
 * (the history as columns, the market rules as strings), progress messages (at most every 100 ms), the
 * result out.
 */
export interface SearchJob {
  id: number;
  investment: string;
  risk: RiskLevel;
  market: { tickSize: string; stepSize: string; minAmount: string; minCost: string; feeRate: string };
  history: { time: Float64Array; open: Float64Array; high: Float64Array; low: Float64Array; close: Float64Array };
  recent: number;
  /** The simulated market whose seconds the history's minutes are (its CandlePath is made again here). */
  seconds?: { seed: number; symbol: string } | undefined;
  /** The backtests' slippage (a fraction); absent: the default. */
  slippage?: string | undefined;
}

/** How often the worker says how far a search is. */
const PROGRESS_MS = 100;

parentPort?.on('message', (job: SearchJob) => {
  try {
    const m = job.market;
    const market = { tickSize: money(m.tickSize), stepSize: money(m.stepSize), minAmount: money(m.minAmount), minCost: money(m.minCost), feeRate: money(m.feeRate) };
    let told = Number.NEGATIVE_INFINITY;
    const onProgress = (done: number, total: number) => {
      const now = performance.now();
      if (done < total && now - told < PROGRESS_MS) return; // the first and the last always go
      told = now;
      parentPort!.postMessage({ id: job.id, progress: { done, total } });
    };
    const history = job.seconds ? { ...job.history, path: new SimulatedMarket(job.seconds.seed).minutePath(job.seconds.symbol, job.history.time) } : job.history;
    const result = searchParameters({ investment: job.investment, risk: job.risk, market, history, recent: job.recent, slippage: job.slippage, onProgress });
    parentPort!.postMessage({ id: job.id, result });
  } catch (e) {
    parentPort!.postMessage({ id: job.id, error: String((e as Error)?.message ?? e) });
  }
});
