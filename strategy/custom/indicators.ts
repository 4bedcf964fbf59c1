import type { IndicatorOperand } from './rules.ts';

/**
 * The indicators of the custom bot and of the market chart (server/market/indicators.ts), one `add` per
 * closed candle: each takes a close and answers its result, or null while it needs more closes.
 * Formulas: README.md "Indicators". The arithmetic is the trading-signals library's, operation for
 * operation (custom.test.ts compares every result with the library's, bit for bit), written here so that
 * an indicator's memory is plain data (`save`, `load`): a warm-up made in a worker thread comes back to
 * the engine as numbers (the library keeps its memory in private fields no thread can copy).
 */
export interface Stream<R = number> {
  add(close: number): R | null;
  /** Everything it remembers, as plain data (numbers, arrays of numbers, booleans). */
  save(): IndicatorMemory;
  /** Takes the memory `save` gave, of an indicator made with the same parameters. */
  load(memory: IndicatorMemory): void;
}
export type IndicatorMemory = Record<string, number | boolean | number[] | null>;

/** The library's average: the values summed in order from 0, divided by their count. */
function average(values: readonly number[]): number {
  let sum = 0;
  for (const x of values) sum += x;
  return sum / values.length;
}

/** A window of the last n closes, oldest first, as the library keeps one (push, then drop the oldest). */
function pushWindow(window: number[], close: number, n: number): void {
  window.push(close);
  if (window.length > n) window.shift();
}

/** The library's SMA: the window's average from the n-th close. */
class Sma implements Stream {
  prices: number[] = [];
  readonly n: number;
  constructor(n: number) {
    this.n = n;
  }
  add(c: number): number | null {
    pushWindow(this.prices, c, this.n);
    return this.prices.length === this.n ? average(this.prices) : null;
  }
  save(): IndicatorMemory {
    return { prices: [...this.prices] };
  }
  load(m: IndicatorMemory): void {
    this.prices = [...(m.prices as number[])];
  }
}

/** The library's EMA: started at its first input (`(x ?? x)`), then `x k + e (1 - k)`, k = 2 / (n + 1). */
class Ema {
  result: number | null = null;
  private readonly k: number;
  constructor(n: number) {
    this.k = 2 / (n + 1);
  }
  add(x: number): number {
    this.result = x * this.k + (this.result ?? x) * (1 - this.k);
    return this.result;
  }
}

/**
 * EMA seeded with the mean of the first n closes (the classic definition, and the chart's): the SMA of
 * the first n closes, then the EMA started at that mean (its first input is its first value) and fed
 * every close after.
 */
class SeededEma implements Stream {
  private readonly seed: Sma;
  private readonly ema: Ema;
  constructor(n: number) {
    this.seed = new Sma(n);
    this.ema = new Ema(n);
  }
  add(c: number): number | null {
    if (this.ema.result !== null) return this.ema.add(c);
    const mean = this.seed.add(c);
    return mean === null ? null : this.ema.add(mean);
  }
  save(): IndicatorMemory {
    return { prices: this.ema.result === null ? [...this.seed.prices] : [], result: this.ema.result };
  }
  load(m: IndicatorMemory): void {
    this.seed.load(m);
    this.ema.result = m.result as number | null;
  }
}

/**
 * The library's WSMA (Wilder's smoothing): the mean of the first n inputs, then `(x - w) x (1 / n) + w`.
 * The library goes on summing its window after the first mean; nothing reads that sum, so it is not kept.
 */
class Wsma {
  prices: number[] = [];
  result: number | null = null;
  readonly n: number;
  private readonly factor: number;
  constructor(n: number) {
    this.n = n;
    this.factor = 1 / n;
  }
  add(x: number): void {
    if (this.result !== null) {
      this.result = (x - this.result) * this.factor + this.result;
      return;
    }
    pushWindow(this.prices, x, this.n);
    if (this.prices.length === this.n) {
      this.result = average(this.prices);
      this.prices = [];
    }
  }
}

