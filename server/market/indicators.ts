import { emaStream, rsiStream, smaStream, type Stream } from '../../strategy/custom/indicators.ts';

/**
 * Chart indicators over closes, oldest first: one value per close, null until there are
 * enough closes. Computed by the trading-signals library through the custom bot's own streams
 * (strategy/custom/indicators.ts; formulas in strategy/custom/README.md), so the chart shows what a
 * custom bot reads. Figures for the eye (doubles, 8 significant digits), never for orders.
 */
export const indicatorNames = ['ma20', 'ema20', 'rsi14'] as const;
export type IndicatorName = (typeof indicatorNames)[number];

const round = (x: number) => Number(x.toPrecision(8));
const run = (stream: Stream, closes: readonly number[]) =>
  closes.map((c) => {
    const r = stream.add(c);
    return r === null ? null : round(r);
  });

/** The mean of the last n closes, from the n-th close (the library sums the window each time). */
export const sma = (closes: readonly number[], n: number) => run(smaStream(n), closes);
/** The EMA seeded with the first n closes' mean, then weighing each close by 2 / (n + 1). */
export const ema = (closes: readonly number[], n: number) => run(emaStream(n), closes);
/** Wilder's RSI: gains and losses averaged over the first n changes, then smoothed by 1/n. */
export const rsi = (closes: readonly number[], n: number) => run(rsiStream(n), closes);

export function indicator(name: IndicatorName, closes: readonly number[]): (number | null)[] {
  if (name === 'ma20') return sma(closes, 20);
  if (name === 'ema20') return ema(closes, 20);
  return rsi(closes, 14);
}
