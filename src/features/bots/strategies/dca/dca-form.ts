import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import type { DcaParamsInput } from '../../../../../contract/bots.ts';
import type { SymbolInfo } from '../../../../../contract/market.ts';
import { money } from '../../../../../strategy/money.ts';
import { dcaStopPrice, dealFunds, planDeal, validateDca, type DcaField, type DcaProblem } from '../../../../../strategy/dca/plan.ts';
import type { DcaParams, DcaStart } from '../../../../../strategy/dca/rules.ts';
import type { Rule } from '../../../../../strategy/custom/rules.ts';
import { explainRule } from '../../../../../strategy/custom/explain.ts';
import { marketRules } from '../../market-rules.ts';
import { customParamsFromValues, customValuesFromParams, defaultCustomValues, newCondition, problemMessage, type RuleValues } from '../custom/custom-form.ts';
import { ruleWords, type Lang } from '../../rule-words.ts';
import type { FieldProblems } from '../../form-problems.ts';

/**
 * The DCA form's values and checks: the engine's own (strategy/dca/plan.ts), so the form accepts exactly
 * what the server accepts and the table is exactly the deal the engine plans. The cooldown is typed in
 * minutes (stored in seconds); a schedule's time is the trader's own clock (utcOffset from the browser).
 * An indicator start's rule is typed and checked as the custom bot's (custom-form.ts): its problems
 * keyed by their path under the start (`start.rule.conditions.0.right.period`).
 */
export interface DcaValues {
  investment: string;
  baseOrder: string;
  safetyOrder: string;
  maxSafetyOrders: string;
  deviation: string;
  stepScale: string;
  volumeScale: string;
  takeProfit: string;
  trailingDeviation: string;
  stopLoss: string;
  /** The stop loss trails the high since the base order. */
  trailingStop: boolean;
  cooldown: string;
  start: 'now' | 'day' | 'week' | 'indicator' | 'signal';
  weekday: string;
  time: string;
  utcOffset: number;
  /** An indicator start's rule, as the custom form types it (kept while another start is chosen). */
  rule: RuleValues;
}

export const defaultDcaValues = (utcOffset: number): DcaValues => ({
  investment: '300',
  baseOrder: '20',
  safetyOrder: '20',
  maxSafetyOrders: '5',
  deviation: '1.5',
  stepScale: '1.2',
  volumeScale: '1.5',
  takeProfit: '1.5',
  trailingDeviation: '',
  stopLoss: '',
  trailingStop: false,
  cooldown: '0',
  start: 'now',
  weekday: '1',
  time: '09:00',
  utcOffset,
  rule: { join: 'and', conditions: [newCondition()] },
});

/** A rule as typed, in the custom bot's format (the custom form's own conversion, as its entry rule). */
const ruleFromValues = (rule: RuleValues): Rule => customParamsFromValues({ ...defaultCustomValues, entry: rule }).entry;
const ruleValuesOf = (rule: Rule): RuleValues => customValuesFromParams({ ...customParamsFromValues(defaultCustomValues), entry: rule }).entry;

const int = (text: string, digits: number) => (new RegExp(`^\\d{1,${digits}}$`).test(text.trim()) ? Number(text.trim()) : Number.NaN);

export function dcaParamsFromValues(v: DcaValues): DcaParamsInput {
  const start: DcaStart =
    v.start === 'now' || v.start === 'signal'
      ? { kind: v.start }
      : v.start === 'indicator'
        ? { kind: 'indicator', rule: ruleFromValues(v.rule) }
        : { kind: 'schedule', every: v.start, time: v.time.trim(), utcOffset: v.utcOffset, ...(v.start === 'week' ? { weekday: int(v.weekday, 1) } : {}) };
  const minutes = v.cooldown.trim() === '' ? 0 : int(v.cooldown, 5);
  return {
    investment: v.investment.trim(),
    baseOrder: v.baseOrder.trim(),
    safetyOrder: v.safetyOrder.trim(),
    maxSafetyOrders: int(v.maxSafetyOrders, 2),
    deviation: v.deviation.trim(),
    stepScale: v.stepScale.trim(),
    volumeScale: v.volumeScale.trim(),
    takeProfit: v.takeProfit.trim(),
    trailingDeviation: v.trailingDeviation.trim(),
    stopLoss: v.stopLoss.trim(),
    trailingStop: v.trailingStop,
    cooldown: minutes * 60,
    start,
  };
}

export function dcaValuesFromParams(p: DcaParamsInput, utcOffset: number): DcaValues {
  const s = p.start;
  return {
    investment: p.investment,
    baseOrder: p.baseOrder,
    safetyOrder: p.safetyOrder,
    maxSafetyOrders: String(p.maxSafetyOrders),
    deviation: p.deviation,
    stepScale: p.stepScale,
    volumeScale: p.volumeScale,
    takeProfit: p.takeProfit,
    trailingDeviation: p.trailingDeviation ?? '',
    stopLoss: p.stopLoss ?? '',
    trailingStop: p.trailingStop ?? false,
    cooldown: String(Math.round((p.cooldown ?? 0) / 60)),
    start: s.kind === 'schedule' ? s.every : s.kind,
    weekday: s.kind === 'schedule' && s.weekday ? String(s.weekday) : '1',
    time: s.kind === 'schedule' ? s.time : '09:00',
    utcOffset: s.kind === 'schedule' ? s.utcOffset : utcOffset,
    rule: s.kind === 'indicator' ? ruleValuesOf(s.rule) : defaultDcaValues(utcOffset).rule,
  };
}

