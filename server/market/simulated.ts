import type { CandleData } from '../../contract/market.ts';
import type { CandleColumns, CandlePath } from '../../strategy/backtest.ts';
import { hashMore, hashString, normal, seeded } from './random.ts';
import { simSymbols, timeframes, type SimSymbol, type Timeframe } from './symbols.ts';

/** The simulated market starts on this day; any time after it can be asked for. */
export const GENESIS_MS = Date.UTC(2024, 0, 1);
const DAY_MS = 86_400_000;
const MINUTES = 1440;

/** The seconds of a run of minutes (minutePath), and the market that makes them (a search worker makes them again). */
export interface MinutePath extends CandlePath {
  readonly source: { seed: number; symbol: string };
}

/** A candle as the API answers it (contract/market.ts): open time in ms, exact decimal strings. */
export type Candle = CandleData;

interface Day {
  /** Log price at each minute boundary: [0] the day's open, [1440] the next day's open. */
  boundary: Float64Array;
  /** Log high and low of each minute. */
  high: Float64Array;
  low: Float64Array;
  volume: Float64Array;
}

const decimalsOf = (tick: string) => (tick.split('.')[1] ?? '').length;

/** One minute's path of seconds (SimulatedMarket.priceAt). */
interface MinuteTrace {
  /** The hash of the minute's key, which each second's jitter seed continues. */
  key: number;
  /** The corners: (second, log price): the open, the first extreme, the other, the close (second 59, where the next minute opens). */
  times: readonly number[];
  logs: readonly number[];
  high: number;
  low: number;
  lowFirst: boolean;
  decimals: number;
}

/** The most minutes whose seconds a path keeps (62 doubles each: 4 MB at most), the oldest dropped first. */
const PATH_ROWS = 8192;

/** `:0` to `:59`, a second's part of its jitter key. */
const SECOND_SUFFIX = Array.from({ length: 60 }, (_, s) => `:${s}`);

/**
 * A seeded, offline market: the default feed for the Paper exchange and for backtests. Prices follow a
 * daily random walk with trending regimes and mild mean reversion (so years of history stay realistic),
 * bridged minute by minute inside each day, so any moment's price and any candle are the same on every
 * call and every machine (a pure function of seed, symbol and time) and cost O(one day) to compute.
 */
export class SimulatedMarket {
  readonly seed: number;
  private readonly anchors = new Map<string, number[]>();
  private readonly days = new Map<string, Day>();

  constructor(seed = 56) {
    this.seed = seed;
  }

  symbols(): readonly SimSymbol[] {
    return simSymbols;
  }

  info(symbol: string): SimSymbol {
    const s = simSymbols.find((x) => x.symbol === symbol);
    if (!s) throw new RangeError(`unknown symbol ${symbol}`);
    return s;
  }

  /**
   * The price at a moment (ms), as a decimal string rounded to the symbol's tick. The seconds of a
   * minute trace its candle, so a bot that reads them sees the prices a backtest on the candles sees:
   * second 0 is the open; the low and the high are reached at two seeded seconds (one in 1-29, the
   * other in 30-58, which of them first is seeded too), straight lines join them and run on to the
   * close, reached at second 59 (the next minute opens there: a candle's last price is its close, as a
   * bot building candles from the seconds reads it), with a small seeded jitter (±2.5 % of the candle's
   * range) that stays inside it.
   */
  priceAt(symbol: string, ms: number): string {
    const info = this.info(symbol);
    const { day, minute, into } = this.locate(ms);
    return this.secondOf(this.trace(info, day, minute), Math.floor(into / 1000));
  }

