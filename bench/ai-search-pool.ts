// The AI search as the server runs it: in the heavy-work pool (server/workers/heavy-pool.ts), split over
// its threads (the pool's default, the cores but one; BENCH_THREADS=2 uses both cores), on 30 days of each Paper pair's 1-minute candles made in
// the threads from the market's seed. Targets: every pair within 4 s on a quiet machine, within 8 s with
// another trader's backtest running beside it (a custom bot with ten 500-period indicators over 90 days).
import { searchSource } from '../server/engine/ai/search-pool.ts';
import { paperMarket } from '../server/exchanges/paper-fill.ts';
import { simSymbols } from '../server/market/symbols.ts';
import { marketStrings } from '../server/workers/heavy-jobs.ts';
import { configureHeavyPool, defaultHeavyOptions, heavyPool, stopHeavyPool } from '../server/workers/heavy-pool.ts';
import { median } from './stats.ts';

const NOW = Date.UTC(2026, 10, 1);
const DAY = 86_400_000;

/** A backtest that keeps a thread busy for seconds, asked again as soon as it ends, until `stop()`. */
function backtestsBeside(): { stop: () => Promise<void>; runs: () => number } {
  const long = (timeframe: string) => [
    { kind: 'rsi', period: 500, timeframe },
    { kind: 'sma', period: 500, timeframe },
    { kind: 'bb', band: 'upper', period: 500, deviation: '2', timeframe },
  ];
  const params = {
    investment: '1000',
    size: { kind: 'fixed', quote: '100' },
    entry: { join: 'or', conditions: long('1m').map((left) => ({ left, op: 'crossesAbove', right: { kind: 'price' } })) },
    exit: { join: 'or', conditions: long('5m').map((left) => ({ left, op: 'crossesBelow', right: { kind: 'price' } })) },
    repeat: true,
  };
  let running = true;
  let runs = 0;
  const loop = (async () => {
    while (running) {
      await heavyPool().run('other-trader', {
        kind: 'backtest',
        type: 'custom',
        params,
        market: marketStrings(paperMarket('BTC/USDT', '0.01', '0.00001')),
        candles: { simulated: { seed: 56, symbol: 'BTC/USDT', fromMs: NOW - 90 * DAY, toMs: NOW } },
        slippage: '0.0005',
        warmUpFrom: { seed: 56, symbol: 'BTC/USDT', rules: { entry: params.entry, exit: params.exit } },
      });
      runs++;
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
    },
    runs: () => runs,
  };
}

export async function measureAiSearchPool(symbols = simSymbols.map((s) => s.symbol), threads = Number(process.env.BENCH_THREADS) || undefined) {
  if (threads) configureHeavyPool({ ...defaultHeavyOptions(), threads });
  const rates: number[] = [];
  const searchOf = async (symbol: string) => {
    const sim = simSymbols.find((s) => s.symbol === symbol)!;
    const started = performance.now();
    const r = await searchSource({
      investment: '1000',
      risk: 'balanced',
      market: paperMarket(symbol, sim.tick, sim.step),
      history: { simulated: { seed: 56, symbol, fromMs: NOW - 30 * DAY, toMs: NOW } },
      recent: 7 * 1440,
      owner: 'trader',
    });
    const seconds = (performance.now() - started) / 1000;
    rates.push(r.tried / seconds);
    return { s: Math.round(seconds * 100) / 100, tried: r.tried };
  };
  await searchOf('BNB/USDT'); // the threads started and their code loaded
  rates.length = 0;
  const quiet: Record<string, number> = {};
  for (const symbol of symbols) quiet[symbol] = (await searchOf(symbol)).s;
  const quietRate = median(rates);
  const beside = backtestsBeside();
  const loaded: Record<string, number> = {};
  for (const symbol of symbols) loaded[symbol] = (await searchOf(symbol)).s;
  await beside.stop();
  const threadsUsed = heavyPool().threads;
  await stopHeavyPool();
  const worst = (r: Record<string, number>) => Math.max(...Object.values(r));
  return {
    threads: threadsUsed,
    quietConfigurationsPerSecondMedian: Math.round(quietRate),
    quietS: quiet,
    quietWorstS: worst(quiet),
    besideABacktestS: loaded,
    besideWorstS: worst(loaded),
    backtestsBeside: beside.runs(),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(JSON.stringify(await measureAiSearchPool(process.argv.slice(2).length ? process.argv.slice(2) : undefined), null, 2));
  await stopHeavyPool();
}
