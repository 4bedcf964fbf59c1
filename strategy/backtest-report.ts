import type { BacktestAnswer } from '../contract/schemas.ts';
import { backtestMartin, DEFAULT_SLIPPAGE, type BacktestFill, type CandleColumns, type FillModel } from './backtest.ts';
import { backtestGrid } from './grid/backtest.ts';
import { backtestDca } from './dca/backtest.ts';
import type { DcaView } from './dca/strategy.ts';
import { backtestCustom } from './custom/backtest.ts';
import type { Candle } from './custom/feed.ts';
import type { CustomView } from './custom/strategy.ts';
import type { GridView } from './grid/strategy.ts';
import { money } from './money.ts';
import { averagePrice } from './martin/plan.ts';
import type { MartinView } from './martin/strategy.ts';

/**
 * What a backtest tells the trader before they start a bot: the exact realised profit
 * and cycles from the engine's own strategy (backtestMartin), and, marked to market at every candle's
 * close, the equity curve, the total return and the largest drawdown, with the fees paid. The curve and
 * drawdown are figures for the eye (doubles); the realised profit is the strategy's exact decimal.
 * Orders fill by the fill model (strategy/backtest.ts: at the trigger, the open on a gap, with the
 * slippage, default 0.05 %), which the report names.
 * The report is contract/schemas.ts BacktestAnswer without where and how it was asked.
 */
export type BacktestReport = Omit<BacktestAnswer, 'exchange' | 'symbol' | 'days' | 'timeframe'>;

export function martinReport(view: MartinView, candles: CandleColumns & { time: Float64Array }, fill: FillModel = { slippage: DEFAULT_SLIPPAGE }, points = 300): BacktestReport {
  if (candles.close.length === 0) throw new RangeError('no candles');
  const result = backtestMartin(view, candles, fill);
  const openFills = result.state.fills;
  const open = openFills.length > 0 ? { amount: openFills.reduce((s, f) => s.plus(f.amount), money(0)).toFixed(), average: averagePrice(openFills).toDecimalPlaces(8).toFixed() } : null;
  return reportOf({ fills: result.fills, realized: result.realized, cycles: result.cycles, open }, view.params.investment, view.market.feeRate, candles, fill, points);
}

/** The same report for a grid bot: its cycles are the grids completed, its open position the base it holds. */
export function gridReport(view: GridView, candles: CandleColumns & { time: Float64Array }, fill: FillModel = { slippage: DEFAULT_SLIPPAGE }, points = 300): BacktestReport {
  if (candles.close.length === 0) throw new RangeError('no candles');
  const result = backtestGrid(view, candles, fill);
  const sells = result.state.orders.filter((o) => o?.side === 'sell');
  const amount = sells.reduce((s, o) => s.plus(o!.amount), money(0));
  const cost = sells.reduce((s, o) => s.plus(o!.cost), money(0));
  const open = amount.gt(0) ? { amount: amount.toFixed(), average: cost.div(amount).toDecimalPlaces(8).toFixed() } : null;
  return reportOf({ fills: result.fills, realized: result.realized, cycles: result.trades, open }, view.params.investment, view.market.feeRate, candles, fill, points);
}

/**
 * The same report for a DCA bot: its cycles are the deals closed, its open position the open deal's buys;
 * `warmUp`, an indicator start's candles before the first one (dca/backtest.ts).
 */
export function dcaReport(
  view: DcaView,
  candles: CandleColumns & { time: Float64Array },
  fill: FillModel = { slippage: DEFAULT_SLIPPAGE },
  points = 300,
  warmUp?: Partial<Record<string, readonly Candle[]>>,
): BacktestReport {
  if (candles.close.length === 0) throw new RangeError('no candles');
  const result = backtestDca(view, candles, fill, warmUp);
  const openFills = result.state.fills;
  const open = openFills.length > 0 ? { amount: openFills.reduce((s, f) => s.plus(f.amount), money(0)).toFixed(), average: averagePrice(openFills).toDecimalPlaces(8).toFixed() } : null;
  return reportOf({ fills: result.fills, realized: result.realized, cycles: result.cycles, open }, view.params.investment, view.market.feeRate, candles, fill, points);
}

/**
 * The same report for a custom bot, on 1-minute candles: its cycles are the positions closed, its open
 * position the buys of the one it holds; `warmUp`: closed candles of its timeframes before the first
 * minute (custom/backtest.ts), so its indicators read from the first candle on.
 */
export function customReport(
  view: CustomView,
  candles: CandleColumns & { time: Float64Array },
  fill: FillModel = { slippage: DEFAULT_SLIPPAGE },
  warmUp?: Partial<Record<string, readonly Candle[]>>,
  points = 300,
): BacktestReport {
  if (candles.close.length === 0) throw new RangeError('no candles');
  const result = backtestCustom(view, candles, fill, warmUp);
  const openFills = result.state.fills;
  const open = openFills.length > 0 ? { amount: openFills.reduce((s, f) => s.plus(f.amount), money(0)).toFixed(), average: averagePrice(openFills).toDecimalPlaces(8).toFixed() } : null;
  return reportOf({ fills: result.fills, realized: result.realized, cycles: result.cycles, open }, view.params.investment, view.market.feeRate, candles, fill, points);
}

