// Backtest speed: one martin bot over a year of simulated 1-minute BTC candles (525,600), on one core.
import { money } from '../strategy/money.ts';
import { backtestMartin, type CandleColumns } from '../strategy/backtest.ts';
import { GENESIS_MS, SimulatedMarket } from '../server/market/simulated.ts';

/**
 * Candles per second of `backtestMartin` (median of `runs`, the default fill model: at the trigger, 0.05 %
 * slippage), and what one run made: fills, cycles and realised profit, with and without the slippage.
 */
export function measureBacktest(runs = 5): {
  candlesPerSecond: number;
  candles: number;
  fills: number;
  cycles: number;
  realized: string;
  atTriggerNoSlippage: { fills: number; cycles: number; realized: string };
} {
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
  let run = backtestMartin(view, cols);
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    run = backtestMartin(view, cols);
    rates.push(n / ((performance.now() - t) / 1000));
  }
  rates.sort((a, b) => a - b);
  const exact = backtestMartin(view, cols, { slippage: '0' });
  const round2 = (x: string) => Number(x).toFixed(2);
  return {
    candlesPerSecond: Math.round(rates[Math.floor(runs / 2)]!),
    candles: n,
    fills: run.fills.length,
    cycles: run.cycles,
    realized: round2(run.realized),
    atTriggerNoSlippage: { fills: exact.fills.length, cycles: exact.cycles, realized: round2(exact.realized) },
  };
}
