import { money } from '../money.ts';

/** Candle lengths a condition may read, 1 minute to 1 day (UTC-aligned buckets). */
export const timeframes = ['1m', '3m', '5m', '15m', '30m', '1h', '2h', '4h', '6h', '12h', '1d'] as const;
export type Timeframe = (typeof timeframes)[number];
export const timeframeMs: Record<Timeframe, number> = {
  '1m': 60_000,
  '3m': 180_000,
  '5m': 300_000,
  '15m': 900_000,
  '30m': 1_800_000,
  '1h': 3_600_000,
  '2h': 7_200_000,
  '4h': 14_400_000,
  '6h': 21_600_000,
  '12h': 43_200_000,
  '1d': 86_400_000,
};

/**
 * One side of a comparison: the price (the last 1-minute close), a fixed number, or an indicator over
 * the closes of its timeframe's closed candles (README.md: each formula as the library computes it).
 */
export type Operand =
  | { kind: 'price' }
  | { kind: 'value'; value: string }
  | { kind: 'sma'; period: number; timeframe: Timeframe }
  | { kind: 'ema'; period: number; timeframe: Timeframe }
  | { kind: 'rsi'; period: number; timeframe: Timeframe }
  | { kind: 'bb'; band: 'upper' | 'middle' | 'lower'; period: number; deviation: string; timeframe: Timeframe }
  | { kind: 'macd'; line: 'macd' | 'signal' | 'histogram'; fast: number; slow: number; signal: number; timeframe: Timeframe }
  /** Percent change of the close over `period` candles: (close - close[period ago]) / close[period ago] x 100. */
  | { kind: 'change'; period: number; timeframe: Timeframe };
export type IndicatorOperand = Exclude<Operand, { kind: 'price' } | { kind: 'value' }>;
export type IndicatorKind = IndicatorOperand['kind'];

/** `>` and `<` hold while true; a cross holds at the one check where the order of the two sides flipped. */
export const operators = ['>', '<', 'crossesAbove', 'crossesBelow'] as const;
export type Operator = (typeof operators)[number];

export interface Condition {
  left: Operand;
  op: Operator;
  right: Operand;
}

/** Up to 5 conditions joined by one AND or OR. */
export interface Rule {
  join: 'and' | 'or';
  conditions: Condition[];
}

export type PositionSize = { kind: 'fixed'; quote: string } | { kind: 'share'; percent: string };

/** The parameters of a custom bot (strings: exact decimals; percentages as "2" for 2 %). */
export interface CustomParams {
  /** Quote set aside for the bot. */
  investment: string;
  /** What one entry spends: a fixed quote, or a share of the investment in percent. */
  size: PositionSize;
  entry: Rule;
  /** Sell everything when it holds (checked with the entry rule, on every 1-minute close). */
  exit?: Rule | undefined;
  /** Percent above the average entry: sell everything. */
  takeProfit?: string | undefined;
  /** Percent below the average entry: sell everything. */
  stopLoss?: string | undefined;
  /**
   * Trailing take profit (README.md "Trailing exits"): reaching the take-profit price arms it, and the
   * sale fires when the price falls this many percent from the high since; needs takeProfit. Absent: sell
   * at the take-profit price.
   */
  trailingDeviation?: string | undefined;
  /** The stop loss follows the high since the entry (stop = high x (1 - stopLoss%)); needs stopLoss. Absent: off. */
  trailingStop?: boolean | undefined;
  /** Wait for the entry rule again after an exit (else the bot is done). */
  repeat: boolean;
  /**
   * Enter on buy signals only (the webhook, README.md "Signals"): the entry rule is not checked (it may
   * have no condition); exits work as always. Absent: off.
   */
  signalsOnly?: boolean | undefined;
}

/**
 * The parameters as a bot stores them, from what a trader sends (contract/bots.ts CustomParamsInput, or
 * the form's values in that shape): an empty take profit or stop loss, a null exit rule and the
 * trailing exits when off are left out, so a bot without them is stored as one made before they existed.
 */
export function storedCustomParams(
  input: Omit<CustomParams, 'exit' | 'takeProfit' | 'stopLoss' | 'trailingDeviation' | 'trailingStop' | 'signalsOnly'> & {
    exit?: Rule | null | undefined;
    takeProfit?: string | undefined;
    stopLoss?: string | undefined;
    trailingDeviation?: string | undefined;
    trailingStop?: boolean | undefined;
    signalsOnly?: boolean | undefined;
  },
): CustomParams {
  const { exit, takeProfit, stopLoss, trailingDeviation, trailingStop, signalsOnly, ...rest } = input;
  return {
    ...rest,
    ...(exit ? { exit } : {}),
    ...(takeProfit ? { takeProfit } : {}),
    ...(stopLoss ? { stopLoss } : {}),
    ...(trailingDeviation ? { trailingDeviation } : {}),
    ...(trailingStop ? { trailingStop } : {}),
    ...(signalsOnly ? { signalsOnly } : {}),
  };
}

