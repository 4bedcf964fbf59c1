import type Decimal from 'decimal.js';
import { floorTo, money } from '../money.ts';
import type { MarketRules } from '../martin/rules.ts';
import { gridBounds, type GridParams } from './rules.ts';

const ONE = money(1);

/**
 * The grid's maths (README.md has the formulas and a worked example). Levels are the grids + 1 prices
 * from lower to upper, each floored to the tick; every grid order trades the same base amount q.
 */
export function gridLevels(params: Pick<GridParams, 'lower' | 'upper' | 'grids' | 'spacing'>, tick: Decimal): Decimal[] {
  const lower = money(params.lower);
  const upper = money(params.upper);
  const n = params.grids;
  const levels: Decimal[] = [];
  const ratio = params.spacing === 'geometric' ? upper.div(lower).pow(ONE.div(n)) : null;
  for (let i = 0; i <= n; i++) {
    const exact = i === n ? upper : ratio ? lower.mul(ratio.pow(i)) : lower.plus(upper.minus(lower).mul(i).div(n));
    levels.push(floorTo(exact, tick));
  }
  return levels;
}

/** The level left without an order at the start: the one nearest the start price (the lower one on a tie). */
export function emptyLevel(levels: readonly Decimal[], price: Decimal): number {
  let best = 0;
  for (let i = 1; i < levels.length; i++) if (levels[i]!.minus(price).abs().lt(levels[best]!.minus(price).abs())) best = i;
  return best;
}

/**
 * The base amount every grid order trades: the investment buys q at each level below the empty one
 * (when the price gets there) and q for each level above it (now, at the start price, to be sold there):
 * q = investment / (sum of the buy levels' prices + sells x start price x (1 + fee)), floored to the step.
 */
export function gridQuantity(params: Pick<GridParams, 'investment'>, levels: readonly Decimal[], price: Decimal, market: MarketRules): Decimal {
  const k = emptyLevel(levels, price);
  let perUnit = money(0);
  for (let i = 0; i < k; i++) perUnit = perUnit.plus(levels[i]!);
  perUnit = perUnit.plus(price.mul(levels.length - 1 - k).mul(ONE.plus(market.feeRate)));
  if (perUnit.isZero()) return money(0);
  return floorTo(money(params.investment).div(perUnit), market.stepSize);
}

/** One grid's profit: buy q at `low`, sell what is left after the buy fee at `high`, less the sell fee. */
export function gridProfit(q: Decimal, low: Decimal, high: Decimal, market: MarketRules): Decimal {
  const sold = floorTo(q.mul(ONE.minus(market.feeRate)), market.stepSize);
  return sold.mul(high).mul(ONE.minus(market.feeRate)).minus(q.mul(low));
}

export interface GridPlan {
  levels: Decimal[];
  empty: number;
  quantity: Decimal;
  /** Quote the start buys (the sells' base) and the quote kept for the buys. */
  startBuy: Decimal;
  /** Smallest and largest profit of one grid, in quote and in percent of its buy. */
  profit: { min: Decimal; max: Decimal; minPct: Decimal; maxPct: Decimal };
}

export function planGrid(params: GridParams, market: MarketRules, price: Decimal): GridPlan {
  const levels = gridLevels(params, market.tickSize);
  const empty = emptyLevel(levels, price);
  const quantity = gridQuantity(params, levels, price, market);
  let min: Decimal | null = null;
  let max: Decimal | null = null;
  let minPct: Decimal | null = null;
  let maxPct: Decimal | null = null;
  for (let i = 0; i + 1 < levels.length; i++) {
    const p = gridProfit(quantity, levels[i]!, levels[i + 1]!, market);
    const pct = quantity.isZero() ? money(0) : p.div(quantity.mul(levels[i]!)).mul(100);
    if (!min || p.lt(min)) min = p;
    if (!max || p.gt(max)) max = p;
    if (!minPct || pct.lt(minPct)) minPct = pct;
    if (!maxPct || pct.gt(maxPct)) maxPct = pct;
  }
  const sells = levels.length - 1 - empty;
  return { levels, empty, quantity, startBuy: quantity.mul(sells).mul(price), profit: { min: min!, max: max!, minPct: minPct!, maxPct: maxPct! } };
}

