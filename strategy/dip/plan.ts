import type Decimal from 'decimal.js';
import { buyAmount, takeProfitPrice } from '../core/position.ts';
import type { MarketRules } from '../core/market.ts';
import { floorTo, money } from '../money.ts';
import type { DipParamsInput } from './params.ts';

/** The stored parameters: the form's, all required. */
export type DipParams = DipParamsInput;

export interface DipView {
  params: DipParams;
  market: MarketRules;
}

/** The buy line: `dip` % below the price it started at, floored to the tick (it never buys above the dip it was asked for). */
export function buyLine(reference: Decimal, { params, market }: DipView): Decimal {
  return floorTo(reference.mul(money(100).minus(params.dip)).div(100), market.tickSize);
}

/** The bounds of its percentages. */
export const dipBounds = { dip: { min: '0.1', max: '50' }, takeProfit: { min: '0.1', max: '100' } } as const;

/** A parameter the checks refuse: required, not a number, out of its bounds, or a buy below the market's minimum. */
export interface DipProblem {
  field: keyof DipParams;
  reason: 'required' | 'format' | 'range' | 'belowMinimum';
}

const DECIMAL = /^(0|[1-9]\d{0,17})(\.\d{1,18})?$/;

/** The checks a buy-the-dip bot's parameters must pass at `price`, in field order (the first one is the answer); the form runs them as the trader types. */
export function validateDip(params: Partial<DipParams>, market: MarketRules, price: Decimal): DipProblem[] {
  const out: DipProblem[] = [];
  const fields = ['investment', 'dip', 'takeProfit'] as const;
  for (const field of fields) {
    const v = params[field];
    if (v === undefined || v === '') out.push({ field, reason: 'required' });
    else if (!DECIMAL.test(v)) out.push({ field, reason: 'format' });
  }
  if (out.length > 0) return out;
  const p = params as DipParams;
  for (const field of ['dip', 'takeProfit'] as const) {
    const v = money(p[field]);
    if (v.lt(dipBounds[field].min) || v.gt(dipBounds[field].max)) out.push({ field, reason: 'range' });
  }
  if (out.length > 0) return out;
  // Its one buy, at the line the price now would set: at least the market's minimum cost and amount.
  const quote = money(p.investment);
  const line = buyLine(price, { params: p, market });
  if (quote.lt(market.minCost) || line.lte(0) || buyAmount(quote, line, market.stepSize).lt(market.minAmount)) out.push({ field: 'investment', reason: 'belowMinimum' });
  return out;
}

/** Its plan at `price`: the buy line, the coin its buy gets there, and the take profit on that buy (the engine's own rules, which the form shows). */
export function planDip(params: DipParams, market: MarketRules, price: Decimal): { line: Decimal; amount: Decimal; takeProfit: Decimal } {
  const line = buyLine(price, { params, market });
  return { line, amount: buyAmount(money(params.investment), line, market.stepSize), takeProfit: takeProfitPrice(line, params.takeProfit, market.tickSize) };
}
