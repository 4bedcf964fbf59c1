import { BollingerBands, EMA, MACD, ROC, RSI, SMA } from 'trading-signals';
import type { IndicatorOperand } from './rules.ts';

/**
 * The indicators of the custom bot and of the market chart (server/market/indicators.ts), from the
 * trading-signals library's number classes, one `add` per closed candle. Each stream takes a close and
 * answers its result, or null while it needs more closes. Formulas: README.md "Indicators".
 */
export type Stream<R = number> = (close: number) => R | null;

export function smaStream(n: number): Stream {
  const x = new SMA(n);
  return (c) => x.add(c);
}

/**
 * EMA seeded with the mean of the first n closes (the classic definition, and the chart's since issue 6):
 * the library's SMA for the first n closes, then the library's EMA started at that mean (its first
 * input is its first value) and fed every close after.
 */
export function emaStream(n: number): Stream {
  const seed = new SMA(n);
  const x = new EMA(n);
  let started = false;
  return (c) => {
    if (started) return x.add(c);
    const mean = seed.add(c);
    if (mean === null) return null;
    started = true;
    return x.add(mean);
  };
}

/** Wilder's RSI (the library's RSI with its default smoothing, WSMA). */
export function rsiStream(n: number): Stream {
  const x = new RSI(n);
  return (c) => x.add(c);
}

export interface Bands {
  upper: number;
  middle: number;
  lower: number;
}
export function bollingerStream(n: number, deviation: number): Stream<Bands> {
  const x = new BollingerBands(n, deviation);
  return (c) => x.add(c);
}

export interface MacdLines {
  macd: number;
  signal: number;
  histogram: number;
}
/** MACD over the library's EMAs (each started at its first input; the three lines from the slow-th close). */
export function macdStream(fast: number, slow: number, signal: number): Stream<MacdLines> {
  const x = new MACD(new EMA(fast), new EMA(slow), new EMA(signal));
  return (c) => x.add(c);
}

/** The close's change over n candles in percent: the library's ROC (a fraction) x 100. */
export function changeStream(n: number): Stream {
  const x = new ROC(n);
  return (c) => {
    const r = x.add(c);
    return r === null ? null : r * 100;
  };
}

/** The stream an operand reads (the bands of one Bollinger and the lines of one MACD share one). */
export function indicatorOf(o: IndicatorOperand): Stream<unknown> {
  switch (o.kind) {
    case 'sma':
      return smaStream(o.period);
    case 'ema':
      return emaStream(o.period);
    case 'rsi':
      return rsiStream(o.period);
    case 'bb':
      return bollingerStream(o.period, Number(o.deviation));
    case 'macd':
      return macdStream(o.fast, o.slow, o.signal);
    case 'change':
      return changeStream(o.period);
  }
}

/** How an operand takes its number from its stream's result. */
export function picker(o: IndicatorOperand): (result: never) => number {
  if (o.kind === 'bb') {
    const band = o.band;
    return (r: Bands) => r[band];
  }
  if (o.kind === 'macd') {
    const line = o.line;
    return (r: MacdLines) => r[line];
  }
  return (r: number) => r;
}

/**
 * Closed candles an operand's indicator needs before a live bot trusts it as a backtest that started
 * long before: until its first value, and for those with memory (EMA, MACD: weight (1 - 2/(n + 1))^k
 * of what came before; RSI: (1 - 1/n)^k) until the start point weighs under e^-10 (5n and 10n more).
 */
export function warmUpOf(o: IndicatorOperand): number {
  switch (o.kind) {
    case 'sma':
    case 'bb':
      return o.period;
    case 'change':
      return o.period + 1;
    case 'ema':
      return 6 * o.period;
    case 'rsi':
      return 11 * o.period + 1;
    case 'macd':
      return o.slow + 5 * Math.max(o.slow, o.signal);
  }
}
