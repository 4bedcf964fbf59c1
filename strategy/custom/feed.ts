import { indicatorOf, picker, warmUpOf, type IndicatorMemory, type Stream } from './indicators.ts';
import { timeframeMs, type Condition, type CustomParams, type IndicatorOperand, type Operand, type Rule, type Timeframe } from './rules.ts';

/** A candle as the feed reads it: its open time (ms since the epoch, UTC) and prices as doubles. */
export interface Candle {
  time: number;
  open: number;
  high: number;
  low: number;
  close: number;
}

export const MINUTE = 60_000;

/** One indicator over a timeframe's closes, and the operands that read its result. */
interface Slot {
  /** Takes a close; answers the result, or null while the indicator needs more closes. */
  stream: Stream<unknown>;
  /** The operands that read it: where their value goes in `values`, and how to take it from the result. */
  readers: { index: number; pick: (result: never) => number }[];
}

/** The key of the library object an operand reads: the bands of one Bollinger and the lines of one MACD share it. */
function slotKey(o: IndicatorOperand): string {
  switch (o.kind) {
    case 'bb':
      return `bb:${o.period}:${o.deviation}:${o.timeframe}`;
    case 'macd':
      return `macd:${o.fast}:${o.slow}:${o.signal}:${o.timeframe}`;
    default:
      return `${o.kind}:${o.period}:${o.timeframe}`;
  }
}

/**
 * The warm-up a loaded or new live bot needs: per timeframe its conditions read, how many closed candles
 * of that timeframe to seed its feed with (CustomFeed.seed), the most any of its indicators needs.
 */
export function warmUpCandles(params: Pick<CustomParams, 'entry' | 'exit'>): Partial<Record<Timeframe, number>> {
  const out: Partial<Record<Timeframe, number>> = {};
  for (const c of [...params.entry.conditions, ...(params.exit?.conditions ?? [])])
    for (const o of [c.left, c.right]) if (o.kind !== 'price' && o.kind !== 'value') out[o.timeframe] = Math.max(out[o.timeframe] ?? 0, warmUpOf(o));
  return out;
}

/**
 * What a bot's indicators cost to keep: the closed candles each distinct indicator of its rules needs
 * (warmUpOf: its period, more for EMA, RSI and MACD, which remember), added over the indicators, so over
 * periods and timeframes. Its warm-up feeds that many candles through them, and every closed candle
 * moves them all: a trader's running bots share a budget of it (the server's INDICATOR_BUDGET).
 */
export function indicatorCost(params: Pick<CustomParams, 'entry' | 'exit'>): number {
  const seen = new Set<string>();
  let cost = 0;
  for (const c of [...params.entry.conditions, ...(params.exit?.conditions ?? [])])
    for (const o of [c.left, c.right]) {
      if (o.kind === 'price' || o.kind === 'value' || seen.has(slotKey(o))) continue;
      seen.add(slotKey(o));
      cost += warmUpOf(o);
    }
  return cost;
}

/** A timeframe's candles and indicators as plain data (CustomFeed.save). */
interface SeriesMemory {
  bucket: number;
  open: number;
  high: number;
  low: number;
  close: number;
  from: number;
  slots: IndicatorMemory[];
}

/** A feed as plain data (CustomFeed.save, load). */
export interface FeedMemory {
  rules: string;
  values: number[];
  last: number;
  price: number;
  entryHolds: boolean;
  exitHolds: boolean;
  minute: Candle | null;
  series: SeriesMemory[];
  /** Each condition's sides at its last check and whether it held (1), entry's then exit's. */
  conditions: number[][];
}

/**
 * One timeframe's candles built from 1-minute candles, UTC-aligned: the bucket of a minute starting at
 * t is floor(t / length) x length. A bucket closes with its last minute, or, when minutes are missing,
 * when a minute of a later bucket arrives; its close goes to the timeframe's indicators.
 */
class TimeframeSeries {
  readonly ms: number;
  readonly slots: Slot[] = [];
  /** The open bucket's start (NaN: none open), and its prices. */
  bucket = Number.NaN;
  open = 0;
  high = 0;
  low = 0;
  close = 0;
  /** Minutes before this are already in (seeded with this timeframe's own candles). */
  from = -Infinity;

  constructor(ms: number) {
    this.ms = ms;
  }

  /** A closed 1-minute candle; true when it closed a candle of this timeframe. */
  push(t: number, o: number, h: number, l: number, c: number, values: Float64Array): boolean {
    if (t < this.from) return false;
    const b = t - (t % this.ms);
    let closed = false;
    if (b !== this.bucket) {
      if (!Number.isNaN(this.bucket)) closed = this.closeBucket(values);
      this.bucket = b;
      this.open = o;
      this.high = h;
      this.low = l;
    } else {
      if (h > this.high) this.high = h;
      if (l < this.low) this.low = l;
    }
    this.close = c;
    if (t + MINUTE >= b + this.ms) closed = this.closeBucket(values) || closed;
    return closed;
  }

