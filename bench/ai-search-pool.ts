// The AI search as the server runs it: in the heavy-work pool (server/workers/heavy-pool.ts), split over
// its threads (HEAVY_THREADS, default the cores), on 30 days of each Paper pair's 1-minute candles made in
// the threads from the market's seed. Targets: every pair within 4 s on a quiet machine, within 8 s with
// another trader's backtest running beside it (a custom bot with ten 500-period indicators over 90 days).
import { searchSource } from '../server/engine/ai/search-pool.ts';
import { paperMarket } from '../server/exchanges/paper-fill.ts';
import { simSymbols } from '../server/market/symbols.ts';
import { marketStrings } from '../server/workers/heavy-jobs.ts';
import { heavyPool, stopHeavyPool } from '../server/workers/heavy-pool.ts';

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

export async function measureAiSearchPool(symbols = simSymbols.map((s) => s.symbol)) {
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
    return { s: Math.round((performance.now() - started) / 10) / 100, tried: r.tried };
  };
  await searchOf('BNB/USDT'); // the threads started and their code loaded
  const quiet: Record<string, number> = {};
  for (const symbol of symbols) quiet[symbol] = (await searchOf(symbol)).s;
  const beside = backtestsBeside();
  const loaded: Record<string, number> = {};
  for (const symbol of symbols) loaded[symbol] = (await searchOf(symbol)).s;
  await beside.stop();
  await stopHeavyPool();
  const worst = (r: Record<string, number>) => Math.max(...Object.values(r));
  return { threads: heavyPool().threads, quietS: quiet, quietWorstS: worst(quiet), besideABacktestS: loaded, besideWorstS: worst(loaded), backtestsBeside: beside.runs() };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(JSON.stringify(await measureAiSearchPool(process.argv.slice(2).length ? process.argv.slice(2) : undefined), null, 2));
  await stopHeavyPool();
}
