import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import type { GridParamsInput } from '../../../../../contract/bots.ts';
import type { SymbolInfo } from '../../../../../contract/market.ts';
import { money } from '../../../../../strategy/money.ts';
import { GRID_THIN_PCT, gridDensity, planGrid, validateGrid, type GridField, type GridProblem } from '../../../../../strategy/grid/plan.ts';
import { gridBounds } from '../../../../../strategy/grid/rules.ts';
import { trailLine } from '../../../../../strategy/trailing.ts';
import { marketRules } from '../../market-rules.ts';
import type { FieldProblems } from '../../form-problems.ts';

/**
 * The grid form's values and checks: the engine's own (strategy/grid/plan.ts), so the form
 * accepts exactly what the server accepts and the preview is exactly the grid the engine will run.
 */
export interface GridValues {
  investment: string;
  lower: string;
  upper: string;
  grids: string;
  spacing: 'arithmetic' | 'geometric';
  stopLoss: string;
  takeProfit: string;
  /** Trailing take profit's fall from the high, percent; '': off. */
  trailingDeviation: string;
  /** The stop loss trails the high since the start. */
  trailingStop: boolean;
}

/** A first grid around the price now: 10% either side, 10 grids. */
export function defaultGridValues(price: string | undefined, tick = '0.01'): GridValues {
  const p = price ? money(price) : null;
  const dp = money(tick).decimalPlaces();
  return {
    investment: '1000',
    lower: p ? p.mul('0.9').toDecimalPlaces(dp).toFixed() : '',
    upper: p ? p.mul('1.1').toDecimalPlaces(dp).toFixed() : '',
    grids: '10',
    spacing: 'arithmetic',
    stopLoss: '',
    takeProfit: '',
    trailingDeviation: '',
    trailingStop: false,
  };
}

export function gridParamsFromValues(v: GridValues): GridParamsInput {
  const g = v.grids.trim();
  return {
    investment: v.investment.trim(),
    lower: v.lower.trim(),
    upper: v.upper.trim(),
    grids: /^\d{1,3}$/.test(g) ? Number(g) : Number.NaN,
    spacing: v.spacing,
    stopLoss: v.stopLoss.trim(),
    takeProfit: v.takeProfit.trim(),
    trailingDeviation: v.trailingDeviation.trim(),
    trailingStop: v.trailingStop,
  };
}

export function gridValuesFromParams(p: GridParamsInput): GridValues {
  return {
    investment: p.investment,
    lower: p.lower,
    upper: p.upper,
    grids: String(p.grids),
    spacing: p.spacing,
    stopLoss: p.stopLoss ?? '',
    takeProfit: p.takeProfit ?? '',
    trailingDeviation: p.trailingDeviation ?? '',
    trailingStop: p.trailingStop ?? false,
  };
}

const messages: Record<GridProblem['reason'], Partial<Record<GridField, MessageDescriptor>> & { default: MessageDescriptor }> = {
  required: { default: msg`必填` },
  format: { default: msg`请输入大于 0 的数字` },
  range: {
    default: msg`超出范围`,
    upper: msg`最高价须高于最低价`,
    grids: msg`网格数须在 2-150 之间，且每格至少一个最小价格变动`,
    stopLoss: msg`止损价须低于最低价`,
    takeProfit: msg`止盈价须高于最高价`,
    trailingDeviation: msg`回调幅度须在 0.1% 到 20% 之间`,
  },
  belowMinimum: { default: msg`投资金额太少：每格下单量低于交易所最小下单量` },
  unprofitable: { default: msg`网格太密：每格利润不足以覆盖手续费` },
  trailingNeedsTakeProfit: { default: msg`追踪止盈需要填写止盈价` },
  trailingStopNeedsStopLoss: { default: msg`追踪止损需要填写止损价` },
};

/**
 * The fields a problem is about: its own, and those it was checked against (an upper price not above the
 * lower one; a stop below the range; an order too small for the range and the number of grids).
 */
function aboutFields(problem: GridProblem, grids: number): GridField[] {
  const { field, reason } = problem;
  if (reason === 'range' && field === 'upper') return ['upper', 'lower'];
  if (reason === 'range' && field === 'stopLoss') return ['stopLoss', 'lower'];
  if (reason === 'range' && field === 'takeProfit') return ['takeProfit', 'upper'];
  if (reason === 'trailingNeedsTakeProfit') return ['takeProfit', 'trailingDeviation'];
  // A count out of 2-150 is the count's own; levels closer than a tick are the range's too.
  if (reason === 'range' && field === 'grids') return gridBounds.grids.min <= grids && grids <= gridBounds.grids.max ? ['grids', 'lower', 'upper'] : ['grids'];
  if (reason === 'belowMinimum') return ['investment', 'lower', 'upper', 'grids'];
  if (reason === 'unprofitable') return ['grids', 'lower', 'upper'];
  return [field];
}

