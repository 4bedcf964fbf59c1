// Custom bot backtest speed: a custom bot with 3 indicator conditions on a year of simulated
// 1-minute BTC candles (525,600), on one core.
import { money } from '../strategy/money.ts';
import { backtestCustom } from '../strategy/custom/backtest.ts';
import { explainCustom, explainText } from '../strategy/custom/explain.ts';
import type { CustomParams } from '../strategy/custom/rules.ts';
import { GENESIS_MS, SimulatedMarket } from '../server/market/simulated.ts';

/** The bot measured: buys when RSI(14, 1m) < 30 and price < BB lower(20, 2, 1m); sells when MACD histogram(12, 26, 9, 1m) crosses below 0, at +1.5 % or at -3 %. */
export const benchCustomParams: CustomParams = {
  investment: '1000',
  size: { kind: 'fixed', quote: '100' },
  entry: {
    join: 'and',
    conditions: [
      { left: { kind: 'rsi', period: 14, timeframe: '1m' }, op: '<', right: { kind: 'value', value: '30' } },
      { left: { kind: 'price' }, op: '<', right: { kind: 'bb', band: 'lower', period: 20, deviation: '2', timeframe: '1m' } },
    ],
  },
  exit: { join: 'or', conditions: [{ left: { kind: 'macd', line: 'histogram', fast: 12, slow: 26, signal: 9, timeframe: '1m' }, op: 'crossesBelow', right: { kind: 'value', value: '0' } }] },
  takeProfit: '1.5',
  stopLoss: '3',
  repeat: true,
};

/** Candles per second of `backtestCustom` (median of `runs`; default fill model), and what one run made. */
export function measureCustomBacktest(runs = 5): { candlesPerSecond: number; runs: number[]; candles: number; rule: string; fills: number; cycles: number; realized: string } {
  const feed = new SimulatedMarket();
  const n = 525_600;
  const candles = feed.candles('BTC/USDT', '1m', GENESIS_MS + n * 60_000 - 1, n);
  const col = (k: 'time' | 'open' | 'high' | 'low' | 'close') => Float64Array.from(candles, (c) => Number(c[k]));
  const cols = { time: col('time'), open: col('open'), high: col('high'), low: col('low'), close: col('close') };
  const view = {
    params: benchCustomParams,
    market: { tickSize: money('0.01'), stepSize: money('0.00001'), minAmount: money('0.00001'), minCost: money('5'), feeRate: money('0.001') },
  };
  const rates: number[] = [];
  let run = backtestCustom(view, cols);
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    run = backtestCustom(view, cols);
    rates.push(n / ((performance.now() - t) / 1000));
  }
  const sorted = [...rates].sort((a, b) => a - b);
  const explained = explainCustom(benchCustomParams);
  return {
    candlesPerSecond: Math.round(sorted[Math.floor(runs / 2)]!),
    runs: rates.map(Math.round),
    candles: n,
    rule: `buys when ${explainText(explained.entry)}; sells when ${explainText(explained.exit!)}, at +1.5 % or -3 %`,
    fills: run.fills.length,
    cycles: run.cycles,
    realized: Number(run.realized).toFixed(2),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(JSON.stringify(measureCustomBacktest(), null, 2));