/** Marks the fills to market at every close: equity, drawdown, fees, return. */
function reportOf(
  run: { fills: BacktestFill[]; realized: string; cycles: number; open: { amount: string; average: string } | null },
  investmentText: string,
  feeRate: { toString(): string },
  candles: CandleColumns & { time: Float64Array },
  fill: FillModel,
  points: number,
): BacktestReport {
  const n = candles.close.length;
  const fee = Number(feeRate.toString());
  const investment = Number(investmentText);
  let cash = investment;
  let held = 0;
  let fees = 0;
  let peak = investment;
  let maxDrawdown = 0;
  let next = 0;
  const every = Math.max(1, Math.ceil(n / points));
  const equity: BacktestReport['equity'] = [];
  const fills = run.fills;
  const close = candles.close;
  const blocks = closeRanges(close);
  const time = candles.time;
  const point = (j: number, value: number) => equity.push({ time: time[j]!, value: round(value, 4) });
  // The next candle sampled for the curve (every `every`-th, and the last).
  let sample = 0;
  let i = 0;
  while (i < n) {
    for (; next < fills.length && fills[next]!.candle <= i; next++) {
      const f = fills[next]!;
      const value = Number(f.price) * Number(f.amount);
      fees += value * fee;
      if (f.side === 'buy') {
        cash -= value;
        held += Number(f.amount) * (1 - fee);
      } else {
        cash += value * (1 - fee);
        held -= Number(f.amount);
      }
    }
    // Up to the next fill, cash and holdings stay as they are.
    const until = next < fills.length ? fills[next]!.candle : n;
    while (i < until) {
      if ((i & BLOCK_MASK) === 0 && i + BLOCK <= until) {
        // The value is cash + held x close, monotone in the close, so its extremes are at the block's
        // lowest and highest close. When none can pass the peak, each candle would only have measured
        // its fall from the peak, the largest at the lowest value: the same figure, once.
        const b = i >> BLOCK_BITS;
        const top = cash + held * (held >= 0 ? blocks.high[b]! : blocks.low[b]!);
        if (!(top > peak)) {
          const bottom = cash + held * (held >= 0 ? blocks.low[b]! : blocks.high[b]!);
          if (peak > 0) maxDrawdown = Math.max(maxDrawdown, (peak - bottom) / peak);
          for (; sample < i + BLOCK; sample += every) point(sample, cash + held * close[sample]!);
          if (i + BLOCK === n && (n - 1) % every !== 0) point(n - 1, cash + held * close[n - 1]!);
          i += BLOCK;
          continue;
        }
      }
      const value = cash + held * close[i]!;
      if (value > peak) peak = value;
      else if (peak > 0 && (peak - value) / peak > maxDrawdown) maxDrawdown = (peak - value) / peak;
      if (i === sample) {
        point(i, value);
        sample += every;
      } else if (i === n - 1) point(i, value);
      i++;
    }
  }
  const end = cash + held * candles.close[n - 1]!;
  return {
    from: candles.time[0]!,
    to: candles.time[n - 1]! + (n > 1 ? candles.time[1]! - candles.time[0]! : 60_000),
    candles: n,
    startPrice: candles.open[0]!,
    endPrice: candles.close[n - 1]!,
    investment: investmentText,
    realized: run.realized,
    returnPct: round(((end - investment) / investment) * 100, 2),
    maxDrawdownPct: round(maxDrawdown * 100, 2),
    priceChangePct: round(((candles.close[n - 1]! - candles.open[0]!) / candles.open[0]!) * 100, 2),
    cycles: run.cycles,
    fills: fills.length,
    fees: round(fees, 4),
    open: run.open ? { ...run.open, value: round(held * candles.close[n - 1]!, 4) } : null,
    equity,
    fill: { price: 'trigger', slippage: fill.slippage, seconds: candles.path !== undefined },
  };
}

const BLOCK_BITS = 4;
const BLOCK = 1 << BLOCK_BITS;
const BLOCK_MASK = BLOCK - 1;
const closeRangesOf = new WeakMap<Float64Array, { low: Float64Array; high: Float64Array }>();

/** The lowest and highest close of each aligned block of 16 candles (a partial last block has none), kept beside the closes: the search reports hundreds of runs on the same candles. */
function closeRanges(close: Float64Array): { low: Float64Array; high: Float64Array } {
  const known = closeRangesOf.get(close);
  if (known) return known;
  const low = new Float64Array(close.length >> BLOCK_BITS);
  const high = new Float64Array(low.length);
  for (let b = 0; b < low.length; b++) {
    let lo = Infinity;
    let hi = -Infinity;
    for (let i = b << BLOCK_BITS, end = i + BLOCK; i < end; i++) {
      const c = close[i]!;
      if (c < lo) lo = c;
      if (c > hi) hi = c;
    }
    low[b] = lo;
    high[b] = hi;
  }
  const ranges = { low, high };
  closeRangesOf.set(close, ranges);
  return ranges;
}

const round = (x: number, places: number) => Math.round(x * 10 ** places) / 10 ** places;