/** The problem of each field (the first one of each), with its message and the fields it is about. */
export function checkGrid(v: GridValues, symbol: SymbolInfo): FieldProblems<GridField> {
  const p = gridParamsFromValues(v);
  const out: FieldProblems<GridField> = {};
  const params = { ...p, stopLoss: p.stopLoss || undefined, takeProfit: p.takeProfit || undefined, trailingDeviation: p.trailingDeviation || undefined };
  for (const problem of validateGrid(params, marketRules(symbol), money(symbol.price))) {
    out[problem.field] ??= { message: messages[problem.reason][problem.field] ?? messages[problem.reason].default, fields: aboutFields(problem, p.grids) };
  }
  return out;
}

const DECIMAL = /^(0|[1-9]\d{0,17})(\.\d{1,18})?$/;
const positive = (s: string) => DECIMAL.test(s) && money(s).gt(0);

/**
 * The trailing take profit's worst sale: the line at the take-profit price, `floor_tick(takeProfit x (1 -
 * v / 100))` (a turn right after arming sells there), and whether to warn: that line is not above the
 * upper price, so the bot can close inside its range, below what its own top sell level gets. Null when
 * off or not valid (the field's error speaks).
 */
export function gridTrailingNote(v: GridValues, tick: string): { worst: string; warn: boolean } | null {
  const dev = v.trailingDeviation.trim();
  const tp = v.takeProfit.trim();
  const { min, max } = gridBounds.trailingDeviation;
  if (!positive(dev) || !positive(tp) || money(dev).lt(min) || money(dev).gt(max)) return null;
  const worst = trailLine(money(tp), dev, money(tick));
  const upper = v.upper.trim();
  return { worst: worst.toFixed(), warn: positive(upper) && worst.lte(money(upper)) };
}

/**
 * A trailing stop's fall from the high that closes the bot, in percent to 2 decimals, for a start at
 * `price`: `(1 - stopLoss / price) x 100` (README.md "Trailing exits"). Null when off, or without a
 * valid stop loss below the price.
 */
export function gridStopNote(v: GridValues, price: string): string | null {
  const stop = v.stopLoss.trim();
  if (!v.trailingStop || !positive(stop) || !positive(price) || money(stop).gte(money(price))) return null;
  return money(1)
    .minus(money(stop).div(money(price)))
    .mul(100)
    .toDecimalPlaces(2)
    .toFixed(2);
}

/** The grid the engine would run at the price now (null while the values are not valid). */
export function gridPreview(v: GridValues, symbol: SymbolInfo) {
  if (Object.keys(checkGrid(v, symbol)).length > 0) return null;
  const p = gridParamsFromValues(v);
  const plan = planGrid({ ...p, stopLoss: undefined, takeProfit: undefined }, marketRules(symbol), money(symbol.price));
  return {
    quantity: plan.quantity.toFixed(),
    startBuy: plan.startBuy.toDecimalPlaces(2).toFixed(),
    levels: plan.levels.map((price, i) => ({ index: i, price: price.toFixed(), side: i < plan.empty ? 'buy' : i > plan.empty ? 'sell' : null })),
    // The server's rule for a dense grid (refused at no profit) warns here under GRID_THIN_PCT a grid.
    density: gridDensity(plan.profit),
    thinPct: GRID_THIN_PCT.toFixed(),
    profit: {
      min: plan.profit.min.toDecimalPlaces(4).toFixed(),
      max: plan.profit.max.toDecimalPlaces(4).toFixed(),
      minPct: plan.profit.minPct.toDecimalPlaces(2).toFixed(),
      maxPct: plan.profit.maxPct.toDecimalPlaces(2).toFixed(),
    },
  };
}

/**
 * What resting its levels as limit orders saves a grid against market orders (docs/performance.md measures
 * it on a simulated week): each fill pays the maker's fee, not the taker's, and is never filled past its
 * level. In fees, per 100 fills of one grid's amount at the price now; null where the exchange's market
 * names no cheaper maker fee.
 */
export function gridMakerSaving(quantity: string, symbol: Pick<SymbolInfo, 'price' | 'feeRate' | 'makerFeeRate'>): { maker: string; taker: string; per100: string } | null {
  if (!symbol.makerFeeRate) return null;
  const maker = money(symbol.makerFeeRate);
  const taker = money(symbol.feeRate);
  if (!maker.lt(taker)) return null;
  const per100 = money(quantity).mul(symbol.price).mul(taker.minus(maker)).mul(100);
  return { maker: maker.mul(100).toFixed(), taker: taker.mul(100).toFixed(), per100: per100.toDecimalPlaces(2).toFixed() };
}
