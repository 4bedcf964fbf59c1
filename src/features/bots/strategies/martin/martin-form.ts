import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import type { MartinParamsInput } from '../../../../../contract/bots.ts';
import type { SymbolInfo } from '../../../../../contract/market.ts';
import { money } from '../../../../../strategy/money.ts';
import { planLevels, validateMartin, type MartinField, type MartinProblem } from '../../../../../strategy/martin/plan.ts';
import { averagePrice, takeProfitPrice } from '../../../../../strategy/core/position.ts';
import type { FieldProblems } from '../../form-problems.ts';
import { marketRules } from '../../market-rules.ts';
// The trailing take profit's note, shared with the other types that trail.
export { trailingNote } from '../../trailing-note.ts';

/**
 * The martin form's values and checks. The checks are the engine's own (strategy/martin/plan.ts, strategy/core/position.ts),
 * so what the form accepts is exactly what the server accepts and the level table is exactly what the
 * engine will do at the price now.
 */
export interface MartinValues {
  investment: string;
  firstOrder: string;
  multiplier: string;
  maxPositions: string;
  addTrigger: string;
  takeProfit: string;
  stopLoss: string;
  repeat: boolean;
  /** Trailing take profit's fall from the high, percent; '': off. */
  trailingDeviation: string;
  /** The stop loss trails the high since the entry. */
  trailingStop: boolean;
}

export const defaultMartinValues: MartinValues = {
  investment: '1000',
  firstOrder: '20',
  multiplier: '2',
  maxPositions: '5',
  addTrigger: '2',
  takeProfit: '1.5',
  stopLoss: '',
  repeat: true,
  trailingDeviation: '',
  trailingStop: false,
};

export function valuesFromParams(p: MartinParamsInput): MartinValues {
  return {
    investment: p.investment,
    firstOrder: p.firstOrder,
    multiplier: p.multiplier,
    maxPositions: String(p.maxPositions),
    addTrigger: p.addTrigger,
    takeProfit: p.takeProfit,
    stopLoss: p.stopLoss ?? '',
    repeat: p.repeat,
    trailingDeviation: p.trailingDeviation ?? '',
    trailingStop: p.trailingStop ?? false,
  };
}

/** The parameters as sent: numbers trimmed, max positions an integer when it is one. */
export function paramsFromValues(v: MartinValues): MartinParamsInput {
  const n = v.maxPositions.trim();
  return {
    investment: v.investment.trim(),
    firstOrder: v.firstOrder.trim(),
    multiplier: v.multiplier.trim(),
    maxPositions: /^\d{1,3}$/.test(n) ? Number(n) : Number.NaN,
    addTrigger: v.addTrigger.trim(),
    takeProfit: v.takeProfit.trim(),
    stopLoss: v.stopLoss.trim(),
    repeat: v.repeat,
    trailingDeviation: v.trailingDeviation.trim(),
    trailingStop: v.trailingStop,
  };
}

const rangeMessages: Record<MartinField, MessageDescriptor> = {
  investment: msg`请输入大于 0 的金额`,
  firstOrder: msg`请输入大于 0 的金额`,
  multiplier: msg`倍数无效（1-10）`,
  maxPositions: msg`最大持仓数无效（1-30）`,
  addTrigger: msg`补仓跌幅须在 0.1% 到 50% 之间`,
  takeProfit: msg`止盈须在 0.1% 到 100% 之间`,
  stopLoss: msg`止损须在 0.1% 到 99% 之间`,
  trailingDeviation: msg`回调幅度须在 0.1% 到 20% 之间`,
};

export function problemMessage(p: MartinProblem): MessageDescriptor {
  switch (p.reason) {
    case 'required':
      return msg`请填写所有必填项`;
    case 'format':
      return p.field === 'maxPositions' ? rangeMessages.maxPositions : msg`请输入有效的数字`;
    case 'range':
      return rangeMessages[p.field];
    case 'insufficient':
      return msg`投资金额无效：需覆盖首单和每次补仓`;
    case 'belowMinimum':
      return msg`每笔订单须不低于市场最小下单量`;
    case 'trailingStopNeedsStopLoss':
      return msg`追踪止损需要填写止损比例`;
  }
}

/** The fields a problem is about: its own, and for an investment too small, those that size the cycle it must cover. */
function aboutFields(p: MartinProblem): MartinField[] {
  return p.reason === 'insufficient' ? ['investment', 'firstOrder', 'multiplier', 'maxPositions'] : [p.field];
}

/** The problems of the form by field (the first one of each, with the fields it is about), empty when the bot can be saved. */
export function checkMartin(v: MartinValues, symbol: SymbolInfo): FieldProblems<MartinField> {
  const params = paramsFromValues(v);
  const problems = validateMartin({ ...params, maxPositions: v.maxPositions.trim() === '' ? (undefined as never) : params.maxPositions }, marketRules(symbol), money(symbol.price));
  const out: FieldProblems<MartinField> = {};
  for (const p of problems) out[p.field] ??= { message: problemMessage(p), fields: aboutFields(p) };
  return out;
}

export interface LevelRow {
  index: number;
  price: string;
  quote: string;
  amount: string;
  /** Funds set aside up to and including this level (what the investment must cover). */
  total: string;
  /** Average entry if the cycle fills down to this level. */
  average: string;
  /** Take-profit price at that average. */
  takeProfit: string;
}

/** The cycle as the engine would plan it at the price now: each level's funds and the running total; null when the values are not valid yet. */
export function levelTable(v: MartinValues, symbol: SymbolInfo): { rows: LevelRow[]; total: string } | null {
  const params = paramsFromValues(v);
  const rules = marketRules(symbol);
  const invalid = validateMartin(params, rules, money(symbol.price)).some((p) => p.reason !== 'insufficient' && p.reason !== 'belowMinimum');
  if (invalid) return null;
  const levels = planLevels({ ...params, stopLoss: params.stopLoss || undefined }, rules, money(symbol.price));
  let spent = money(0);
  let held = money(0);
  let funds = money(0);
  const dp = rules.tickSize.decimalPlaces();
  const rows = levels.map((l) => {
    spent = spent.plus(l.cost);
    funds = funds.plus(l.quote);
    held = held.plus(l.amount);
    const average = held.isZero() ? money(0) : spent.div(held);
    return {
      index: l.index + 1,
      price: l.price.toFixed(),
      quote: l.quote.toFixed(),
      amount: l.amount.toFixed(),
      total: funds.toFixed(),
      average: average.toDecimalPlaces(dp).toFixed(),
      // The engine's own rule (rounded up to a multiple of the tick): with a tick of 0.05, rounding to the
      // tick's decimals showed a price the bot never uses.
      takeProfit: held.isZero() ? '0' : takeProfitPrice(averagePrice(levels.slice(0, l.index + 1)), params.takeProfit, rules.tickSize).toFixed(),
    };
  });
  return { rows, total: funds.toFixed() };
}
