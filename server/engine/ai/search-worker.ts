import { parentPort } from 'node:worker_threads';
import { money } from '../../../strategy/money.ts';
import { searchParameters, type RiskLevel } from '../../../strategy/ai/search.ts';

/**
 * Runs parameter searches off the server's event loop (a search takes seconds of CPU): one message in
 * (the history as columns, the market rules as strings), the result out.
 */
export interface SearchJob {
  id: number;
  investment: string;
  risk: RiskLevel;
  market: { tickSize: string; stepSize: string; minAmount: string; minCost: string; feeRate: string };
  history: { time: Float64Array; open: Float64Array; high: Float64Array; low: Float64Array; close: Float64Array };
  recent: number;
  /** The backtests' slippage (a fraction); absent: the default. */
  slippage?: string | undefined;
}

parentPort?.on('message', (job: SearchJob) => {
  try {
    const m = job.market;
    const market = { tickSize: money(m.tickSize), stepSize: money(m.stepSize), minAmount: money(m.minAmount), minCost: money(m.minCost), feeRate: money(m.feeRate) };
    const result = searchParameters({ investment: job.investment, risk: job.risk, market, history: job.history, recent: job.recent, slippage: job.slippage });
    parentPort!.postMessage({ id: job.id, result });
  } catch (e) {
    parentPort!.postMessage({ id: job.id, error: String((e as Error)?.message ?? e) });
  }
});
