// Backtest speed: one martin bot over a year of simulated 1-minute BTC candles (525,600), on one core.
import { money } from '../strategy/money.ts';
import { backtestMartin, type CandleColumns } from '../strategy/backtest.ts';
import { GENESIS_MS, SimulatedMarket } from '../server/market/simulated.ts';

/** Candles per second of `backtestMartin` (median of `runs`), and the fills of one run. */
export function measureBacktest(runs = 5): { candlesPerSecond: number; candles: number; fills: number } {
  const feed = new SimulatedMarket();
  const n = 525_600;
  const candles = feed.candles('BTC/USDT', '1m', GENESIS_MS + n * 60_000 - 1, n);
  const cols: CandleColumns = {
    open: Float64Array.from(candles, (c) => Number(c.open)),
    high: Float64Array.from(candles, (c) => Number(c.high)),
    low: Float64Array.from(candles, (c) => Number(c.low)),
    close: Float64Array.from(candles, (c) => Number(c.close)),
  };
  const view = {
    params: { investment: '3100', firstOrder: '100', multiplier: '2', maxPositions: 5, addTrigger: '2', takeProfit: '1.5', repeat: true },
    market: { tickSize: money('0.01'), stepSize: money('0.00001'), minAmount: money('0.00001'), minCost: money('5'), feeRate: money('0.001') },
  };
  const rates: number[] = [];
  let fills = 0;
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    fills = backtestMartin(view, cols).fills.length;
    rates.push(n / ((performance.now() - t) / 1000));
  }
  rates.sort((a, b) => a - b);
  return { candlesPerSecond: Math.round(rates[Math.floor(runs / 2)]!), candles: n, fills };
}
