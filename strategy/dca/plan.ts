import type Decimal from 'decimal.js';
import { floorTo, money } from '../money.ts';
import { buyAmount, takeProfitPrice } from '../core/position.ts';
import type { MarketRules } from '../core/market.ts';
import { validateCustom, type CustomProblem } from '../custom/rules.ts';
import { dcaBounds, type DcaParams, type DcaStart } from './rules.ts';

const ONE = money(1);
const HUNDRED = money(100);

/**
 * The n-th safety order's total deviation below the base order's price, in percent (n >= 1):
 * d x (s^n - 1) / (s - 1), computed exactly as d x (1 + s + ... + s^(n-1)) (n x d when s = 1).
 */
export function safetyDeviation(params: Pick<DcaParams, 'deviation' | 'stepScale'>, n: number): Decimal {
  const s = money(params.stepScale);
  let sum = money(0);
  let power = ONE;
  for (let k = 0; k < n; k++) {
    sum = sum.plus(power);
    power = power.mul(s);
  }
  return money(params.deviation).mul(sum);
}

/** The n-th safety order's trigger price: base x (1 - deviation_n / 100), floored to the tick. */
export function safetyPrice(base: Decimal, params: Pick<DcaParams, 'deviation' | 'stepScale'>, n: number, tick: Decimal): Decimal {
  return floorTo(base.mul(ONE.minus(safetyDeviation(params, n).div(HUNDRED))), tick);
}

/** The quote the n-th order of a deal spends: the base order for n = 0, safetyOrder x v^(n-1) for n >= 1. */
export function dealOrderQuote(params: Pick<DcaParams, 'baseOrder' | 'safetyOrder' | 'volumeScale'>, n: number): Decimal {
  return n === 0 ? money(params.baseOrder) : money(params.safetyOrder).mul(money(params.volumeScale).pow(n - 1));
}

/** The funds one deal can need: the base order and every safety order. */
export function dealFunds(params: Pick<DcaParams, 'baseOrder' | 'safetyOrder' | 'volumeScale' | 'maxSafetyOrders'>): Decimal {
  let total = money(0);
  for (let n = 0; n <= params.maxSafetyOrders; n++) total = total.plus(dealOrderQuote(params, n));
  return total;
}

/** The stop-loss price: `stopLoss`% below the base order's price, floored to the tick. */
export function dcaStopPrice(base: Decimal, stopLoss: string, tick: Decimal): Decimal {
  return floorTo(base.mul(ONE.minus(money(stopLoss).div(HUNDRED))), tick);
}

export interface DealOrder {
  /** 0: the base order; 1..N: the safety orders. */
  index: number;
  /** Total deviation below the base price, percent (0 for the base order). */
  deviation: Decimal;
  price: Decimal;
  quote: Decimal;
  amount: Decimal;
  cost: Decimal;
  /** After this order: base bought and quote spent by the deal so far, the average cost and the take-profit price. */
  totalAmount: Decimal;
  totalCost: Decimal;
  average: Decimal;
  takeProfit: Decimal;
}

/** A deal as planned from `startPrice` (the base order fills there, every safety order at its trigger). */
export function planDeal(params: DcaParams, market: MarketRules, startPrice: Decimal): DealOrder[] {
  const base = floorTo(startPrice, market.tickSize);
  const orders: DealOrder[] = [];
  let totalAmount = money(0);
  let totalCost = money(0);
  for (let n = 0; n <= params.maxSafetyOrders; n++) {
    const price = n === 0 ? base : safetyPrice(base, params, n, market.tickSize);
    const quote = dealOrderQuote(params, n);
    const amount = buyAmount(quote, price, market.stepSize);
    const cost = amount.mul(price);
    totalAmount = totalAmount.plus(amount);
    totalCost = totalCost.plus(cost);
    const average = totalAmount.isZero() ? price : totalCost.div(totalAmount);
    orders.push({
      index: n,
      deviation: n === 0 ? money(0) : safetyDeviation(params, n),
      price,
      quote,
      amount,
      cost,
      totalAmount,
      totalCost,
      average,
      takeProfit: takeProfitPrice(average, params.takeProfit, market.tickSize),
    });
  }
  return orders;
}

const MINUTE = 60_000;
const DAY = 86_400_000;

/**
 * The first scheduled start at or after `at` (ms since the epoch, UTC): `time` (HH:MM) at `utcOffset`
 * minutes east of UTC, every day, or every week on ISO weekday `weekday` (1 Monday .. 7 Sunday).
 */
export function nextSlot(at: number, start: Extract<DcaStart, { kind: 'schedule' }>): number {
  const [h, m] = start.time.split(':').map(Number) as [number, number];
  const offset = start.utcOffset * MINUTE;
  const local = at + offset;
  const day = Math.floor(local / DAY);
  let slot = day * DAY + (h * 60 + m) * MINUTE;
  if (start.every === 'week') {
    // 1970-01-01 was a Thursday (ISO 4).
    const weekday = ((((day + 3) % 7) + 7) % 7) + 1;
    slot += (((((start.weekday ?? 1) - weekday) % 7) + 7) % 7) * DAY;
    if (slot < local) slot += 7 * DAY;
  } else if (slot < local) slot += DAY;
  return slot - offset;
}

