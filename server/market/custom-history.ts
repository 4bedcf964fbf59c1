import type { CandleData } from '../../contract/market.ts';
import { MINUTE, warmUpCandles, type Candle, type CustomFeed } from '../../strategy/custom/feed.ts';
import { timeframeMs, type CustomParams, type Timeframe as RuleTimeframe } from '../../strategy/custom/rules.ts';
import { GENESIS_MS, type SimulatedMarket } from './simulated.ts';
import type { Timeframe } from './symbols.ts';

/**
 * Closed candles of a custom bot's timeframe (strategy/custom/rules.ts: 1m to 1d) whose buckets end by
 * `endMs` (a bucket boundary of that timeframe): the last `limit` of them, oldest first, as the feed
 * reads them (doubles). A custom bot's warm-up (README.md "Registering") and backtest read them.
 */
export type ClosedCandles = (timeframe: RuleTimeframe, endMs: number, limit: number) => Promise<Candle[]>;

/**
 * Buckets of `span` ms from shorter candles (oldest first, UTC-aligned), each with all its `pieces`
 * (a bucket with a piece missing, e.g. cut by the start of the history, is left out).
 */
function aggregate(rows: readonly Candle[], span: number, pieces: number): Candle[] {
  const out: Candle[] = [];
  let cur: Candle | null = null;
  let count = 0;
  const flush = () => {
    if (cur && count === pieces) out.push(cur);
  };
  for (const r of rows) {
    const bucket = r.time - (r.time % span);
    if (!cur || cur.time !== bucket) {
      flush();
      cur = { time: bucket, open: r.open, high: r.high, low: r.low, close: r.close };
      count = 1;
      continue;
    }
    if (r.high > cur.high) cur.high = r.high;
    if (r.low < cur.low) cur.low = r.low;
    cur.close = r.close;
    count++;
  }
  flush();
  return out;
}

/** The exchange's candle size a timeframe is read in, and how many of them make one (exchanges answer the server's six sizes). */
const readAs: Record<RuleTimeframe, [Timeframe, number]> = {
  '1m': ['1m', 1],
  '3m': ['1m', 3],
  '5m': ['5m', 1],
  '15m': ['15m', 1],
  '30m': ['15m', 2],
  '1h': ['1h', 1],
  '2h': ['1h', 2],
  '4h': ['4h', 1],
  '6h': ['1h', 6],
  '12h': ['4h', 3],
  '1d': ['1d', 1],
};

/**
 * Paper's history of a symbol: the simulated market's own candles of the size the timeframe is read in
 * (one object per candle, whatever the minutes under it), made into the timeframe.
 */
export function paperHistory(feed: SimulatedMarket, symbol: string): ClosedCandles {
  return async (timeframe, endMs, limit) => {
    const span = timeframeMs[timeframe];
    const end = endMs - (endMs % span);
    if (end <= GENESIS_MS || limit <= 0) return [];
    const [size, pieces] = readAs[timeframe];
    // The candle holding end - 1 ms is the last one closed by `end` (a bucket boundary of every size under it).
    const rows = feed.candles(symbol, size, end - 1, limit * pieces).map((r) => ({ time: r.time, open: Number(r.open), high: Number(r.high), low: Number(r.low), close: Number(r.close) }));
    return (pieces === 1 ? rows : aggregate(rows, span, pieces)).slice(-limit);
  };
}

/**
 * A live exchange's history: one page of its candles (the last ones, the open one among them) of the
 * size the timeframe is read in, closed ones only, made into the timeframe. One page holds what the
 * exchange answers (often 1,000 candles): a longer warm-up starts with fewer candles than asked.
 */
export function liveHistory(candles: (timeframe: Timeframe, limit: number) => Promise<CandleData[]>, now: () => number = Date.now): ClosedCandles {
  return async (timeframe, endMs, limit) => {
    const span = timeframeMs[timeframe];
    const end = endMs - (endMs % span);
    const [size, pieces] = readAs[timeframe];
    const piece = span / pieces;
    // The exchange answers the last candles up to now: those since `end`, and `limit` buckets (and one, a cut one) before it.
    const count = Math.ceil(Math.max(0, now() - end) / piece) + (limit + 1) * pieces;
    const rows = (await candles(size, count))
      .filter((r) => r.time + piece <= end)
      .map((r) => ({ time: r.time, open: Number(r.open), high: Number(r.high), low: Number(r.low), close: Number(r.close) }));
    return (pieces === 1 ? rows : aggregate(rows, span, pieces)).slice(-limit);
  };
}

