import type { Condition, CustomParams, Operand, Operator, Rule, Timeframe } from './rules.ts';

/**
 * A rule in plain words, as parts the screens render in zh or en: an indicator (with its settings),
 * 'price', a number, an operator, 'and' / 'or'. English: "RSI(14, 1h) < 30 and price > EMA(200, 1h)".
 */
export type IndicatorPart =
  | { indicator: 'sma' | 'ema' | 'rsi' | 'change'; period: number; timeframe: Timeframe }
  | { indicator: 'bb'; band: 'upper' | 'middle' | 'lower'; period: number; deviation: number; timeframe: Timeframe }
  | { indicator: 'macd'; line: 'macd' | 'signal' | 'histogram'; fast: number; slow: number; signal: number; timeframe: Timeframe };
export type ExplainPart = IndicatorPart | 'price' | number | Operator | 'and' | 'or';

export interface Explanation {
  /** "buys when ..." */
  entry: ExplainPart[];
  /** "sells when ...", or null without an exit rule. */
  exit: ExplainPart[] | null;
  /** Percent over / under the average entry, when set. */
  takeProfit: number | null;
  stopLoss: number | null;
  /** What one entry spends: quote, or percent of the investment. */
  size: { quote: number } | { percent: number };
  repeat: boolean;
}

function operandPart(o: Operand): ExplainPart {
  switch (o.kind) {
    case 'price':
      return 'price';
    case 'value':
      return Number(o.value);
    case 'bb':
      return { indicator: 'bb', band: o.band, period: o.period, deviation: Number(o.deviation), timeframe: o.timeframe };
    case 'macd':
      return { indicator: 'macd', line: o.line, fast: o.fast, slow: o.slow, signal: o.signal, timeframe: o.timeframe };
    default:
      return { indicator: o.kind, period: o.period, timeframe: o.timeframe };
  }
}

const conditionParts = (c: Condition): ExplainPart[] => [operandPart(c.left), c.op, operandPart(c.right)];

export function explainRule(rule: Rule): ExplainPart[] {
  return rule.conditions.flatMap((c, i) => (i === 0 ? conditionParts(c) : [rule.join, ...conditionParts(c)]));
}

export function explainCustom(params: CustomParams): Explanation {
  return {
    entry: explainRule(params.entry),
    exit: params.exit ? explainRule(params.exit) : null,
    takeProfit: params.takeProfit ? Number(params.takeProfit) : null,
    stopLoss: params.stopLoss ? Number(params.stopLoss) : null,
    size: params.size.kind === 'fixed' ? { quote: Number(params.size.quote) } : { percent: Number(params.size.percent) },
    repeat: params.repeat,
  };
}

const operatorWords: Record<Operator, string> = { '>': '>', '<': '<', crossesAbove: 'crosses above', crossesBelow: 'crosses below' };

/** One part in English (the action log, tests; the screens translate the parts themselves). */
export function partText(p: ExplainPart): string {
  if (typeof p === 'number') return String(p);
  if (typeof p === 'string') return p in operatorWords ? operatorWords[p as Operator] : p;
  switch (p.indicator) {
    case 'bb':
      return `BB ${p.band}(${p.period}, ${p.deviation}, ${p.timeframe})`;
    case 'macd':
      return `MACD ${p.line}(${p.fast}, ${p.slow}, ${p.signal}, ${p.timeframe})`;
    case 'change':
      return `change %(${p.period}, ${p.timeframe})`;
    case 'sma':
      return `MA(${p.period}, ${p.timeframe})`;
    default:
      return `${p.indicator.toUpperCase()}(${p.period}, ${p.timeframe})`;
  }
}

/** The rule as one English line: "RSI(14, 1h) < 30 and price > EMA(200, 1h)". */
export const explainText = (parts: readonly ExplainPart[]): string => parts.map(partText).join(' ');
