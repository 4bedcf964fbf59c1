// The AI bot's parameter search on one core: every candidate backtested on 30 days of Paper's 1-minute
// candles (43,200) and on the last 7 days, in this thread; median of `runs`. And the sweep alone: the
// search's martin configurations over the 30 days, on the candles' seconds (as Paper's search replays
// them) and on their four prices (as a live exchange's candles give them).
import { Worker } from 'node:worker_threads';
import { candidates, searchParameters } from '../strategy/ai/search.ts';
import { backtestReport } from '../strategy/backtest-report.ts';
import { martinKit } from '../strategy/kit.ts';
import { money } from '../strategy/money.ts';
import { SimulatedMarket } from '../server/market/simulated.ts';
import { median } from './stats.ts';

const market = { tickSize: money('0.01'), stepSize: money('0.00001'), minAmount: money('0.00001'), minCost: money('5'), feeRate: money('0.001') };
const history = () => {
  const now = Date.UTC(2026, 10, 1);
  return new SimulatedMarket().minuteColumns('BTC/USDT', now - 30 * 86_400_000, now);
};

export function measureAiSearch(runs = 3) {
  const candles = history();
  const times: number[] = [];
  let tried = 0;
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    tried = searchParameters({ investment: '1000', risk: 'balanced', market, history: candles, recent: 7 * 1440 }).tried;
    times.push(performance.now() - start);
  }
  const s = median(times) / 1000;
  return { candidates: tried, candles: candles.close.length, medianS: Math.round(s * 100) / 100, configurationsPerSecond: Math.round(tried / s), runsS: times.map((t) => Math.round(t / 10) / 100) };
}

/** Martin configurations per second (median of `runs`), each backtested and reported over the 30 days. */
export function measureMartinSweep(runs = 3) {
  const withSeconds = history();
  const { path: _, ...fourPrices } = withSeconds;
  const configurations = candidates('1000', withSeconds.open[0]!, market).flatMap((c) => (c.type === 'martin' ? [c.params] : []));
  const rate = (candles: typeof fourPrices) => {
    const rates: number[] = [];
    let fills = 0;
    for (let i = 0; i < runs; i++) {
      fills = 0;
      const start = performance.now();
      for (const params of configurations) fills += backtestReport(martinKit.backtest, { params, market }, candles).fills;
      rates.push(configurations.length / ((performance.now() - start) / 1000));
    }
    return { configurationsPerSecond: Math.round(median(rates)), fills };
  };
  return { configurations: configurations.length, candles: withSeconds.close.length, onTheSeconds: rate(withSeconds), onFourPrices: rate(fourPrices) };
}

/** The martin configurations i with i % of === index, reported over the 30 days: fills made. */
export function sweepPart(index: number, of: number, seconds: boolean): number {
  const withSeconds = history();
  const { path: _, ...fourPrices } = withSeconds;
  const candles = seconds ? withSeconds : fourPrices;
  const configurations = candidates('1000', withSeconds.open[0]!, market).flatMap((c) => (c.type === 'martin' ? [c.params] : []));
  let fills = 0;
  configurations.forEach((params, i) => {
    if (i % of === index) fills += backtestReport(martinKit.backtest, { params, market }, candles).fills;
  });
  return fills;
}

/**
 * The same sweep split over `threads` worker threads (each its share of the configurations, on its own
 * copy of the candles), as the heavy-work pool splits a search: configurations per second of the whole,
 * median of `runs` after a first run that loads and warms the threads.
 */
export async function measureMartinSweepThreads(threads = 2, runs = 3) {
  const run = async (seconds: boolean) => {
    const workers = Array.from({ length: threads }, (_, index) => new Worker(new URL('./martin-sweep-worker.ts', import.meta.url), { workerData: { index, of: threads, seconds } }));
    const once = () =>
      Promise.all(
        workers.map(
          (w) =>
            new Promise<number>((resolve) => {
              w.once('message', resolve);
              w.postMessage('go');
            }),
        ),
      );
    await once();
    const rates: number[] = [];
    let fills = 0;
    const configurations = candidates('1000', history().open[0]!, market).filter((c) => c.type === 'martin').length;
    for (let i = 0; i < runs; i++) {
      const start = performance.now();
      fills = (await once()).reduce((a, b) => a + b, 0);
      rates.push(configurations / ((performance.now() - start) / 1000));
    }
    await Promise.all(workers.map((w) => w.terminate()));
    return { configurationsPerSecond: Math.round(median(rates)), fills };
  };
  return { threads, onTheSeconds: await run(true), onFourPrices: await run(false) };
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(measureAiSearch(), measureMartinSweep(), await measureMartinSweepThreads());