  /** Candles of this timeframe itself, closed, oldest first (a warm-up from the exchange's history). */
  seed(candles: readonly Candle[], values: Float64Array): void {
    for (const k of candles) {
      if (k.time < this.from) continue;
      const bucket = k.time - (k.time % this.ms);
      this.bucket = bucket;
      this.close = k.close;
      this.closeBucket(values);
      // Not this.bucket: closing the bucket cleared it (NaN), and a NaN here let every seeded minute in again.
      this.from = bucket + this.ms;
    }
  }

  save(): SeriesMemory {
    return { bucket: this.bucket, open: this.open, high: this.high, low: this.low, close: this.close, from: this.from, slots: this.slots.map((s) => s.stream.save()) };
  }

  load(m: SeriesMemory): void {
    this.bucket = m.bucket;
    this.open = m.open;
    this.high = m.high;
    this.low = m.low;
    this.close = m.close;
    this.from = m.from;
    for (const [i, s] of this.slots.entries()) s.stream.load(m.slots[i]!);
  }

  private closeBucket(values: Float64Array): boolean {
    this.bucket = Number.NaN;
    for (const slot of this.slots) {
      const r = slot.stream.add(this.close);
      for (const reader of slot.readers) values[reader.index] = r === null || r === undefined ? Number.NaN : reader.pick(r as never);
    }
    return true;
  }
}

interface CompiledCondition {
  left: number;
  right: number;
  op: Condition['op'];
  /** The two sides at the previous check (NaN: unknown), for crosses. */
  prevLeft: number;
  prevRight: number;
  holds: boolean;
}

/**
 * The market as a custom bot reads it: candles of every timeframe its conditions name, built from
 * 1-minute candles, the indicators over them (the trading-signals library, incrementally: one `add`
 * per closed candle), and its conditions checked at each 1-minute close. The backtest and the live
 * engine push the same 1-minute candles through this same class, so they compute the same numbers.
 * Mutable: it is the state's market memory, not stored (the engine rebuilds it from candle history).
 */
export class CustomFeed {
  /** Every operand's current number (NaN while its indicator needs more candles); index 0 is the price. */
  readonly values: Float64Array;
  private readonly series: TimeframeSeries[];
  private readonly entry: CompiledCondition[];
  private readonly exit: CompiledCondition[];
  private readonly entryAll: boolean;
  private readonly exitAll: boolean;
  /** The open time of the last 1-minute candle taken (later ones only). */
  last = -Infinity;
  /** The last 1-minute close (NaN before any). */
  price = Number.NaN;
  /** Whether the entry rule / the exit rule held at the last check. */
  entryHolds = false;
  exitHolds = false;
  private readonly minutes = new MinuteBuilder();
  /** The rules it was built for (CustomFeed.rulesOf). */
  readonly rules: string;

  static rulesOf(params: Pick<CustomParams, 'entry' | 'exit'>): string {
    return JSON.stringify([params.entry, params.exit ?? null]);
  }

  constructor(params: Pick<CustomParams, 'entry' | 'exit'>) {
    this.rules = CustomFeed.rulesOf(params);
    const operands: Operand[] = [{ kind: 'price' }];
    const indexOf = new Map<string, number>([['{"kind":"price"}', 0]]);
    const bySeries = new Map<number, TimeframeSeries>();
    const slots = new Map<string, Slot>();
    const operandIndex = (o: Operand): number => {
      const key = JSON.stringify(o);
      const known = indexOf.get(key);
      if (known !== undefined) return known;
      const index = operands.push(o) - 1;
      indexOf.set(key, index);
      if (o.kind === 'value' || o.kind === 'price') return index;
      const ms = timeframeMs[o.timeframe];
      let s = bySeries.get(ms);
      if (!s) {
        s = new TimeframeSeries(ms);
        bySeries.set(ms, s);
      }
      const sk = slotKey(o);
      let slot = slots.get(sk);
      if (!slot) {
        slot = { stream: indicatorOf(o), readers: [] };
        slots.set(sk, slot);
        s.slots.push(slot);
      }
      slot.readers.push({ index, pick: picker(o) });
      return index;
    };
    const compile = (rule: Rule | undefined) =>
      (rule?.conditions ?? []).map((c): CompiledCondition => ({ left: operandIndex(c.left), right: operandIndex(c.right), op: c.op, prevLeft: Number.NaN, prevRight: Number.NaN, holds: false }));
    this.entry = compile(params.entry);
    this.exit = compile(params.exit);
    this.entryAll = params.entry.join === 'and';
    this.exitAll = params.exit?.join !== 'or';
    this.values = new Float64Array(operands.length).fill(Number.NaN);
    operands.forEach((o, i) => {
      if (o.kind === 'value') this.values[i] = Number(o.value);
    });
    this.series = [...bySeries.values()].sort((a, b) => a.ms - b.ms);
  }