  /** A minute's path (priceAt): its corners, its range, and its key's hash, which each second's jitter continues. */
  private trace(info: SimSymbol, day: number, minute: number): MinuteTrace {
    const d = this.day(info, day);
    const key = hashString(`${this.seed}:${info.symbol}:${day}:${minute}`);
    const shape = seeded(key);
    const first = 1 + Math.floor(shape() * 29);
    const then = 30 + Math.floor(shape() * 29);
    const lowFirst = shape() < 0.5;
    const high = d.high[minute]!;
    const low = d.low[minute]!;
    return {
      key,
      times: [0, first, then, 59],
      logs: [d.boundary[minute]!, lowFirst ? low : high, lowFirst ? high : low, d.boundary[minute + 1]!],
      high,
      low,
      lowFirst,
      decimals: decimalsOf(info.tick),
    };
  }

  /** The price at a second (0-59) of a minute's path, rounded to the tick. */
  private secondOf(t: MinuteTrace, second: number): string {
    const { times, logs } = t;
    let k = 0;
    while (second > times[k + 1]!) k++;
    const t0 = times[k]!;
    const t1 = times[k + 1]!;
    let log = logs[k]! + ((logs[k + 1]! - logs[k]!) * (second - t0)) / (t1 - t0);
    if (second !== t0 && second !== t1) {
      // The seed of `${seed}:${symbol}:${day}:${minute}:${second}`, its prefix hashed once.
      const rand = seeded(hashMore(t.key, SECOND_SUFFIX[second]!));
      log = Math.min(t.high, Math.max(t.low, log + (rand() - 0.5) * (t.high - t.low) * 0.05));
    }
    return Math.exp(log).toFixed(t.decimals);
  }

  /**
   * What a backtest of the 1-minute candles opened at `time` may know of their seconds (a CandlePath):
   * the order of each minute's low and high, and the price a second after the walk reached a trigger,
   * read from the same seconds the live engine's price rounds read (priceAt), so that a backtest on
   * this market re-opens a cycle where the engine does.
   */
  minutePath(symbol: string, time: Float64Array): MinutePath {
    const info = this.info(symbol);
    const lowFirst = new Uint8Array(time.length);
    for (let i = 0; i < time.length; i++) {
      const { day, minute } = this.locate(time[i]!);
      lowFirst[i] = this.trace(info, day, minute).lowFirst ? 1 : 0;
    }
    // The seconds read, kept for the minutes asked for most recently (a search walks the same minutes
    // hundreds of times; a single walk touches only the minutes where a trigger was reached).
    const rows = new Map<number, Float64Array>();
    // The trace of the minute read last, and of the one before it (a scan reads one minute and the next's open).
    const traced: { at: number; trace: MinuteTrace }[] = [];
    const traceOf = (at: number) => {
      for (const t of traced) if (t.at === at) return t.trace;
      const { day, minute } = this.locate(at);
      const trace = this.trace(info, day, minute);
      traced.unshift({ at, trace });
      if (traced.length > 2) traced.pop();
      return trace;
    };
    return {
      lowFirst,
      source: { seed: this.seed, symbol },
      second: (i, s) => {
        let row = rows.get(i);
        if (!row) {
          row = new Float64Array(62).fill(Number.NaN);
          rows.set(i, row);
          if (rows.size > PATH_ROWS) rows.delete(rows.keys().next().value!);
        }
        let price = row[s]!;
        if (Number.isNaN(price)) {
          price = Number(this.secondOf(traceOf(time[i]! + (s < 60 ? 0 : 60_000)), s % 60));
          row[s] = price;
        }
        return price;
      },
    };
  }