/** The parameters as the strategy checks them (no stop loss: absent). */
const strategyParams = (v: DcaValues): DcaParams => {
  const p = dcaParamsFromValues(v);
  return { ...p, stopLoss: p.stopLoss || undefined, trailingDeviation: p.trailingDeviation || undefined, trailingStop: p.trailingStop || undefined, cooldown: p.cooldown };
};

const messages: Record<DcaProblem['reason'], Partial<Record<DcaField, MessageDescriptor>> & { default: MessageDescriptor }> = {
  required: { default: msg`必填` },
  format: { default: msg`请输入大于 0 的数字`, start: msg`请选择有效的时间`, maxSafetyOrders: msg`请输入 0-50 的整数` },
  range: {
    default: msg`超出范围`,
    maxSafetyOrders: msg`安全单数量须在 0-50 之间`,
    deviation: msg`价格偏差须在 0.1%-50% 之间`,
    stepScale: msg`偏差倍数须在 0.1-10 之间`,
    volumeScale: msg`金额倍数须在 0.1-10 之间`,
    takeProfit: msg`止盈比例须在 0.1%-100% 之间`,
    stopLoss: msg`止损比例须在 0.1%-99% 之间`,
    trailingDeviation: msg`回调幅度须在 0.1% 到 20% 之间`,
    cooldown: msg`冷却时间须在 0-43200 分钟之间`,
  },
  insufficient: { default: msg`投资金额须覆盖底仓和全部安全单` },
  belowMinimum: { default: msg`单笔金额低于交易所最小下单额` },
  tooDeep: { default: msg`最后一个安全单的偏差达到 99% 以上：请减少数量或倍数` },
  withinSafety: { default: msg`止损须低于最后一个安全单的价格` },
  trailingStopNeedsStopLoss: { default: msg`开启追踪止损须设置止损比例` },
  // Said by the custom form's words for the rule's own problem (problemMessage), under its field.
  rule: { default: msg`开单条件有误` },
};

function aboutFields(problem: DcaProblem): string[] {
  if (problem.reason === 'insufficient') return ['investment', 'baseOrder', 'safetyOrder', 'maxSafetyOrders', 'volumeScale'];
  if (problem.reason === 'tooDeep') return ['deviation', 'stepScale', 'maxSafetyOrders'];
  if (problem.reason === 'withinSafety') return ['stopLoss', 'deviation', 'stepScale', 'maxSafetyOrders'];
  if (problem.reason === 'trailingStopNeedsStopLoss') return ['stopLoss', 'trailingStop'];
  return [problem.field];
}

/**
 * The problem of each field (the first one of each), with its message and the fields it is about; a
 * start rule's problem under its own path (`start.rule.conditions.0.right.period`), in the custom form's words.
 */
export function checkDca(v: DcaValues, symbol: SymbolInfo): FieldProblems<string> {
  const out: FieldProblems<string> = {};
  for (const problem of validateDca(strategyParams(v), marketRules(symbol), money(symbol.price))) {
    if (problem.rule) out[problem.rule.field] ??= { message: problemMessage(problem.rule), fields: [problem.rule.field] };
    else out[problem.field] ??= { message: messages[problem.reason][problem.field] ?? messages[problem.reason].default, fields: aboutFields(problem) };
  }
  return out;
}

/** A stored DCA bot's indicator start in words (the detail page): null for another start or other parameters. */
export function explainStoredStart(params: unknown, lang: Lang): string[] | null {
  const s = (params as { start?: DcaStart } | null | undefined)?.start;
  if (s?.kind !== 'indicator') return null;
  const words = ruleWords(explainRule(s.rule), lang);
  return [lang === 'zh' ? `开单：${words}` : `Opens a deal when ${words}`];
}

/**
 * An indicator start in plain words, from the custom bot's explanation: "开单：RSI(14, 1h) < 30" / "Opens
 * a deal when RSI(14, 1h) < 30"; null for another start, or while the rule has a problem.
 */
export function explainStart(v: DcaValues, lang: Lang, problems: readonly string[] = []): string | null {
  if (v.start !== 'indicator' || problems.some((f) => f.startsWith('start.rule'))) return null;
  const words = ruleWords(explainRule(ruleFromValues(v.rule)), lang);
  return lang === 'zh' ? `开单：${words}` : `Opens a deal when ${words}`;
}

export interface DcaRow {
  /** 0: the base order; n: the n-th safety order. */
  index: number;
  deviation: string;
  price: string;
  quote: string;
  amount: string;
  average: string;
  takeProfit: string;
}

/** The deal the engine would plan at the price now: every order with the average and take profit after it, the funds, the stop (null while invalid). */
export function dcaPreview(v: DcaValues, symbol: SymbolInfo): { rows: DcaRow[]; funds: string; stop: string | null } | null {
  if (Object.keys(checkDca(v, symbol)).length > 0) return null;
  const p = strategyParams(v);
  const market = marketRules(symbol);
  const orders = planDeal(p, market, money(symbol.price));
  const dp = market.tickSize.decimalPlaces();
  return {
    rows: orders.map((o) => ({
      index: o.index,
      deviation: o.deviation.toDecimalPlaces(4).toFixed(),
      price: o.price.toFixed(),
      quote: o.quote.toDecimalPlaces(2).toFixed(),
      amount: o.amount.toFixed(),
      average: o.average.toDecimalPlaces(dp).toFixed(),
      takeProfit: o.takeProfit.toFixed(),
    })),
    funds: dealFunds(p).toDecimalPlaces(2, 2).toFixed(),
    stop: p.stopLoss ? dcaStopPrice(orders[0]!.price, p.stopLoss, market.tickSize).toFixed() : null,
  };
}