export const customBounds = {
  conditions: { min: 1, max: 5 },
  /** Periods of every indicator, in candles of its timeframe. */
  period: { min: 1, max: 500 },
  /** Bollinger bands' standard-deviation multiplier. */
  deviation: { min: '0.1', max: '10' },
  takeProfit: { min: '0.1', max: '1000' },
  stopLoss: { min: '0.1', max: '99' },
  /** A trailing take profit's fall from the high, percent (martin's and DCA's bounds). */
  trailingDeviation: { min: '0.1', max: '20' },
  sharePercent: { min: '0.01', max: '100' },
} as const;

/**
 * One problem with the parameters: the field as a path ("entry.conditions.1.right.period") and why,
 * with the bound it broke when there is one, so the screens can say it in zh and en.
 * `trailingNeedsTakeProfit` / `trailingStopNeedsStopLoss`: a trailing exit without the percentage it
 * trails (said on the takeProfit / stopLoss field, as martin's).
 */
export interface CustomProblem {
  field: string;
  reason: 'required' | 'format' | 'range' | 'tooMany' | 'unknown' | 'sameSides' | 'noIndicator' | 'noExit' | 'insufficient' | 'belowMinimum' | 'trailingNeedsTakeProfit' | 'trailingStopNeedsStopLoss';
  min?: string | number;
  max?: string | number;
}

const DECIMAL = /^-?(0|[1-9]\d{0,17})(\.\d{1,18})?$/;
const POSITIVE = /^(0|[1-9]\d{0,17})(\.\d{1,18})?$/;
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Records a problem; false (the field is not usable). */
function fail(problems: CustomProblem[], problem: CustomProblem): false {
  problems.push(problem);
  return false;
}

function checkPeriod(problems: CustomProblem[], field: string, v: unknown, min: number = customBounds.period.min): boolean {
  if (v === undefined) return fail(problems, { field, reason: 'required' });
  if (typeof v !== 'number' || !Number.isInteger(v)) return fail(problems, { field, reason: 'format' });
  if (v < min || v > customBounds.period.max) return fail(problems, { field, reason: 'range', min, max: customBounds.period.max });
  return true;
}

function checkDecimal(problems: CustomProblem[], field: string, v: unknown, bounds?: { min: string; max: string }, pattern = POSITIVE): boolean {
  if (v === undefined || v === '') return fail(problems, { field, reason: 'required' });
  if (typeof v !== 'string' || !pattern.test(v)) return fail(problems, { field, reason: 'format' });
  const d = money(v);
  if (bounds && (d.lt(bounds.min) || d.gt(bounds.max))) return fail(problems, { field, reason: 'range', min: bounds.min, max: bounds.max });
  if (!bounds && pattern === POSITIVE && d.lte(0)) return fail(problems, { field, reason: 'range', min: '0' });
  return true;
}

function checkOperand(problems: CustomProblem[], field: string, o: unknown): boolean {
  if (!isObject(o)) return fail(problems, { field, reason: 'required' });
  const before = problems.length;
  const tf = () => {
    if (o.timeframe === undefined) problems.push({ field: `${field}.timeframe`, reason: 'required' });
    else if (!timeframes.includes(o.timeframe as Timeframe)) problems.push({ field: `${field}.timeframe`, reason: 'unknown' });
  };
  switch (o.kind) {
    case 'price':
      break;
    case 'value':
      checkDecimal(problems, `${field}.value`, o.value, undefined, DECIMAL);
      break;
    case 'sma':
    case 'ema':
    case 'change':
      checkPeriod(problems, `${field}.period`, o.period);
      tf();
      break;
    case 'rsi':
      checkPeriod(problems, `${field}.period`, o.period, 2);
      tf();
      break;
    case 'bb':
      if (!['upper', 'middle', 'lower'].includes(o.band as string)) problems.push({ field: `${field}.band`, reason: o.band === undefined ? 'required' : 'unknown' });
      checkPeriod(problems, `${field}.period`, o.period, 2);
      checkDecimal(problems, `${field}.deviation`, o.deviation, customBounds.deviation);
      tf();
      break;
    case 'macd': {
      if (!['macd', 'signal', 'histogram'].includes(o.line as string)) problems.push({ field: `${field}.line`, reason: o.line === undefined ? 'required' : 'unknown' });
      const okFast = checkPeriod(problems, `${field}.fast`, o.fast);
      const okSlow = checkPeriod(problems, `${field}.slow`, o.slow, 2);
      checkPeriod(problems, `${field}.signal`, o.signal);
      if (okFast && okSlow && (o.fast as number) >= (o.slow as number)) problems.push({ field: `${field}.fast`, reason: 'range', min: 1, max: (o.slow as number) - 1 });
      tf();
      break;
    }
    default:
      problems.push({ field: `${field}.kind`, reason: o.kind === undefined ? 'required' : 'unknown' });
  }
  return problems.length === before;
}

const sameOperand = (a: Operand, b: Operand) => JSON.stringify(a) === JSON.stringify(b);

