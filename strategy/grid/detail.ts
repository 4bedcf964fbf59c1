import type Decimal from 'decimal.js';
import type { GridLevels, GridParamsInput } from '../../contract/bots.ts';
import type { Held, KitDetail } from '../kit-types.ts';
import { money } from '../money.ts';
import { gridLevels, planGrid } from './plan.ts';
import type { GridParams } from './rules.ts';
import { gridExits, type GridState, type GridView } from './strategy.ts';

/** A grid's orders as stored or decoded: what its figures read of them. */
interface HeldOrders {
  trades?: number;
  orders?: ({ side: string; amount: string | Decimal; cost: string | Decimal; bought?: string | Decimal | undefined } | null)[];
  dust?: string | Decimal;
  dustCost?: string | Decimal;
}

/**
 * A grid bot's position for the lists and the detail screen: the base on its sell levels with what it cost,
 * and while it holds them its dust too (coin at no cost that an exit sells with them: README.md), so the
 * average and the floating PnL count all it holds.
 */
export function gridHeld(params: Pick<GridParams, 'grids'>, state: HeldOrders): Held & { dust: Decimal } {
  let amount = money(0);
  let cost = money(0);
  let bought = money(0);
  let sells = 0;
  for (const o of state.orders ?? [])
    if (o?.side === 'sell') {
      amount = amount.plus(o.amount);
      cost = cost.plus(o.cost);
      bought = bought.plus(o.bought ?? o.amount);
      sells++;
    }
  const dust = money(state.dust ?? '0');
  // The average buy price: what the held base cost per coin its buys got (before the fee taken in the
  // coin), as a martin bot's average entry is; its only fill's price for a grid that bought once.
  const average = bought.isZero() ? null : cost.div(bought).toDecimalPlaces(12);
  // The dust's cost (a sell filled in part left it) counts in what the position cost, not in its average buy.
  const held = sells > 0 ? cost.plus(state.dustCost ?? '0') : cost;
  return { cycle: (state.trades ?? 0) + 1, entries: sells, maxEntries: params.grids, amount: sells > 0 ? amount.plus(dust) : amount, cost: held, average, dust };
}

/** What the held base would bring at `price` after the sell fee, less what it cost. */
export function gridUnrealized(held: { amount: Decimal; cost: Decimal }, price: Decimal, feeRate: Decimal): Decimal {
  return held.amount.isZero() ? money(0) : held.amount.mul(price).mul(money(1).minus(feeRate)).minus(held.cost).toDecimalPlaces(8);
}

/** A grid's parameters as its form sends them (no exit price or trailing deviation: '', no trailing stop: false). */
export function gridInputParams(params: GridParams): GridParamsInput {
  return { ...params, stopLoss: params.stopLoss ?? '', takeProfit: params.takeProfit ?? '', trailingDeviation: params.trailingDeviation ?? '', trailingStop: params.trailingStop ?? false };
}

/**
 * The detail screen's grid: every level with the order waiting on it, the profit per grid, the position at
 * `price`, and its exits' lines as the engine acts on them (a trailing stop moves the stop loss; an armed
 * trailing take profit answers `trailing` and no next buy: the grid is being closed).
 */
export function gridDetail(state: GridState, { params, market }: GridView, price: Decimal): KitDetail {
  const levels = gridLevels(params, market.tickSize);
  const started = state.phase !== 'waiting' && state.orders.length === levels.length;
  const exits = state.phase === 'running' ? gridExits(state, { params, market }) : null;
  const plan = planGrid(params, market, price);
  const held = gridHeld(params, state);
  const sides = started ? state.orders.map((o) => o?.side ?? null) : levels.map((_, i) => (i < plan.empty ? 'buy' : i > plan.empty ? 'sell' : null));
  let nextBuy: Decimal | null = null;
  sides.forEach((side, i) => {
    if (side === 'buy' && (!nextBuy || levels[i]!.gt(nextBuy))) nextBuy = levels[i]!;
  });
  const grid: GridLevels = {
    quantity: (started ? state.quantity : plan.quantity).toFixed(),
    levels: levels.map((p, i) => ({ index: i, price: p.toFixed(), side: sides[i] ?? null })),
    profit: {
      min: plan.profit.min.toDecimalPlaces(8).toFixed(),
      max: plan.profit.max.toDecimalPlaces(8).toFixed(),
      minPct: plan.profit.minPct.toDecimalPlaces(4).toFixed(),
      maxPct: plan.profit.maxPct.toDecimalPlaces(4).toFixed(),
    },
    trades: state.trades,
  };
  return {
    amount: held.amount.toFixed(),
    dust: held.dust.toFixed(),
    unrealized: gridUnrealized(held, price, market.feeRate).toFixed(),
    takeProfitPrice: params.takeProfit ?? null,
    stopLossPrice: exits ? (exits.stop?.toFixed() ?? null) : (params.stopLoss ?? null),
    nextAddPrice: exits?.armed ? null : ((nextBuy as Decimal | null)?.toFixed() ?? null),
    ...(exits?.armed ? { trailing: { high: exits.armed.high.toFixed(), price: exits.armed.line.toFixed() } } : {}),
    averagePrice: held.average?.toFixed() ?? null,
    fills: [],
    levels: [],
    grid,
  };
}
