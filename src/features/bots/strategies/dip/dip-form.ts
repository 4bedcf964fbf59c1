import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import type { DipParamsInput } from '../../../../../strategy/dip/params.ts';
import type { SymbolInfo } from '../../../../../contract/market.ts';
import { money } from '../../../../../strategy/money.ts';
import { planDip, validateDip, type DipProblem } from '../../../../../strategy/dip/plan.ts';
import type { FieldProblems } from '../../form-problems.ts';
import { marketRules } from '../../market-rules.ts';

/** The buy-the-dip form's values: what the trader types, checked by the strategy's own rules (strategy/dip/plan.ts). */
export interface DipValues {
  investment: string;
  dip: string;
  takeProfit: string;
}

export type DipField = keyof DipValues;

export const defaultDipValues: DipValues = { investment: '100', dip: '3', takeProfit: '2' };

export const dipValuesFromParams = (p: DipParamsInput): DipValues => ({ investment: p.investment, dip: p.dip, takeProfit: p.takeProfit });

/** The parameters as sent: numbers trimmed. */
export const dipParamsFromValues = (v: DipValues): DipParamsInput => ({ investment: v.investment.trim(), dip: v.dip.trim(), takeProfit: v.takeProfit.trim() });

const messages: Record<DipProblem['reason'], (field: DipField) => MessageDescriptor> = {
  required: () => msg`请填写所有必填项`,
  format: () => msg`请输入有效的数字`,
  range: (field) => (field === 'dip' ? msg`下跌幅度须在 0.1% 到 50% 之间` : msg`止盈须在 0.1% 到 100% 之间`),
  belowMinimum: () => msg`每笔订单须不低于市场最小下单量`,
};

/** The problems of the form by field, empty when the bot can be saved. */
export function checkDip(v: DipValues, symbol: SymbolInfo): FieldProblems<DipField> {
  const out: FieldProblems<DipField> = {};
  for (const p of validateDip(dipParamsFromValues(v), marketRules(symbol), money(symbol.price))) out[p.field] ??= { message: messages[p.reason](p.field), fields: [p.field] };
  return out;
}

/** Its plan at the price now, as the engine will place it: the buy line, the coin it buys and its take profit; null while the values are not valid. */
export function dipPreview(v: DipValues, symbol: SymbolInfo): { line: string; amount: string; takeProfit: string } | null {
  const params = dipParamsFromValues(v);
  const rules = marketRules(symbol);
  if (validateDip(params, rules, money(symbol.price)).length > 0) return null;
  const plan = planDip(params, rules, money(symbol.price));
  return { line: plan.line.toFixed(), amount: plan.amount.toFixed(), takeProfit: plan.takeProfit.toFixed() };
}