function checkRule(problems: CustomProblem[], field: string, rule: unknown): void {
  if (!isObject(rule)) {
    problems.push({ field, reason: 'required' });
    return;
  }
  if (rule.join !== 'and' && rule.join !== 'or') problems.push({ field: `${field}.join`, reason: rule.join === undefined ? 'required' : 'unknown' });
  const list = rule.conditions;
  if (!Array.isArray(list) || list.length < customBounds.conditions.min) {
    problems.push({ field: `${field}.conditions`, reason: 'required', min: customBounds.conditions.min });
    return;
  }
  if (list.length > customBounds.conditions.max) problems.push({ field: `${field}.conditions`, reason: 'tooMany', max: customBounds.conditions.max });
  list.slice(0, customBounds.conditions.max).forEach((c: unknown, i) => {
    const at = `${field}.conditions.${i}`;
    if (!isObject(c)) {
      problems.push({ field: at, reason: 'required' });
      return;
    }
    if (!operators.includes(c.op as Operator)) problems.push({ field: `${at}.op`, reason: c.op === undefined ? 'required' : 'unknown' });
    const okLeft = checkOperand(problems, `${at}.left`, c.left);
    const okRight = checkOperand(problems, `${at}.right`, c.right);
    if (!okLeft || !okRight) return;
    const left = c.left as Operand;
    const right = c.right as Operand;
    if (sameOperand(left, right)) problems.push({ field: `${at}.right`, reason: 'sameSides' });
    // A condition must move with the market: a number against a number never changes.
    else if (left.kind === 'value' && right.kind === 'value') problems.push({ field: at, reason: 'noIndicator' });
  });
}

/**
 * Checks a custom bot's parameters: every field with its path and reason, none meaning the bot can
 * start. `minCost`: the market's smallest order (quote); an entry below it cannot be placed.
 */
export function validateCustom(params: unknown, minCost?: string): CustomProblem[] {
  const problems: CustomProblem[] = [];
  if (!isObject(params)) return [{ field: '', reason: 'required' }];
  const okInvestment = checkDecimal(problems, 'investment', params.investment);
  let quote: string | null = null;
  const size = params.size;
  if (!isObject(size)) problems.push({ field: 'size', reason: 'required' });
  else if (size.kind === 'fixed') {
    if (checkDecimal(problems, 'size.quote', size.quote)) quote = size.quote as string;
  } else if (size.kind === 'share') {
    if (checkDecimal(problems, 'size.percent', size.percent, customBounds.sharePercent) && okInvestment)
      quote = money(params.investment as string)
        .mul(size.percent as string)
        .div(100)
        .toFixed();
  } else problems.push({ field: 'size.kind', reason: size.kind === undefined ? 'required' : 'unknown' });
  if (quote !== null && okInvestment) {
    if (money(quote).gt(params.investment as string)) problems.push({ field: 'size.quote', reason: 'insufficient', max: params.investment as string });
    else if (minCost !== undefined && money(quote).lt(minCost)) problems.push({ field: isObject(size) && size.kind === 'share' ? 'size.percent' : 'size.quote', reason: 'belowMinimum', min: minCost });
  }
  // Signals only: the entry rule is not checked, and may be empty; anything it has must still be valid.
  if (params.signalsOnly !== undefined && typeof params.signalsOnly !== 'boolean') problems.push({ field: 'signalsOnly', reason: 'format' });
  const rule = params.entry as { conditions?: unknown } | undefined;
  if (!(params.signalsOnly === true && isObject(rule) && Array.isArray(rule.conditions) && rule.conditions.length === 0)) checkRule(problems, 'entry', params.entry);
  if (params.exit !== undefined) checkRule(problems, 'exit', params.exit);
  if (params.takeProfit !== undefined) checkDecimal(problems, 'takeProfit', params.takeProfit, customBounds.takeProfit);
  if (params.stopLoss !== undefined) checkDecimal(problems, 'stopLoss', params.stopLoss, customBounds.stopLoss);
  // Trailing exits ('' or absent, false or absent: off): each trails a percentage that must be there.
  const off = (v: unknown) => v === undefined || v === '';
  if (!off(params.trailingDeviation)) {
    checkDecimal(problems, 'trailingDeviation', params.trailingDeviation, customBounds.trailingDeviation);
    if (off(params.takeProfit)) problems.push({ field: 'takeProfit', reason: 'trailingNeedsTakeProfit' });
  }
  if (params.trailingStop !== undefined && typeof params.trailingStop !== 'boolean') problems.push({ field: 'trailingStop', reason: 'format' });
  else if (params.trailingStop === true && off(params.stopLoss)) problems.push({ field: 'stopLoss', reason: 'trailingStopNeedsStopLoss' });
  if (params.exit === undefined && params.takeProfit === undefined && params.stopLoss === undefined) problems.push({ field: 'exit', reason: 'noExit' });
  if (typeof params.repeat !== 'boolean') problems.push({ field: 'repeat', reason: 'required' });
  return problems;
}