  /**
   * The candles as they stand at `nowMs`, for a chart beside the price of that moment: candles(), but the
   * one still forming ends at that second's price (priceAt, the ticker's), its high and low the extremes
   * of the seconds up to it. candles() gives the whole minute that holds `nowMs`, whose close and range
   * lie up to a minute ahead: a chart drawn from it disagreed with the price shown above it.
   */
  candlesAt(symbol: string, timeframe: Timeframe, nowMs: number, limit: number): Candle[] {
    const out = this.candles(symbol, timeframe, nowMs, limit);
    const last = out.at(-1);
    if (!last) return out;
    const info = this.info(symbol);
    const { day, minute, into } = this.locate(nowMs);
    const second = Math.floor(into / 1000);
    const minuteOpen = nowMs - into;
    // The forming candle's minutes before this one, whole; this minute up to its second.
    const before = minuteOpen > last.time ? this.candle(info, last.time, minuteOpen) : undefined;
    const trace = this.trace(info, day, minute);
    const seconds = Array.from({ length: second + 1 }, (_, s) => this.secondOf(trace, s));
    const close = seconds.at(-1)!;
    const numbers = seconds.map(Number);
    const high = Math.max(...numbers, before ? Number(before.high) : -Infinity);
    const low = Math.min(...numbers, before ? Number(before.low) : Infinity);
    const dp = decimalsOf(info.tick);
    const volume = (before ? Number(before.volume) : 0) + (this.day(info, day).volume[minute]! * (second + 1)) / 60;
    out[out.length - 1] = { time: last.time, open: before ? before.open : seconds[0]!, high: high.toFixed(dp), low: low.toFixed(dp), close, volume: volume.toFixed(4) };
    return out;
  }

  /** The last `limit` candles of a timeframe up to and including the one that contains `endMs` (it may be open). */
  candles(symbol: string, timeframe: Timeframe, endMs: number, limit: number): Candle[] {
    const info = this.info(symbol);
    const span = timeframes[timeframe];
    const lastOpen = Math.floor((endMs - GENESIS_MS) / span) * span + GENESIS_MS;
    const out: Candle[] = [];
    for (let t = Math.max(GENESIS_MS, lastOpen - (limit - 1) * span); t <= lastOpen; t += span) {
      out.push(this.candle(info, t, Math.min(t + span, endMs + 1)));
    }
    return out;
  }

  /**
   * The 1-minute candles of [fromMs, toMs) as columns of numbers rounded to the tick, for backtests
   * (no strings, no objects: 43,200 minutes of a 30-day window in milliseconds). `time` is each open;
   * `path`, what the seconds add (minutePath).
   */
  minuteColumns(symbol: string, fromMs: number, toMs: number): CandleColumns & { time: Float64Array; path: MinutePath } {
    const info = this.info(symbol);
    const scale = 10 ** decimalsOf(info.tick);
    const round = (log: number) => Math.round(Math.exp(log) * scale) / scale;
    const start = Math.max(GENESIS_MS, Math.floor((fromMs - GENESIS_MS) / 60_000) * 60_000 + GENESIS_MS);
    const n = Math.max(0, Math.floor((toMs - start) / 60_000));
    const out = { time: new Float64Array(n), open: new Float64Array(n), high: new Float64Array(n), low: new Float64Array(n), close: new Float64Array(n) };
    for (let i = 0; i < n; i++) {
      const t = start + i * 60_000;
      const { day, minute } = this.locate(t);
      const d = this.day(info, day);
      out.time[i] = t;
      out.open[i] = round(d.boundary[minute]!);
      out.close[i] = round(d.boundary[minute + 1]!);
      out.high[i] = round(d.high[minute]!);
      out.low[i] = round(d.low[minute]!);
    }
    return { ...out, path: this.minutePath(info.symbol, out.time) };
  }

  /** One candle from `from` (inclusive) to `to` (exclusive), built from whole minutes. */
  private candle(info: SimSymbol, from: number, to: number): Candle {
    const dp = decimalsOf(info.tick);
    let open = NaN;
    let close = NaN;
    let high = -Infinity;
    let low = Infinity;
    let volume = 0;
    for (let t = from; t < to; t += 60_000) {
      const { day, minute } = this.locate(t);
      const d = this.day(info, day);
      if (Number.isNaN(open)) open = d.boundary[minute]!;
      close = d.boundary[minute + 1]!;
      high = Math.max(high, d.high[minute]!);
      low = Math.min(low, d.low[minute]!);
      volume += d.volume[minute]!;
    }
    const p = (log: number) => Math.exp(log).toFixed(dp);
    return { time: from, open: p(open), high: p(high), low: p(low), close: p(close), volume: volume.toFixed(4) };
  }

