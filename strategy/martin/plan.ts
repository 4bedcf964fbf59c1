import Decimal from 'decimal.js';
import { ceilTo, floorTo, money } from '../money.ts';
import { martinBounds, type MarketRules, type MartinParams } from './rules.ts';

const ONE = money(1);
const HUNDRED = money(100);
const pct = (p: string) => money(p).div(HUNDRED);

/** The price at which the next add buys: `trigger`% below the last fill, floored to the tick. */
export function nextAddPrice(lastFill: Decimal, addTrigger: string, tick: Decimal): Decimal {
  return floorTo(lastFill.mul(ONE.minus(pct(addTrigger))), tick);
}

/** The take-profit price: `takeProfit`% above the average entry, rounded up so the target is met. */
export function takeProfitPrice(average: Decimal, takeProfit: string, tick: Decimal): Decimal {
  return ceilTo(average.mul(ONE.plus(pct(takeProfit))), tick);
}

/** The stop-loss price: `stopLoss`% below the average entry, floored to the tick. */
export function stopLossPrice(average: Decimal, stopLoss: string, tick: Decimal): Decimal {
  return floorTo(average.mul(ONE.minus(pct(stopLoss))), tick);
}

/** Quote budget of order `index` (0 = first): firstOrder x multiplier^index. */
export function orderQuote(params: Pick<MartinParams, 'firstOrder' | 'multiplier'>, index: number): Decimal {
  return money(params.firstOrder).mul(money(params.multiplier).pow(index));
}

/** Quote the whole cycle needs: the sum of every order's budget. */
export function requiredInvestment(params: Pick<MartinParams, 'firstOrder' | 'multiplier' | 'maxPositions'>): Decimal {
  let total = money(0);
  for (let i = 0; i < params.maxPositions; i++) total = total.plus(orderQuote(params, i));
  return total;
}

export interface Fill {
  price: Decimal;
  /** Base amount bought (gross, before a fee taken in base). */
  amount: Decimal;
}

/** Average entry price: total cost over total amount (exact; display rounding is the screen's). */
export function averagePrice(fills: readonly Fill[]): Decimal {
  let cost = money(0);
  let amount = money(0);
  for (const f of fills) {
    cost = cost.plus(f.price.mul(f.amount));
    amount = amount.plus(f.amount);
  }
  if (amount.isZero()) throw new RangeError('no fills');
  return cost.div(amount);
}

/** The base amount an order of `quote` buys at `price`, floored to the market's step. */
export function buyAmount(quote: Decimal, price: Decimal, step: Decimal): Decimal {
  return floorTo(quote.div(price), step);
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

/**
 * Base the buys left after fees taken in base, plus the dust an earlier close left (`carry`), floored
 * to the step: what a close can sell.
 */
export function sellableAmount(fills: readonly Fill[], market: MarketRules, carry: Decimal = money(0)): Decimal {
  let held = carry;
  for (const f of fills) held = held.plus(f.amount.mul(ONE.minus(market.feeRate)));
  return floorTo(held, market.stepSize);
}

/** Base a close could not sell (below the step) and the cost basis that goes with it, into the next close. */
export interface Carry {
  amount: Decimal;
  cost: Decimal;
}
export const NO_CARRY: Carry = { amount: money(0), cost: money(0) };
/** Cost bases are kept to 8 decimals of the quote: every quote currency's precision or finer. */
const COST_PLACES = 8;

export interface CloseResult {
  /** Base sold: what the buys left after fees taken in base, floored to the step (or what the exchange sold). */
  sellAmount: Decimal;
  /** Base left over (stays in the account, sold with the next close). */
  dust: Decimal;
  /** Quote received, net of the sell fee. */
  proceeds: Decimal;
  /** Quote spent on this cycle's buys. */
  cost: Decimal;
  /** The cost basis of what was sold: (carried cost + this cycle's cost) x sold / held. */
  costSold: Decimal;
  /** The cost basis of the dust, carried with it. */
  dustCost: Decimal;
  profit: Decimal;
}

/**
 * Closing a cycle at `price`: buy fees are taken in base (as Binance does), the sell fee in quote.
 * What cannot be sold (below the step) is not a loss: it stays in the account with its share of the
 * cost (average cost), and both are carried into the next close, so profit = proceeds - cost of what
 * was sold, and over several cycles every coin bought is sold and every quote spent is counted once.
 * `sold` is the exchange's figure when it differs from the plan.
 */
export function closeCycle(fills: readonly Fill[], price: Decimal, market: MarketRules, carry: Carry = NO_CARRY, sold?: Decimal): CloseResult {
  let held = carry.amount;
  let cost = money(0);
  for (const f of fills) {
    held = held.plus(f.amount.mul(ONE.minus(market.feeRate)));
    cost = cost.plus(f.amount.mul(f.price));
  }
  const basis = cost.plus(carry.cost);
  const sellAmount = sold ?? floorTo(held, market.stepSize);
  const share = held.isZero() || sellAmount.gte(held) ? ONE : sellAmount.div(held);
  const costSold = share.eq(ONE) ? basis : basis.mul(share).toDecimalPlaces(COST_PLACES, Decimal.ROUND_HALF_EVEN);
  const proceeds = sellAmount.mul(price).mul(ONE.minus(market.feeRate));
  const dust = held.minus(sellAmount);
  return { sellAmount, dust: dust.gt(0) ? dust : money(0), proceeds, cost, costSold, dustCost: basis.minus(costSold), profit: proceeds.minus(costSold) };
}

export type MartinField = keyof Omit<MartinParams, 'repeat'>;
export interface MartinProblem {
  field: MartinField;
  reason: 'required' | 'format' | 'range' | 'insufficient' | 'belowMinimum';
}

const DECIMAL = /^(0|[1-9]\d{0,17})(\.\d{1,18})?$/;

/**
 * Checks a martin bot's parameters against the bounds and the market (spec §5: required fields,
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
  decimalField('stopLoss', params.stopLoss, martinBounds.stopLoss, true);
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
