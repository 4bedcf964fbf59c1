import type Decimal from 'decimal.js';
import { belowPercent, floorTo, money } from '../money.ts';
import { martinBounds, type MartinParams } from './rules.ts';
import { buyAmount } from '../core/position.ts';
import type { MarketRules } from '../core/market.ts';

/** The price at which the next add buys: `trigger`% below the last fill, floored to the tick. */
export function nextAddPrice(lastFill: Decimal, addTrigger: string, tick: Decimal): Decimal {
  return floorTo(lastFill.mul(belowPercent(addTrigger)), tick);
}

/** Quote budget of order `index` (0 = first): firstOrder x multiplier^index. */
export function orderQuote(params: Pick<MartinParams, 'firstOrder' | 'multiplier'>, index: number): Decimal {
  const key = `${params.firstOrder} ${params.multiplier} ${index}`;
  let quote = quotes.get(key);
  if (quote === undefined) {
    // Asked at every order of every backtest: the power and the parses are made once (decimals are immutable).
    if (quotes.size >= 1024) quotes.clear();
    quote = money(params.firstOrder).mul(money(params.multiplier).pow(index));
    quotes.set(key, quote);
  }
  return quote;
}
const quotes = new Map<string, Decimal>();

/** Quote the whole cycle needs: the sum of every order's budget. */
export function requiredInvestment(params: Pick<MartinParams, 'firstOrder' | 'multiplier' | 'maxPositions'>): Decimal {
  let total = money(0);
  for (let i = 0; i < params.maxPositions; i++) total = total.plus(orderQuote(params, i));
  return total;
}

export interface Level {
  index: number;
  /** Planned fill price: the start price, then each add's trigger below the one before. */
  price: Decimal;
  quote: Decimal;
  amount: Decimal;
  cost: Decimal;
}

/** The cycle as planned from `startPrice`, every add filling exactly at its trigger. */
export function planLevels(params: MartinParams, market: MarketRules, startPrice: Decimal): Level[] {
  const levels: Level[] = [];
  let price = floorTo(startPrice, market.tickSize);
  for (let index = 0; index < params.maxPositions; index++) {
    if (index > 0) price = nextAddPrice(price, params.addTrigger, market.tickSize);
    const quote = orderQuote(params, index);
    const amount = buyAmount(quote, price, market.stepSize);
    levels.push({ index, price, quote, amount, cost: amount.mul(price) });
  }
  return levels;
}

export type MartinField = keyof Omit<MartinParams, 'repeat' | 'trailingStop'>;
export interface MartinProblem {
  field: MartinField;
  /** trailingStopNeedsStopLoss: a trailing stop is on without a stop loss percentage (said on the stop loss field). */
  reason: 'required' | 'format' | 'range' | 'insufficient' | 'belowMinimum' | 'trailingStopNeedsStopLoss';
}

const DECIMAL = /^(0|[1-9]\d{0,17})(\.\d{1,18})?$/;

/**
 * Checks a martin bot's parameters against the bounds and the market (docs/product.md §5: required fields,
 * a valid investment that covers every order, valid max positions and multiplier, every order at or
 * above the market's minimum). Returns every problem found; none means the bot can start.
 */
export function validateMartin(params: Partial<MartinParams>, market: MarketRules, startPrice: Decimal): MartinProblem[] {
  const problems: MartinProblem[] = [];
  const decimalField = (field: MartinField, value: unknown, bounds?: { min: string; max: string }, optional = false) => {
    if (value === undefined || value === '') {
      if (!optional) problems.push({ field, reason: 'required' });
      return false;
    }
    if (typeof value !== 'string' || !DECIMAL.test(value)) return problems.push({ field, reason: 'format' }) && false;
    const v = money(value);
    if (bounds ? v.lt(bounds.min) || v.gt(bounds.max) : v.lte(0)) return problems.push({ field, reason: 'range' }) && false;
    return true;
  };
  const okInvestment = decimalField('investment', params.investment);
  const okFirst = decimalField('firstOrder', params.firstOrder);
  const okMultiplier = decimalField('multiplier', params.multiplier, martinBounds.multiplier);
  decimalField('addTrigger', params.addTrigger, martinBounds.addTrigger);
  decimalField('takeProfit', params.takeProfit, martinBounds.takeProfit);
  const okStop = decimalField('stopLoss', params.stopLoss, martinBounds.stopLoss, true);
  if (params.trailingStop === true && !okStop && (params.stopLoss === undefined || params.stopLoss === '')) problems.push({ field: 'stopLoss', reason: 'trailingStopNeedsStopLoss' });
  decimalField('trailingDeviation', params.trailingDeviation, martinBounds.trailingDeviation, true);
  const n = params.maxPositions;
  const okPositions = typeof n === 'number' && Number.isInteger(n) && n >= martinBounds.maxPositions.min && n <= martinBounds.maxPositions.max;
  if (!okPositions) problems.push({ field: 'maxPositions', reason: n === undefined ? 'required' : 'range' });
  if (problems.length > 0 || !okInvestment || !okFirst || !okMultiplier || !okPositions) return problems;

  const full = params as MartinParams;
  if (money(full.investment).lt(requiredInvestment(full))) problems.push({ field: 'investment', reason: 'insufficient' });
  const levels = planLevels(full, market, startPrice);
  if (levels.some((l) => l.amount.lt(market.minAmount) || l.cost.lt(market.minCost))) problems.push({ field: 'firstOrder', reason: 'belowMinimum' });
  return problems;
}