/** Wilder's RSI: the library's RSI with its default smoothing (WSMA). */
class Rsi implements Stream {
  private readonly gain: Wsma;
  private readonly loss: Wsma;
  /** The previous close (NaN: none yet). */
  private previous = Number.NaN;
  private readonly n: number;
  constructor(n: number) {
    this.n = n;
    this.gain = new Wsma(n);
    this.loss = new Wsma(n);
  }
  add(c: number): number | null {
    const previous = this.previous;
    this.previous = c;
    // The library keeps the last n closes and reads the one before this: with n = 1 there is none, ever.
    if (Number.isNaN(previous) || this.n < 2) return null;
    if (c > previous) {
      this.loss.add(0);
      this.gain.add(c - previous);
    } else {
      this.loss.add(previous - c);
      this.gain.add(0);
    }
    if (this.gain.result === null || this.loss.result === null) return null;
    if (this.loss.result === 0) return 100;
    const strength = this.gain.result / this.loss.result;
    return 100 - 100 / (strength + 1);
  }
  save(): IndicatorMemory {
    return { previous: this.previous, gains: [...this.gain.prices], gain: this.gain.result, losses: [...this.loss.prices], loss: this.loss.result };
  }
  load(m: IndicatorMemory): void {
    this.previous = m.previous as number;
    this.gain.prices = [...(m.gains as number[])];
    this.gain.result = m.gain as number | null;
    this.loss.prices = [...(m.losses as number[])];
    this.loss.result = m.loss as number | null;
  }
}

export interface Bands {
  upper: number;
  middle: number;
  lower: number;
}

/** The library's Bollinger bands: the window's average, +- k population standard deviations (its two-pass sums). */
class Bollinger implements Stream<Bands> {
  prices: number[] = [];
  readonly n: number;
  readonly deviation: number;
  constructor(n: number, deviation: number) {
    this.n = n;
    this.deviation = deviation;
  }
  add(c: number): Bands | null {
    pushWindow(this.prices, c, this.n);
    if (this.prices.length !== this.n) return null;
    const middle = average(this.prices);
    // The library averages again when the average is 0 (`average || getAverage(values)`): the same 0.
    const centre = middle || average(this.prices);
    let sum = 0;
    for (const x of this.prices) {
      const d = x - centre;
      sum += d * d;
    }
    const sd = Math.sqrt(sum / this.prices.length);
    return { lower: middle - sd * this.deviation, middle, upper: middle + sd * this.deviation };
  }
  save(): IndicatorMemory {
    return { prices: [...this.prices] };
  }
  load(m: IndicatorMemory): void {
    this.prices = [...(m.prices as number[])];
  }
}

export interface MacdLines {
  macd: number;
  signal: number;
  histogram: number;
}

/** The library's MACD over its EMAs (each started at its first input): the three lines from the slow-th close. */
class Macd implements Stream<MacdLines> {
  private readonly fast: Ema;
  private readonly slow: Ema;
  private readonly signal: Ema;
  /** Closes taken, up to the slow period. */
  private count = 0;
  private readonly slowPeriod: number;
  constructor(fast: number, slowPeriod: number, signal: number) {
    this.slowPeriod = slowPeriod;
    this.fast = new Ema(fast);
    this.slow = new Ema(slowPeriod);
    this.signal = new Ema(signal);
  }
  add(c: number): MacdLines | null {
    if (this.count < this.slowPeriod) this.count++;
    const fast = this.fast.add(c);
    const slow = this.slow.add(c);
    if (this.count < this.slowPeriod) return null;
    const macd = fast - slow;
    const signal = this.signal.add(macd);
    return { histogram: macd - signal, macd, signal };
  }
  save(): IndicatorMemory {
    return { count: this.count, fast: this.fast.result, slow: this.slow.result, signal: this.signal.result };
  }
  load(m: IndicatorMemory): void {
    this.count = m.count as number;
    this.fast.result = m.fast as number | null;
    this.slow.result = m.slow as number | null;
    this.signal.result = m.signal as number | null;
  }
}

/** The close's change over n candles in percent: the library's ROC (a fraction) x 100. */
class Change implements Stream {
  prices: number[] = [];
  readonly n: number;
  constructor(n: number) {
    this.n = n;
  }
  add(c: number): number | null {
    pushWindow(this.prices, c, this.n + 1);
    if (this.prices.length !== this.n + 1) return null;
    const before = this.prices[0]!;
    return ((c - before) / before) * 100;
  }
  save(): IndicatorMemory {
    return { prices: [...this.prices] };
  }
  load(m: IndicatorMemory): void {
    this.prices = [...(m.prices as number[])];
  }
}

export const smaStream = (n: number): Stream => new Sma(n);
export const emaStream = (n: number): Stream => new SeededEma(n);
export const rsiStream = (n: number): Stream => new Rsi(n);
export const bollingerStream = (n: number, deviation: number): Stream<Bands> => new Bollinger(n, deviation);
export const macdStream = (fast: number, slow: number, signal: number): Stream<MacdLines> => new Macd(fast, slow, signal);
export const changeStream = (n: number): Stream => new Change(n);

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
