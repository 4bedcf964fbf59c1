import { validateGrid } from '../grid/plan.ts';
import type { GridParams } from '../grid/rules.ts';
import { validateMartin } from '../martin/plan.ts';
import type { MartinParams } from '../martin/rules.ts';
import type { MarketRules } from '../core/market.ts';
import type Decimal from 'decimal.js';
import { floorTo, money } from '../money.ts';

/**
 * An AI proposal created later than it was searched: the price has moved since. botCreate
 * checks it by the same rules as any bot; one the price now refuses (or a grid whose range the price
 * has left) is moved to the price now the way
 * the search placed it (a grid keeps its grid count, spacing and relative width, re-centred here; a
 * martin's prices are relative already) and checked again. `null`: it does not fit the price now
 * either, and the trader is asked to search again.
 */
export type Refit<P> = { params: P; moved: boolean } | null;

export function refitGrid(params: GridParams, market: MarketRules, price: Decimal): Refit<GridParams> {
  const lower = money(params.lower);
  const upper = money(params.upper);
  // A range the price has left is moved too: the search placed it around the price, and a grid started
  // outside it would buy (or hold) everything at once.
  if (price.gte(lower) && price.lte(upper) && validateGrid(params, market, price).length === 0) return { params, moved: false };
  if (!upper.gt(lower) || !lower.gt(0)) return null;
  // The search's range is ±w around its price: w = (upper - lower) / (upper + lower).
  const w = upper.minus(lower).div(upper.plus(lower));
  const moved: GridParams = { ...params, lower: floorTo(price.mul(money(1).minus(w)), market.tickSize).toFixed(), upper: floorTo(price.mul(money(1).plus(w)), market.tickSize).toFixed() };
  return validateGrid(moved, market, price).length === 0 ? { params: moved, moved: true } : null;
}

export function refitMartin(params: MartinParams, market: MarketRules, price: Decimal): Refit<MartinParams> {
  return validateMartin(params, market, price).length === 0 ? { params, moved: false } : null;
}
