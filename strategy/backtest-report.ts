import type { BacktestAnswer } from '../contract/strategy.ts';
import { DEFAULT_SLIPPAGE, type BacktestFill, type CandleColumns, type FillModel } from './backtest.ts';
import type { Candle } from './custom/feed.ts';
import { money } from './money.ts';
import { averagePrice, type Fill } from './core/position.ts';

/**
 * What a backtest tells the trader before they start a bot: the exact realised profit
 * and cycles from the engine's own strategy (its kit's replay: `backtest`), and, marked to market at every candle's
 * close, the equity curve, the total return and the largest drawdown, with the fees paid. The curve and
 * drawdown are figures for the eye (doubles); the realised profit is the strategy's exact decimal.
 * Orders fill by the fill model (strategy/backtest.ts: at the trigger, the open on a gap, with the
 * slippage, default 0.05 %), which the report names.
 * The report is contract/strategy.ts BacktestAnswer without where and how it was asked; its fill model
 * says whether the bot's orders rested (FillModel.resting), which the answer names by the type.
 */
export type BacktestReport = Omit<BacktestAnswer, 'exchange' | 'symbol' | 'days' | 'timeframe' | 'fill'> & {
  fill: Omit<BacktestAnswer['fill'], 'resting'> & { resting: boolean };
};

/** What a bot's replay on candles left: its fills, its cycles closed, its exact realised profit and the position it still holds. */
export interface BacktestRun {
  fills: BacktestFill[];
  cycles: number;
  realized: string;
  open: { amount: string; average: string } | null;
}

/** Closed candles of each timeframe before the first one, for a bot whose indicators read them from its first candle on. */
export type WarmUpCandles = Partial<Record<string, readonly Candle[]>>;

/** A replay on candles as a bot type runs it (its kit's `backtest`): the same decide function on the path and fill model of backtest.ts. */
export type Replay<V> = (view: V, candles: CandleColumns & { time: Float64Array }, fill: FillModel, warmUp?: WarmUpCandles) => BacktestRun;

/** The report of any bot type's replay (`replay`: its kit's backtest). */
export function backtestReport<V>(
  replay: Replay<V>,
  view: V & { params: { investment: string }; market: { feeRate: { toString(): string }; makerFeeRate?: { toString(): string } | undefined } },
  candles: CandleColumns & { time: Float64Array },
  fill: FillModel = { slippage: DEFAULT_SLIPPAGE },
  points = 300,
  warmUp?: WarmUpCandles,
): BacktestReport {
  if (candles.close.length === 0) throw new RangeError('no candles');
  const { feeRate, makerFeeRate = feeRate } = view.market;
  return reportOf(replay(view, candles, fill, warmUp), view.params.investment, { taker: feeRate, maker: makerFeeRate }, candles, fill, points);
}

/** The position of a bot whose buys are its fills, as a report shows it. */
export function fillsOpen(fills: readonly Fill[]): BacktestRun['open'] {
  return fills.length > 0 ? { amount: fills.reduce((s, f) => s.plus(f.amount), money(0)).toFixed(), average: averagePrice(fills).toDecimalPlaces(8).toFixed() } : null;
}

/** Marks the fills to market at every close: equity, drawdown, fees, return. */
function reportOf(
  run: BacktestRun,
  investmentText: string,
  feeRates: { taker: { toString(): string }; maker: { toString(): string } },
  candles: CandleColumns & { time: Float64Array },
  fill: FillModel,
  points: number,
): BacktestReport {
  const n = candles.close.length;
  const taker = Number(feeRates.taker.toString());
  const maker = Number(feeRates.maker.toString());
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
      const fee = f.maker ? maker : taker;
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
    fill: { price: 'trigger', slippage: fill.slippage, seconds: candles.path !== undefined, resting: fill.resting === true },
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
