import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import type { CustomParamsInput } from '../../../../../contract/bots.ts';
import type { SymbolInfo } from '../../../../../contract/market.ts';
import { money } from '../../../../../strategy/money.ts';
import {
  customBounds,
  storedCustomParams,
  validateCustom,
  type CustomParams,
  type CustomProblem,
  type Operand,
  type Operator,
  type Rule,
  type Timeframe,
} from '../../../../../strategy/custom/rules.ts';
import { explainRule } from '../../../../../strategy/custom/explain.ts';
import { ruleWords, type Lang } from '../../rule-words.ts';
import type { FieldProblems } from '../../form-problems.ts';
import { trailingNote } from '../../trailing-note.ts';

/**
 * The custom bot's form: its values as typed, and the strategy's own checks
 * (strategy/custom/rules.ts validateCustom), so the form accepts exactly what the server accepts; every
 * problem keyed by the parameter's path ("entry.conditions.0.right.period") and said in zh/en under
 * that field, never the path. The rules explained in plain words from strategy/custom/explain.ts.
 */
export type OperandKind = Operand['kind'];
export const operandKinds: OperandKind[] = ['price', 'value', 'rsi', 'sma', 'ema', 'bb', 'macd', 'change'];

/** One side of a condition as typed: every setting kept, so switching the kind back and forth loses nothing. */
export interface OperandValues {
  kind: OperandKind;
  value: string;
  period: string;
  timeframe: Timeframe;
  band: 'upper' | 'middle' | 'lower';
  deviation: string;
  line: 'macd' | 'signal' | 'histogram';
  fast: string;
  slow: string;
  signal: string;
}
export interface ConditionValues {
  left: OperandValues;
  op: Operator;
  right: OperandValues;
}
export interface RuleValues {
  join: 'and' | 'or';
  conditions: ConditionValues[];
}
export interface CustomValues {
  investment: string;
  sizeKind: 'fixed' | 'share';
  quote: string;
  percent: string;
  entry: RuleValues;
  /** The sell rule is used. */
  exitOn: boolean;
  exit: RuleValues;
  takeProfit: string;
  stopLoss: string;
  /** Trailing take profit's fall from the high, percent; '': off (needs a take profit). */
  trailingDeviation: string;
  /** The stop loss follows the high since the entry (needs a stop loss). */
  trailingStop: boolean;
  repeat: boolean;
  /** Buy on signals only (the webhook): the entry rule is not used. */
  signalsOnly: boolean;
}

export const maxConditions = customBounds.conditions.max;

export const operandValues = (kind: OperandKind, over: Partial<OperandValues> = {}): OperandValues => ({
  kind,
  value: '',
  period: kind === 'ema' || kind === 'sma' ? '20' : kind === 'change' ? '5' : '14',
  timeframe: '1h',
  band: 'lower',
  deviation: '2',
  line: 'macd',
  fast: '12',
  slow: '26',
  signal: '9',
  ...over,
});

/** A new condition: RSI(14, 1h) < 30. */
export const newCondition = (): ConditionValues => ({ left: operandValues('rsi'), op: '<', right: operandValues('value', { value: '30' }) });

export const defaultCustomValues: CustomValues = {
  investment: '500',
  sizeKind: 'fixed',
  quote: '100',
  percent: '20',
  entry: { join: 'and', conditions: [newCondition()] },
  exitOn: true,
  exit: { join: 'and', conditions: [{ left: operandValues('rsi'), op: '>', right: operandValues('value', { value: '70' }) }] },
  takeProfit: '',
  stopLoss: '5',
  trailingDeviation: '',
  trailingStop: false,
  repeat: true,
  signalsOnly: false,
};

/** A whole number as typed ("14"); anything else NaN, which the strategy calls a format problem, and empty undefined (required). */
const int = (text: string): number => (text.trim() === '' ? (undefined as unknown as number) : /^\d{1,6}$/.test(text.trim()) ? Number(text.trim()) : Number.NaN);

export function operandFromValues(o: OperandValues): Operand {
  switch (o.kind) {
    case 'price':
      return { kind: 'price' };
    case 'value':
      return { kind: 'value', value: o.value.trim() };
    case 'bb':
      return { kind: 'bb', band: o.band, period: int(o.period), deviation: o.deviation.trim(), timeframe: o.timeframe };
    case 'macd':
      return { kind: 'macd', line: o.line, fast: int(o.fast), slow: int(o.slow), signal: int(o.signal), timeframe: o.timeframe };
    default:
      return { kind: o.kind, period: int(o.period), timeframe: o.timeframe };
  }
}