  private locate(ms: number): { day: number; minute: number; into: number } {
    if (ms < GENESIS_MS) throw new RangeError('before the simulated market began');
    const sinceGenesis = ms - GENESIS_MS;
    const day = Math.floor(sinceGenesis / DAY_MS);
    const inDay = sinceGenesis - day * DAY_MS;
    const minute = Math.floor(inDay / 60_000);
    return { day, minute, into: inDay - minute * 60_000 };
  }

  /** Log price at the start of each day, extended on demand: a walk with regimes and mean reversion. */
  private anchor(info: SimSymbol, day: number): number {
    let list = this.anchors.get(info.symbol);
    if (!list) {
      list = [Math.log(info.start)];
      this.anchors.set(info.symbol, list);
    }
    const home = Math.log(info.start);
    const sigma = info.vol / Math.sqrt(365);
    while (list.length <= day + 1) {
      const d = list.length - 1;
      const rand = seeded(hashString(`${this.seed}:${info.symbol}:anchor:${d}`));
      // A regime lasts weeks: its direction is drawn once per 21-day block.
      const regime = seeded(hashString(`${this.seed}:${info.symbol}:regime:${Math.floor(d / 21)}`))() * 3;
      const drift = (regime < 1 ? -0.35 : regime < 2 ? 0 : 0.35) * sigma;
      const prev = list[d]!;
      list.push(prev + drift - 0.01 * (prev - home) + sigma * normal(rand));
    }
    return list[day]!;
  }

  private day(info: SimSymbol, day: number): Day {
    const key = `${info.symbol}:${day}`;
    const cached = this.days.get(key);
    if (cached) return cached;
    const a = this.anchor(info, day);
    const b = this.anchor(info, day + 1);
    const rand = seeded(hashString(`${this.seed}:${info.symbol}:day:${day}`));
    const sigma = info.vol / Math.sqrt(365 * MINUTES);
    // A Brownian bridge from today's anchor to tomorrow's: continuous across days by construction.
    const walk = new Float64Array(MINUTES + 1);
    for (let k = 1; k <= MINUTES; k++) walk[k] = walk[k - 1]! + sigma * normal(rand);
    const boundary = new Float64Array(MINUTES + 1);
    for (let k = 0; k <= MINUTES; k++) boundary[k] = a + walk[k]! - (k / MINUTES) * (walk[MINUTES]! - (b - a));
    const high = new Float64Array(MINUTES);
    const low = new Float64Array(MINUTES);
    const volume = new Float64Array(MINUTES);
    for (let k = 0; k < MINUTES; k++) {
      const o = boundary[k]!;
      const c = boundary[k + 1]!;
      high[k] = Math.max(o, c) + Math.abs(normal(rand)) * sigma * 0.6;
      low[k] = Math.min(o, c) - Math.abs(normal(rand)) * sigma * 0.6;
      volume[k] = (1000 / info.start) * Math.exp(normal(rand) * 0.5) * (1 + Math.abs(c - o) / sigma);
    }
    const result = { boundary, high, low, volume };
    if (this.days.size > 400) this.days.delete(this.days.keys().next().value!);
    this.days.set(key, result);
    return result;
  }
}

/**
 * Whether a feed makes its candles as the simulated market does (a pure function of its seed), so a
 * worker thread can make them again from the seed: a test's subclass that sets prices by hand makes
 * its candles differently only if it overrides these.
 */
export function isPlainSimulation(feed: SimulatedMarket): boolean {
  return feed.minuteColumns === SimulatedMarket.prototype.minuteColumns && feed.candles === SimulatedMarket.prototype.candles;
}
