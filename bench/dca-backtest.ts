// DCA backtest speed (target: >= 1 M candles/s): one DCA bot over a year of simulated
// 1-minute BTC candles (525,600), on one core, with a cooldown (read from the candles' times).
import { backtestDca } from '../strategy/dca/backtest.ts';
import type { DcaView } from '../strategy/dca/strategy.ts';
import { money } from '../strategy/money.ts';
import { GENESIS_MS, SimulatedMarket } from '../server/market/simulated.ts';

/**
 * Candles per second of `backtestDca` (median of `runs`; the default fill model: at the trigger, 0.05 %
 * slippage), and what one run made: fills, deals closed, realised profit.
 */
export function measureDcaBacktest(runs = 5): { candlesPerSecond: number; runs: number[]; candles: number; fills: number; deals: number; realized: string } {
  const feed = new SimulatedMarket();
  const n = 525_600;
  const candles = feed.candles('BTC/USDT', '1m', GENESIS_MS + n * 60_000 - 1, n);
  const cols = {
    time: Float64Array.from(candles, (c) => c.time),
    open: Float64Array.from(candles, (c) => Number(c.open)),
    high: Float64Array.from(candles, (c) => Number(c.high)),
    low: Float64Array.from(candles, (c) => Number(c.low)),
    close: Float64Array.from(candles, (c) => Number(c.close)),
  };
  const view: DcaView = {
    params: {
      investment: '2000',
      baseOrder: '100',
      safetyOrder: '50',
      maxSafetyOrders: 6,
      deviation: '1',
      stepScale: '1.4',
      volumeScale: '1.6',
      takeProfit: '1.5',
      stopLoss: '30',
      cooldown: 600,
      start: { kind: 'now' },
    },
    market: { tickSize: money('0.01'), stepSize: money('0.00001'), minAmount: money('0.00001'), minCost: money('5'), feeRate: money('0.001') },
  };
  const rates: number[] = [];
  let run = backtestDca(view, cols);
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    run = backtestDca(view, cols);
    rates.push(n / ((performance.now() - t) / 1000));
  }
  const sorted = [...rates].sort((a, b) => a - b);
  return {
    candlesPerSecond: Math.round(sorted[Math.floor(runs / 2)]!),
    runs: rates.map(Math.round),
    candles: n,
    fills: run.fills.length,
    deals: run.cycles,
    realized: Number(run.realized).toFixed(2),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(measureDcaBacktest());