export function operandValuesOf(o: Operand): OperandValues {
  switch (o.kind) {
    case 'price':
      return operandValues('price');
    case 'value':
      return operandValues('value', { value: o.value });
    case 'bb':
      return operandValues('bb', { band: o.band, period: String(o.period), deviation: o.deviation, timeframe: o.timeframe });
    case 'macd':
      return operandValues('macd', { line: o.line, fast: String(o.fast), slow: String(o.slow), signal: String(o.signal), timeframe: o.timeframe });
    default:
      return operandValues(o.kind, { period: String(o.period), timeframe: o.timeframe });
  }
}

const ruleFromValues = (r: RuleValues): Rule => ({ join: r.join, conditions: r.conditions.map((c) => ({ left: operandFromValues(c.left), op: c.op, right: operandFromValues(c.right) })) });
const ruleValuesOf = (r: Rule): RuleValues => ({ join: r.join, conditions: r.conditions.map((c) => ({ left: operandValuesOf(c.left), op: c.op, right: operandValuesOf(c.right) })) });

/** The parameters as botCreate, botUpdate and the backtest take them. */
export function customParamsFromValues(v: CustomValues): CustomParamsInput {
  return {
    investment: v.investment.trim(),
    size: v.sizeKind === 'fixed' ? { kind: 'fixed', quote: v.quote.trim() } : { kind: 'share', percent: v.percent.trim() },
    entry: v.signalsOnly ? { join: 'and', conditions: [] } : ruleFromValues(v.entry),
    exit: v.exitOn ? ruleFromValues(v.exit) : null,
    takeProfit: v.takeProfit.trim(),
    stopLoss: v.stopLoss.trim(),
    trailingDeviation: v.trailingDeviation.trim(),
    trailingStop: v.trailingStop,
    repeat: v.repeat,
    ...(v.signalsOnly ? { signalsOnly: true } : {}),
  };
}

/** The parameters as the strategy checks and explains them (as the server stores them: empty ones left out, trailing exits off left out). */
export const strategyParams = (v: CustomValues): CustomParams => storedCustomParams(customParamsFromValues(v));

export function customValuesFromParams(p: CustomParamsInput | CustomParams): CustomValues {
  return {
    investment: p.investment,
    sizeKind: p.size.kind,
    quote: p.size.kind === 'fixed' ? p.size.quote : defaultCustomValues.quote,
    percent: p.size.kind === 'share' ? p.size.percent : defaultCustomValues.percent,
    entry: p.entry.conditions.length > 0 ? ruleValuesOf(p.entry) : defaultCustomValues.entry,
    exitOn: !!p.exit,
    exit: p.exit ? ruleValuesOf(p.exit) : defaultCustomValues.exit,
    takeProfit: p.takeProfit ?? '',
    stopLoss: p.stopLoss ?? '',
    trailingDeviation: p.trailingDeviation ?? '',
    trailingStop: p.trailingStop ?? false,
    repeat: p.repeat,
    signalsOnly: p.signalsOnly ?? false,
  };
}

/**
 * The trailing take profit's worst sale over the average entry and whether to warn (martin's and DCA's
 * note: the deviation not smaller than the take profit can sell below it, even at a loss); null when off
 * or not yet valid.
 */
export function customTrailingNote(v: CustomValues): { worst: string; warn: boolean } | null {
  return trailingNote(v);
}

/** What one entry spends (quote), when it can be told. */
export function entryQuote(v: CustomValues): string | null {
  const p = customParamsFromValues(v);
  if (p.size.kind === 'fixed') return /^\d+(\.\d+)?$/.test(p.size.quote) ? p.size.quote : null;
  if (!/^\d+(\.\d+)?$/.test(p.size.percent) || !/^\d+(\.\d+)?$/.test(p.investment)) return null;
  return money(p.investment).mul(p.size.percent).div(100).toDecimalPlaces(2).toFixed();
}

const last = (field: string) => field.slice(field.lastIndexOf('.') + 1);

/** A problem in words: what is wrong and, when there is one, the bound. */
export function problemMessage(p: CustomProblem): MessageDescriptor {
  const min = String(p.min ?? '');
  const max = String(p.max ?? '');
  const name = last(p.field);
  switch (p.reason) {
    case 'required':
      return msg`必填`;
    case 'format':
      return ['period', 'fast', 'slow', 'signal'].includes(name) ? msg`请输入整数` : name === 'value' ? msg`请输入数字` : msg`请输入大于 0 的数字`;
    case 'range':
      if (name === 'fast' && p.min === 1 && p.max !== undefined) return msg`快线周期须小于慢线周期`;
      if (p.max === undefined) return msg`请输入大于 0 的数字`;
      // Martin's and DCA's words for the same bounds.
      if (name === 'trailingDeviation') return msg`回调幅度须在 0.1% 到 20% 之间`;
      return ['takeProfit', 'stopLoss', 'percent'].includes(name) ? msg`须在 ${min}% 到 ${max}% 之间` : msg`须在 ${min} 到 ${max} 之间`;
    case 'tooMany':
      return msg`最多 ${max} 个条件`;
    case 'unknown':
      return msg`请选择`;
    case 'sameSides':
      return msg`两侧相同：请换一个指标或数值`;
    case 'noIndicator':
      return msg`数值与数值比较永不变化：至少一侧须为价格或指标`;
    case 'noExit':
      return msg`请设置止盈、止损或卖出规则（至少一项）`;
    case 'insufficient':
      return msg`每次买入金额不能超过投资金额`;
    case 'belowMinimum':
      return msg`每次买入金额低于交易所最小下单额 ${min} USDT`;
    case 'trailingNeedsTakeProfit':
      return msg`追踪止盈需要填写止盈比例`;
    case 'trailingStopNeedsStopLoss':
      return msg`追踪止损需要填写止损比例`;
  }
}

