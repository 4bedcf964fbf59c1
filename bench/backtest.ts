// Backtest speed: one martin bot over a year of simulated 1-minute BTC candles (525,600), on one core.
import { money } from '../strategy/money.ts';
import { backtestMartin, type CandleColumns } from '../strategy/backtest.ts';
import { GENESIS_MS, SimulatedMarket } from '../server/market/simulated.ts';

/**
 * Candles per second of `backtestMartin` (median of `runs`, the default fill model: at the trigger, 0.05 %
 * slippage) on the candles' four prices and with their seconds' path (Paper's backtest), and what one run
 * made: fills, cycles and realised profit, with and without the slippage.
 */
export function measureBacktest(runs = 5): {
  candlesPerSecond: number;
  candles: number;
  fills: number;
  cycles: number;
  realized: string;
  atTriggerNoSlippage: { fills: number; cycles: number; realized: string };
  /** The same year with its seconds' path, as a Paper backtest reads it. */
  onTheSeconds: { candlesPerSecond: number; fills: number; cycles: number; realized: string };
} {
  const feed = new SimulatedMarket();
  const n = 525_600;
  // The year as the product's backtest reads Paper: the minutes and their seconds' path (CandlePath).
  const withPath = feed.minuteColumns('BTC/USDT', GENESIS_MS, GENESIS_MS + n * 60_000);
  const { path: _, ...cols } = withPath;
  const view = {
    params: { investment: '3100', firstOrder: '100', multiplier: '2', maxPositions: 5, addTrigger: '2', takeProfit: '1.5', repeat: true },
    market: { tickSize: money('0.01'), stepSize: money('0.00001'), minAmount: money('0.00001'), minCost: money('5'), feeRate: money('0.001') },
  };
  const rate = (candles: CandleColumns) => {
    const rates: number[] = [];
    for (let i = 0; i < runs; i++) {
      // Fresh columns each run: the walk's block ranges, kept beside the columns, are built inside the timing.
      const fresh = { ...candles, open: candles.open.slice(), high: candles.high.slice(), low: candles.low.slice(), close: candles.close.slice() };
      const t = performance.now();
      backtestMartin(view, fresh);
      rates.push(n / ((performance.now() - t) / 1000));
    }
    return Math.round(rates.sort((a, b) => a - b)[Math.floor(runs / 2)]!);
  };
  backtestMartin(view, cols); // warm-up
  const fourPrices = rate(cols);
  const seconds = rate(withPath);
  const run = backtestMartin(view, cols);
  const onSeconds = backtestMartin(view, withPath);
  const exact = backtestMartin(view, cols, { slippage: '0' });
  const round2 = (x: string) => Number(x).toFixed(2);
  return {
    candlesPerSecond: fourPrices,
    candles: n,
    fills: run.fills.length,
    cycles: run.cycles,
    realized: round2(run.realized),
    atTriggerNoSlippage: { fills: exact.fills.length, cycles: exact.cycles, realized: round2(exact.realized) },
    onTheSeconds: { candlesPerSecond: seconds, fills: onSeconds.fills.length, cycles: onSeconds.cycles, realized: round2(onSeconds.realized) },
  };
}
