import type { CandleData } from '../../../contract/market.ts';
import { indicatorOf, picker } from '../../../strategy/custom/indicators.ts';
import type { IndicatorPart } from '../../../strategy/custom/explain.ts';
import type { Condition, IndicatorOperand, Operand, Rule, Timeframe } from '../../../strategy/custom/rules.ts';

/**
 * The indicators a custom bot's rules read, as series under (or over) its price chart: each computed by
 * the engine's own streams (strategy/custom/indicators.ts) over the closed candles of its own timeframe,
 * and placed on the chart's minutes as the bot reads it: at each minute, its value at the last candle of
 * its timeframe closed by then (a 1h RSI is a step on a 1-minute chart). A few hundred candles at most.
 */

/** The candle lengths the market answers (GET /api/market/symbols); the others are built from a shorter one. */
export const answeredTimeframes = ['1m', '5m', '15m', '1h', '4h', '1d'] as const;
export type AnsweredTimeframe = (typeof answeredTimeframes)[number];
const answeredMs: Record<AnsweredTimeframe, number> = { '1m': 60_000, '5m': 300_000, '15m': 900_000, '1h': 3_600_000, '4h': 14_400_000, '1d': 86_400_000 };

/** The timeframe the market answers that a timeframe is built from: itself, or the longest that divides it (3m from 1m, 2h from 1h). */
export function sourceTimeframe(tf: Timeframe): AnsweredTimeframe {
  const span = timeframeSpan(tf);
  let best: AnsweredTimeframe = '1m';
  for (const a of answeredTimeframes) if (span % answeredMs[a] === 0 && answeredMs[a] > answeredMs[best]) best = a;
  return best;
}

/**
 * A timeframe's length in ms, read from its name ("3m", "2h", "1d"; rules.ts timeframeMs has the same):
 * importing that table would pull the rules module out of the bot screens' chunk into one shared with
 * this lazily loaded one.
 */
export const timeframeSpan = (tf: Timeframe): number => Number(tf.slice(0, -1)) * { m: 60_000, h: 3_600_000, d: 86_400_000 }[tf.at(-1) as 'm' | 'h' | 'd'];

/** Candles of `span` ms built from shorter ones, UTC-aligned as the bot builds them (a bucket starts at t - t mod span). */
export function aggregate(candles: readonly CandleData[], span: number): CandleData[] {
  const out: CandleData[] = [];
  for (const c of candles) {
    const start = c.time - (c.time % span);
    const last = out.at(-1);
    if (last && last.time === start) {
      if (Number(c.high) > Number(last.high)) last.high = c.high;
      if (Number(c.low) < Number(last.low)) last.low = c.low;
      last.close = c.close;
      last.volume = String(Number(last.volume) + Number(c.volume));
    } else out.push({ ...c, time: start });
  }
  return out;
}

/** A threshold drawn across an indicator's pane: the number a condition compares it with, and which rule. */
export interface Threshold {
  value: number;
  rule: 'entry' | 'exit';
  op: Condition['op'];
}

/** One line of a plot: which output of the stream (a band, a MACD line) and its value at each chart minute. */
export interface PlotLine {
  part: IndicatorPart;
  values: (number | null)[];
}

/** One indicator stream of the rules: drawn over the prices (MA, EMA, Bollinger) or in a pane of its own (RSI, MACD, change). */
export interface IndicatorPlot {
  key: string;
  timeframe: Timeframe;
  pane: boolean;
  lines: PlotLine[];
  thresholds: Threshold[];
  /** Closed candles it needs before its first value, and those it had: fewer, and it shows no line yet. */
  needs: number;
  had: number;
}

/** The stream an operand reads, by its settings (the bands of one Bollinger, the lines of one MACD share it). */
function streamKey(o: IndicatorOperand): string {
  switch (o.kind) {
    case 'bb':
      return `bb:${o.period}:${o.deviation}:${o.timeframe}`;
    case 'macd':
      return `macd:${o.fast}:${o.slow}:${o.signal}:${o.timeframe}`;
    default:
      return `${o.kind}:${o.period}:${o.timeframe}`;
  }
}