/** Where a problem shows: a side's kind under its kind, a share's amount under the share. */
function shownAt(p: CustomProblem, v: CustomValues): string {
  if (p.field === 'size.quote' && v.sizeKind === 'share') return 'size.percent';
  return p.field;
}

/** The problem of each field (the first one of each), keyed by its path. `minCost`: the market's smallest order. */
export function checkCustom(v: CustomValues, symbol?: Pick<SymbolInfo, 'minCost'>): FieldProblems<string> {
  const out: FieldProblems<string> = {};
  for (const p of validateCustom(strategyParams(v), symbol?.minCost)) {
    const at = shownAt(p, v);
    // A problem of the whole size (insufficient) is about the investment too.
    const fields = p.reason === 'insufficient' || p.reason === 'belowMinimum' ? [at, 'investment'] : p.reason === 'noExit' ? [at, 'takeProfit', 'stopLoss'] : [at];
    out[at] ??= { message: problemMessage(p), fields };
  }
  return out;
}

// ---- the explanation, in zh and en ----

/**
 * The rules in plain words: "买入：RSI(14, 1h) < 30 且 价格 > EMA(200, 1h)" / "Buys when RSI(14, 1h) < 30 and
 * price > EMA(200, 1h)", then the sell rule and the exits. A rule with a problem is not explained (null).
 */
export function explainLines(p: CustomParams, lang: Lang, problems: readonly string[] = []): { entry: string | null; exit: string | null; exits: string | null } {
  const clean = (root: string) => !problems.some((f) => f === root || f.startsWith(`${root}.`));
  const signals = p.signalsOnly === true;
  const entry = signals ? null : clean('entry') ? ruleWords(explainRule(p.entry), lang) : null;
  const exit = p.exit && clean('exit') ? ruleWords(explainRule(p.exit), lang) : null;
  const tp = p.takeProfit && clean('takeProfit') ? p.takeProfit : null;
  const sl = p.stopLoss && clean('stopLoss') ? p.stopLoss : null;
  // Trailing exits: the take profit arms a sale on a fall of the deviation from the high; the stop follows the high.
  const trail = tp && p.trailingDeviation && clean('trailingDeviation') ? p.trailingDeviation : null;
  const trailStop = sl !== null && p.trailingStop === true;
  const zh = [tp ? (trail ? `止盈 ${tp}%（追踪回调 ${trail}%）` : `止盈 ${tp}%`) : '', sl ? `${trailStop ? '追踪止损' : '止损'} ${sl}%` : ''];
  const en = [tp ? (trail ? `take profit at +${tp}% (trailing ${trail}%)` : `take profit at +${tp}%`) : '', sl ? `${trailStop ? 'trailing stop loss' : 'stop loss'} at -${sl}%` : ''];
  const exits = lang === 'zh' ? zh.filter(Boolean).join('，') : en.filter(Boolean).join(', ');
  return {
    entry: signals ? (lang === 'zh' ? '买入：只在收到外部买入信号时' : 'Buys only when a buy signal comes') : entry === null ? null : lang === 'zh' ? `买入：${entry}` : `Buys when ${entry}`,
    exit: exit === null ? null : lang === 'zh' ? `卖出：${exit}` : `Sells when ${exit}`,
    exits: exits ? (lang === 'zh' ? `平仓：${exits}` : `Closes with ${exits}`) : null,
  };
}

/** A stored custom bot's rules in words (the detail page): null when the parameters are not a custom bot's. */
export function explainStored(params: unknown, lang: Lang): string[] | null {
  if (!params || typeof params !== 'object' || !('entry' in params)) return null;
  const p = params as CustomParams & { exit?: Rule | null };
  const lines = explainLines({ ...p, exit: p.exit ?? undefined }, lang);
  return [lines.entry, lines.exit, lines.exits].filter((l): l is string => l !== null);
}