/**
 * The closed candles a custom bot's indicators (a DCA indicator start's) need before a backtest's first
 * minute, for each timeframe its rules read; a timeframe whose history cannot be read is left out (its
 * indicators start with the window, as a bot with none would).
 */
export async function historyBefore(params: Pick<CustomParams, 'entry' | 'exit'>, history: ClosedCandles, first: number): Promise<Partial<Record<RuleTimeframe, Candle[]>>> {
  const out: Partial<Record<RuleTimeframe, Candle[]>> = {};
  for (const [timeframe, n] of Object.entries(warmUpCandles(params)) as [RuleTimeframe, number][]) {
    try {
      out[timeframe] = await history(timeframe, first, n);
    } catch {
      // Left out: see above.
    }
  }
  return out;
}

/** What a custom bot's warm-up reads: each timeframe's closed candles to seed, and the 1-minute candles after them. */
export interface WarmUpHistory {
  seeds: Partial<Record<RuleTimeframe, Candle[]>>;
  minutes: Candle[];
}

/**
 * The history a loaded or new custom bot's feed is warmed up with at the market time `now`
 * (strategy/custom/README.md "Registering"): each timeframe its conditions read, the closed candles it
 * needs (warmUpCandles) up to the bucket holding the last closed minute; then the 1-minute candles from
 * the earliest of those buckets up to the minute forming now. Reading it is the heavy part on the
 * simulated market (a year of days is made minute by minute): a worker thread reads it there.
 */
export async function warmUpHistory(params: Pick<CustomParams, 'entry' | 'exit'>, history: ClosedCandles, now: number): Promise<WarmUpHistory> {
  const minute = now - (now % MINUTE);
  const lastClosed = minute - MINUTE;
  let earliest = lastClosed;
  const seeds: WarmUpHistory['seeds'] = {};
  for (const [timeframe, n] of Object.entries(warmUpCandles(params)) as [RuleTimeframe, number][]) {
    const span = timeframeMs[timeframe];
    const end = lastClosed - (lastClosed % span);
    seeds[timeframe] = await history(timeframe, end, n);
    earliest = Math.min(earliest, end);
  }
  return { seeds, minutes: await history('1m', minute, (minute - earliest) / MINUTE) };
}

/**
 * Feeds a custom bot's warm-up history into its feed, as a bot that ran through would have seen it: the
 * seeds, then the minutes; the last closed minute is left forming (its prices go in as live ones): the
 * first live price closes it and its check acts then, as it would have on a bot that never stopped (a
 * restart between two minutes loses no entry or exit; one within a minute after the bot acted checks
 * that minute again). Long indicators cost real time to feed: the engine has it done in a worker thread
 * (server/workers/heavy-worker.ts) and takes the feed's memory back.
 */
export function feedWarmUp(feed: CustomFeed, data: WarmUpHistory, now: number): void {
  const minute = now - (now % MINUTE);
  const lastClosed = minute - MINUTE;
  for (const [timeframe, candles] of Object.entries(data.seeds) as [RuleTimeframe, Candle[]][]) feed.seed(timeframe, candles);
  for (const c of data.minutes) {
    if (c.time < lastClosed) feed.push(c.time, c.open, c.high, c.low, c.close);
    else if (c.time === lastClosed) tickCandle(feed, c);
  }
}

/** A closed 1-minute candle as live prices: its open, high, low and close in its first milliseconds. */
function tickCandle(feed: CustomFeed, c: Candle): void {
  for (const [i, price] of [c.open, c.high, c.low, c.close].entries()) feed.tick(c.time + i, price);
}

/**
 * Brings a feed warmed up at the market time `then` (in a worker thread, after a wait in line) to `now`:
 * the 1-minute candles closed since go in as live prices (a few when the wait was short), each closing
 * the one before, so the feed is where a feed warmed up at `now` would be.
 */
export async function catchUp(feed: CustomFeed, history: ClosedCandles, then: number, now: number): Promise<void> {
  const from = then - (then % MINUTE);
  const to = now - (now % MINUTE);
  if (to <= from) return;
  for (const c of await history('1m', to, (to - from) / MINUTE)) if (c.time >= from) tickCandle(feed, c);
}

/** Warms a loaded or new custom bot's feed up to the market time `now`, here: its history read, then fed (both above). */
export async function warmUpCustom(feed: CustomFeed, params: Pick<CustomParams, 'entry' | 'exit'>, history: ClosedCandles, now: number): Promise<void> {
  feedWarmUp(feed, await warmUpHistory(params, history, now), now);
}