export type DcaField = keyof Omit<DcaParams, 'start' | 'trailingStop'> | 'start';
export interface DcaProblem {
  field: DcaField;
  /**
   * insufficient: the investment is below the funds a deal can need; belowMinimum: an order is below the
   * market's minimum amount or cost; tooDeep: the last safety order's deviation reaches 99 % or more;
   * withinSafety: the stop loss is at or above the last safety order's deviation (that order could never fill);
   * trailingStopNeedsStopLoss: a trailing stop without a stop loss percentage (said on the stop loss);
   * rule: the indicator start's rule has a problem, `rule` (the custom bot's, its field under `start.rule`).
   */
  reason: 'required' | 'format' | 'range' | 'insufficient' | 'belowMinimum' | 'tooDeep' | 'withinSafety' | 'trailingStopNeedsStopLoss' | 'rule';
  rule?: CustomProblem;
}

/**
 * An indicator start's rule checked by the custom bot's own validation (validateCustom: the rule as the
 * entry rule of a custom bot otherwise valid), so a DCA start and a custom bot accept exactly the same
 * rules; each problem's field is its path under the start (`start.rule.conditions.0.right.period`).
 */
export function startRuleProblems(rule: unknown): CustomProblem[] {
  const probe = { investment: '1', size: { kind: 'fixed', quote: '1' }, entry: rule, takeProfit: '1', repeat: true };
  return validateCustom(probe)
    .filter((p) => p.field === 'entry' || p.field.startsWith('entry.'))
    .map((p) => ({ ...p, field: `start.rule${p.field.slice('entry'.length)}` }));
}

const DECIMAL = /^(0|[1-9]\d{0,17})(\.\d{1,18})?$/;
const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;
const isInt = (v: unknown, min: number, max: number) => typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max;

function checkStart(start: unknown): boolean {
  if (!start || typeof start !== 'object') return false;
  const s = start as Record<string, unknown>;
  if (s.kind === 'now' || s.kind === 'indicator' || s.kind === 'signal') return true;
  if (s.kind !== 'schedule' || (s.every !== 'day' && s.every !== 'week')) return false;
  if (typeof s.time !== 'string' || !TIME.test(s.time) || !isInt(s.utcOffset, -720, 840)) return false;
  return s.every === 'day' || isInt(s.weekday, 1, 7);
}

/**
 * Checks a DCA bot's parameters against the bounds and the market: required fields, ranges, an
 * investment that covers a whole deal, every order at or above the market's minimum (planned from
 * `startPrice`), the deepest safety order above a price of zero and above the stop loss. Every problem
 * found is returned; none means the bot can start.
 */
export function validateDca(params: Partial<DcaParams>, market: MarketRules, startPrice: Decimal): DcaProblem[] {
  const problems: DcaProblem[] = [];
  const b = dcaBounds;
  const decimalField = (field: DcaField, value: unknown, bounds?: { min: string; max: string }, optional = false) => {
    if (value === undefined || value === '') {
      if (!optional) problems.push({ field, reason: 'required' });
      return false;
    }
    if (typeof value !== 'string' || !DECIMAL.test(value)) return problems.push({ field, reason: 'format' }) && false;
    const v = money(value);
    if (bounds ? v.lt(bounds.min) || v.gt(bounds.max) : v.lte(0)) return problems.push({ field, reason: 'range' }) && false;
    return true;
  };
  decimalField('investment', params.investment);
  decimalField('baseOrder', params.baseOrder);
  decimalField('safetyOrder', params.safetyOrder);
  decimalField('deviation', params.deviation, b.deviation);
  decimalField('stepScale', params.stepScale, b.stepScale);
  decimalField('volumeScale', params.volumeScale, b.volumeScale);
  decimalField('takeProfit', params.takeProfit, b.takeProfit);
  decimalField('stopLoss', params.stopLoss, b.stopLoss, true);
  decimalField('trailingDeviation', params.trailingDeviation, b.trailingDeviation, true);
  const n = params.maxSafetyOrders;
  if (!isInt(n, b.maxSafetyOrders.min, b.maxSafetyOrders.max)) problems.push({ field: 'maxSafetyOrders', reason: n === undefined ? 'required' : 'range' });
  if (params.cooldown !== undefined && !isInt(params.cooldown, b.cooldown.min, b.cooldown.max)) problems.push({ field: 'cooldown', reason: 'range' });
  if (params.start === undefined) problems.push({ field: 'start', reason: 'required' });
  else if (!checkStart(params.start)) problems.push({ field: 'start', reason: 'format' });
  else if (params.start.kind === 'indicator') for (const rule of startRuleProblems(params.start.rule)) problems.push({ field: 'start', reason: 'rule', rule });
  if (params.trailingStop === true && (params.stopLoss === undefined || params.stopLoss === '')) problems.push({ field: 'stopLoss', reason: 'trailingStopNeedsStopLoss' });
  if (problems.length > 0) return problems;

  const full = params as DcaParams;
  if (full.maxSafetyOrders > 0) {
    const deepest = safetyDeviation(full, full.maxSafetyOrders);
    if (deepest.gte(b.maxTotalDeviation)) return [{ field: 'deviation', reason: 'tooDeep' }];
    if (full.stopLoss && money(full.stopLoss).lte(deepest)) problems.push({ field: 'stopLoss', reason: 'withinSafety' });
  }
  if (money(full.investment).lt(dealFunds(full))) problems.push({ field: 'investment', reason: 'insufficient' });
  const orders = planDeal(full, market, startPrice);
  const small = (o: DealOrder) => o.amount.lt(market.minAmount) || o.amount.isZero() || o.cost.lt(market.minCost);
  if (small(orders[0]!)) problems.push({ field: 'baseOrder', reason: 'belowMinimum' });
  if (orders.slice(1).some(small)) problems.push({ field: 'safetyOrder', reason: 'belowMinimum' });
  return problems;
}
