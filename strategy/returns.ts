import type Decimal from 'decimal.js';
import { money } from './money.ts';

/**
 * A bot's (or an account's) returns, exactly (docs/engine.md "Returns: ROI and APR"):
 * - total = realised + unrealised (quote; a grid's realised is its grid profit, its unrealised the
 *   floating PnL of the base it holds);
 * - ROI = total / investment x 100 (percent of the investment the trader set), null without an investment;
 * - APR = ROI x 365 days / runtime, null while the runtime is under one day (a few hours' result
 *   annualised says nothing) or without an ROI.
 * ROI and APR are rounded once, to 4 decimals (half to even), from the exact quotient; APR is computed
 * from the exact ROI, not the rounded one. The screens show 2 decimals.
 */
export const DAY_SECONDS = 86_400;
const YEAR_DAYS = 365;

export interface Returns {
  total: string;
  roi: string | null;
  apr: string | null;
}

export function returnsOf(input: { realized: string | Decimal; unrealized: string | Decimal; investment: string | Decimal; runtimeSeconds: number }): Returns {
  const total = money(input.realized).plus(money(input.unrealized));
  const investment = money(input.investment);
  if (!investment.gt(0)) return { total: total.toFixed(), roi: null, apr: null };
  const roi = total.div(investment).mul(100);
  const runtime = Math.floor(input.runtimeSeconds);
  const apr = runtime >= DAY_SECONDS ? roi.mul(YEAR_DAYS * DAY_SECONDS).div(runtime) : null;
  return { total: total.toFixed(), roi: roi.toDecimalPlaces(4).toFixed(), apr: apr ? apr.toDecimalPlaces(4).toFixed() : null };
}

/** Seconds a bot has run: from its first start to now, or to its last stop when it is stopped; 0 before any start. */
export function runtimeOf(firstStart: number | null, lastStop: number | null, stopped: boolean, now: number): number {
  if (firstStart === null) return 0;
  const end = stopped && lastStop !== null && lastStop >= firstStart ? lastStop : now;
  return Math.max(0, Math.floor((end - firstStart) / 1000));
}
