import type Decimal from 'decimal.js';
import { ceilTo, floorTo, money } from '../money.ts';
import type { MarketRules } from '../core/market.ts';
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
 * What a grid buys to sell q: the fee is taken in the coin bought, so it buys enough that q is left
 * after it, `ceil_step(q / (1 - fee))`, as the exchanges' grid bots do. What that leaves over q (under a
 * step) is the grid's dust, sold with a later sell once it adds up to a step (README.md).
 */
export function grossBuy(q: Decimal, market: MarketRules): Decimal {
  return q.isZero() ? q : ceilTo(q.div(ONE.minus(market.feeRate)), market.stepSize);
}

/** What the start buys at `price` for `sells` levels of q: enough that sells x q is left after the fee. */
export function startAmount(q: Decimal, sells: number, market: MarketRules): Decimal {
  return sells === 0 ? money(0) : grossBuy(q.mul(sells), market);
}

/** The quote a grid of q spends at most: every buy level's gross buy at its price and the start buy at `price`. */
function gridSpend(q: Decimal, levels: readonly Decimal[], k: number, price: Decimal, market: MarketRules): Decimal {
  const b = grossBuy(q, market);
  let spend = startAmount(q, levels.length - 1 - k, market).mul(price);
  for (let i = 0; i < k; i++) spend = spend.plus(b.mul(levels[i]!));
  return spend;
}

/**
 * The base amount every grid order sells, q: the investment buys grossBuy(q) at each level below the
 * empty one (when the price gets there) and, now at the start price, q after the fee for each level above
 * it: q = floor_step(investment x (1 - fee) / (sum of the buy levels' prices + sells x start price)), less
 * a step while the rounding up of the buys would spend more than the investment.
 */
export function gridQuantity(params: Pick<GridParams, 'investment'>, levels: readonly Decimal[], price: Decimal, market: MarketRules): Decimal {
  const k = emptyLevel(levels, price);
  let perUnit = money(0);
  for (let i = 0; i < k; i++) perUnit = perUnit.plus(levels[i]!);
  perUnit = perUnit.plus(price.mul(levels.length - 1 - k));
  if (perUnit.isZero()) return money(0);
  const investment = money(params.investment);
  let q = floorTo(investment.mul(ONE.minus(market.feeRate)).div(perUnit), market.stepSize);
  while (q.gt(0) && gridSpend(q, levels, k, price, market).gt(investment)) q = q.minus(market.stepSize);
  return q;
}

/**
 * One grid's profit, net of both fees and the step: it buys grossBuy(q) at `low` and sells all of it that
 * is left after the buy fee at `high`, less the sell fee: q at once, what the step leaves with a later sell.
 */
export function gridProfit(q: Decimal, low: Decimal, high: Decimal, market: MarketRules): Decimal {
  const net = ONE.minus(market.feeRate);
  const bought = grossBuy(q, market);
  return bought.mul(net).mul(high).mul(net).minus(bought.mul(low));
}

/** Below this profit per grid (percent of its buy, the smallest over the grids) the form warns that the grid is dense: fees eat most of it. */
export const GRID_THIN_PCT = money('0.1');

/**
 * The one rule for a grid's spacing, the same in the form and on the server: `unprofitable` (refused)
 * when a grid's profit net of both fees and the step is zero or less; `thin` (warned) when it is below
 * GRID_THIN_PCT of the grid's buy; `ok` otherwise.
 */
export function gridDensity(profit: GridPlan['profit']): 'ok' | 'thin' | 'unprofitable' {
  if (profit.min.lte(0)) return 'unprofitable';
  return profit.minPct.lt(GRID_THIN_PCT) ? 'thin' : 'ok';
}

export interface GridPlan {
  levels: Decimal[];
  empty: number;
  quantity: Decimal;
  /** Quote the start buys (the sells' base, with the fee taken in it). */
  startBuy: Decimal;
  /** Smallest and largest profit of one grid, net of both fees and the step, in quote and in percent of its buy (gridProfit). */
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
    const pct = quantity.isZero() ? money(0) : p.div(grossBuy(quantity, market).mul(levels[i]!)).mul(100);
    if (!min || p.lt(min)) min = p;
    if (!max || p.gt(max)) max = p;
    if (!minPct || pct.lt(minPct)) minPct = pct;
    if (!maxPct || pct.gt(maxPct)) maxPct = pct;
  }
  const sells = levels.length - 1 - empty;
  return { levels, empty, quantity, startBuy: startAmount(quantity, sells, market).mul(price), profit: { min: min!, max: max!, minPct: minPct!, maxPct: maxPct! } };
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
  if (gridDensity(plan.profit) === 'unprofitable') return [{ field: 'grids', reason: 'unprofitable' }];
  return [];
}