/** An operand as the explanation names it ("RSI(14, 1h)", "布林上轨(20, 2, 1h)"). */
export function partOf(o: IndicatorOperand): IndicatorPart {
  switch (o.kind) {
    case 'bb':
      return { indicator: 'bb', band: o.band, period: o.period, deviation: Number(o.deviation), timeframe: o.timeframe };
    case 'macd':
      return { indicator: 'macd', line: o.line, fast: o.fast, slow: o.slow, signal: o.signal, timeframe: o.timeframe };
    default:
      return { indicator: o.kind, period: o.period, timeframe: o.timeframe };
  }
}

const lineOf = (o: IndicatorOperand) => (o.kind === 'bb' ? o.band : o.kind === 'macd' ? o.line : '');
const isIndicator = (o: Operand): o is IndicatorOperand => o.kind !== 'price' && o.kind !== 'value';
/** Closes before a stream's first value. */
const firstAfter = (o: IndicatorOperand) => (o.kind === 'macd' ? o.slow : o.kind === 'rsi' || o.kind === 'change' ? o.period + 1 : o.period);

interface Wanted {
  key: string;
  operands: IndicatorOperand[];
  thresholds: Threshold[];
}

/** The indicator streams of a bot's entry and exit rules, each with the lines read of it and the numbers it is compared with. */
export function ruleIndicators(rules: { entry?: Rule | null | undefined; exit?: Rule | null | undefined }): Wanted[] {
  const byKey = new Map<string, Wanted>();
  const add = (o: IndicatorOperand) => {
    const key = streamKey(o);
    const w = byKey.get(key) ?? { key, operands: [], thresholds: [] };
    if (!w.operands.some((x) => lineOf(x) === lineOf(o))) w.operands.push(o);
    byKey.set(key, w);
    return w;
  };
  for (const rule of ['entry', 'exit'] as const) {
    for (const c of rules[rule]?.conditions ?? []) {
      for (const [side, other] of [
        [c.left, c.right],
        [c.right, c.left],
      ] as const) {
        if (!isIndicator(side)) continue;
        const w = add(side);
        // "RSI < 30": a line at 30 across RSI's pane; "30 > RSI" is the same line.
        if (other.kind === 'value' && !w.thresholds.some((t) => t.value === Number(other.value) && t.rule === rule)) w.thresholds.push({ value: Number(other.value), rule, op: c.op });
      }
    }
  }
  return [...byKey.values()];
}

/**
 * A stream's values on the chart's minutes. `minutes`: the chart's 1-minute candles, the last one still
 * forming; `candles`: its own timeframe's (any still forming is left out: only closed candles feed it).
 */
export function plotOn(wanted: Wanted, minutes: readonly CandleData[], candles: readonly CandleData[]): IndicatorPlot {
  const first = wanted.operands[0]!;
  const span = timeframeSpan(first.timeframe);
  const formingMinute = minutes.at(-1)?.time ?? 0;
  const closed = candles.filter((c) => c.time + span <= formingMinute);
  const stream = indicatorOf(first);
  const pickers = wanted.operands.map((o) => picker(o) as (r: unknown) => number);
  // Each closed candle's end and the stream's result after it.
  const results = closed.map((c) => ({ end: c.time + span, result: stream.add(Number(c.close)) }));
  const lines: PlotLine[] = wanted.operands.map((o) => ({ part: partOf(o), values: [] }));
  let k = -1;
  for (const m of minutes) {
    // The bot checks at each minute's close, after the candles closing with it.
    while (k + 1 < results.length && results[k + 1]!.end <= m.time + 60_000) k++;
    const r = k >= 0 ? results[k]!.result : null;
    for (const [i, line] of lines.entries()) line.values.push(r === null ? null : pickers[i]!(r));
  }
  const pane = first.kind === 'rsi' || first.kind === 'macd' || first.kind === 'change';
  return { key: wanted.key, timeframe: first.timeframe, pane, lines, thresholds: wanted.thresholds, needs: firstAfter(first), had: closed.length };
}