  /** The timeframes the conditions read (a warm-up loads their history). */
  timeframes(): Timeframe[] {
    return (Object.keys(timeframeMs) as Timeframe[]).filter((tf) => this.series.some((s) => s.ms === timeframeMs[tf]));
  }

  /** A warm-up: closed candles of one timeframe, oldest first, before the 1-minute candles that follow them. */
  seed(timeframe: Timeframe, candles: readonly Candle[]): void {
    const s = this.series.find((x) => x.ms === timeframeMs[timeframe]);
    if (s) s.seed(candles, this.values);
  }

  /**
   * A closed 1-minute candle: every timeframe's candles and indicators move on, then the conditions are
   * checked at its close. False (nothing done) for a minute not later than the last one taken.
   */
  push(t: number, o: number, h: number, l: number, c: number): boolean {
    if (t <= this.last) return false;
    this.last = t;
    this.price = c;
    const values = this.values;
    values[0] = c;
    for (const s of this.series) s.push(t, o, h, l, c, values);
    this.entryHolds = check(this.entry, values, this.entryAll);
    this.exitHolds = this.exit.length > 0 && check(this.exit, values, this.exitAll);
    return true;
  }

  /**
   * A live price at market time `t` (ms): it goes into its minute's candle; the first price of a later
   * minute closes the one before, which is pushed as above (true: a check happened). Prices of a minute
   * already taken are dropped.
   */
  tick(t: number, price: number): boolean {
    if (t - (t % MINUTE) <= this.last) return false;
    const closed = this.minutes.add(t, price);
    return closed !== null && this.push(closed.time, closed.open, closed.high, closed.low, closed.close);
  }

  /**
   * Everything the feed remembers, as plain data: a warm-up made in a worker thread is carried back to
   * the engine's feed of the same rules (`load`), which then decides exactly as the one that was fed.
   */
  save(): FeedMemory {
    return {
      rules: this.rules,
      values: [...this.values],
      last: this.last,
      price: this.price,
      entryHolds: this.entryHolds,
      exitHolds: this.exitHolds,
      minute: this.minutes.save(),
      series: this.series.map((s) => s.save()),
      conditions: [...this.entry, ...this.exit].map((c) => [c.prevLeft, c.prevRight, c.holds ? 1 : 0]),
    };
  }

  /** Takes the memory of a feed of the same rules (refused otherwise: the slots would not line up). */
  load(m: FeedMemory): void {
    if (m.rules !== this.rules || m.series.length !== this.series.length) throw new Error('a feed memory of other rules');
    this.values.set(m.values);
    this.last = m.last;
    this.price = m.price;
    this.entryHolds = m.entryHolds;
    this.exitHolds = m.exitHolds;
    this.minutes.load(m.minute);
    for (const [i, s] of this.series.entries()) s.load(m.series[i]!);
    [...this.entry, ...this.exit].forEach((c, i) => {
      const [left, right, holds] = m.conditions[i]!;
      c.prevLeft = left!;
      c.prevRight = right!;
      c.holds = holds === 1;
    });
  }

  /** The numbers each condition compared at the last check, for the action log. */
  snapshot(which: 'entry' | 'exit'): { left: number; right: number; holds: boolean }[] {
    return (which === 'entry' ? this.entry : this.exit).map((c) => ({ left: this.values[c.left]!, right: this.values[c.right]!, holds: c.holds }));
  }
}

/** Checks every condition (each remembers its sides for the next cross) and joins them. */
function check(conditions: CompiledCondition[], values: Float64Array, all: boolean): boolean {
  let any = false;
  let every = true;
  for (const c of conditions) {
    const l = values[c.left]!;
    const r = values[c.right]!;
    let holds: boolean;
    switch (c.op) {
      case '>':
        holds = l > r;
        break;
      case '<':
        holds = l < r;
        break;
      case 'crossesAbove':
        holds = c.prevLeft <= c.prevRight && l > r;
        break;
      default:
        holds = c.prevLeft >= c.prevRight && l < r;
    }
    c.prevLeft = l;
    c.prevRight = r;
    c.holds = holds;
    if (holds) any = true;
    else every = false;
  }
  return all ? every : any;
}

/**
 * 1-minute candles from live prices: each price with its time goes into its minute's candle; the first
 * price of a later minute closes the one before (returned). Prices of a minute already closed are
 * dropped. Kept by the engine beside the bot (the strategy reads no clock).
 */
export class MinuteBuilder {
  private current: Candle | null = null;

  save(): Candle | null {
    return this.current && { ...this.current };
  }

  load(current: Candle | null): void {
    this.current = current && { ...current };
  }

  /** A price at time `t` (ms); the candle it closed, if any. */
  add(t: number, price: number): Candle | null {
    const minute = t - (t % MINUTE);
    const cur = this.current;
    if (cur && minute === cur.time) {
      if (price > cur.high) cur.high = price;
      if (price < cur.low) cur.low = price;
      cur.close = price;
      return null;
    }
    if (cur && minute < cur.time) return null;
    this.current = { time: minute, open: price, high: price, low: price, close: price };
    return cur;
  }
}