export type GridField = 'investment' | 'lower' | 'upper' | 'grids' | 'stopLoss' | 'takeProfit' | 'trailingDeviation';
export interface GridProblem {
  field: GridField;
  /**
   * trailingNeedsTakeProfit: a trailing deviation without a take-profit price (said on the take profit);
   * trailingStopNeedsStopLoss: a trailing stop without a stop-loss price (said on the stop loss).
   */
  reason: 'required' | 'format' | 'range' | 'belowMinimum' | 'unprofitable' | 'trailingNeedsTakeProfit' | 'trailingStopNeedsStopLoss';
}

const DECIMAL = /^(0|[1-9]\d{0,17})(\.\d{1,18})?$/;

/** The checks a grid's parameters must pass at a start price, in field order (the first one is the answer). */
export function validateGrid(params: Partial<GridParams>, market: MarketRules, price: Decimal): GridProblem[] {
  const out: GridProblem[] = [];
  for (const field of ['investment', 'lower', 'upper'] as const) {
    const v = params[field];
    if (v === undefined || v === '') out.push({ field, reason: 'required' });
    else if (!DECIMAL.test(v) || money(v).lte(0)) out.push({ field, reason: 'format' });
  }
  const g = params.grids;
  if (g === undefined || !Number.isInteger(g) || g < gridBounds.grids.min || g > gridBounds.grids.max) out.push({ field: 'grids', reason: 'range' });
  for (const field of ['stopLoss', 'takeProfit'] as const) {
    const v = params[field];
    if (v !== undefined && v !== '' && (!DECIMAL.test(v) || money(v).lte(0))) out.push({ field, reason: 'format' });
  }
  // The trailing exits (README.md "Trailing exits"): each needs the price it trails.
  if (params.trailingStop === true && !params.stopLoss) out.push({ field: 'stopLoss', reason: 'trailingStopNeedsStopLoss' });
  const dev = params.trailingDeviation;
  if (dev !== undefined && dev !== '') {
    const { min, max } = gridBounds.trailingDeviation;
    if (!DECIMAL.test(dev)) out.push({ field: 'trailingDeviation', reason: 'format' });
    else if (money(dev).lt(min) || money(dev).gt(max)) out.push({ field: 'trailingDeviation', reason: 'range' });
    if (!params.takeProfit) out.push({ field: 'takeProfit', reason: 'trailingNeedsTakeProfit' });
  }
  if (out.length > 0) return out;
  const p = params as GridParams;
  const lower = money(p.lower);
  const upper = money(p.upper);
  if (upper.lte(lower)) return [{ field: 'upper', reason: 'range' }];
  if (p.stopLoss && money(p.stopLoss).gte(lower)) out.push({ field: 'stopLoss', reason: 'range' });
  if (p.takeProfit && money(p.takeProfit).lte(upper)) out.push({ field: 'takeProfit', reason: 'range' });
  if (out.length > 0) return out;
  const plan = planGrid({ ...p, spacing: p.spacing ?? 'arithmetic' }, market, price);
  // Levels must stay distinct after rounding to the tick, and each order must meet the market minimums.
  for (let i = 1; i < plan.levels.length; i++) if (plan.levels[i]!.lte(plan.levels[i - 1]!)) return [{ field: 'grids', reason: 'range' }];
  if (plan.quantity.lt(market.minAmount) || plan.quantity.mul(plan.levels[0]!).lt(market.minCost) || plan.quantity.isZero()) return [{ field: 'investment', reason: 'belowMinimum' }];
  if (plan.profit.min.lte(0)) return [{ field: 'grids', reason: 'unprofitable' }];
  return [];
}
