import type Decimal from 'decimal.js';
import { floorTo, money } from '../money.ts';
import type { MarketRules } from '../martin/rules.ts';
import { clientOrderId, type BotId, type ClientOrderId, type Decide, type Intent, type PlaceOrder } from '../types.ts';
import { gridLevels, planGrid } from './plan.ts';
import type { GridParams } from './rules.ts';

/**
 * The grid bot (README.md): a buy order waits at every level below the start price and a sell order at
 * every level above it, one level left empty. A buy that fills at level i puts a sell at level i + 1;
 * a sell that fills at level i books that grid's profit and puts a buy at level i - 1. Orders are the
 * engine's market orders sent when the price reaches a level (virtual limit orders): one order in
 * flight at a time, so a crash is always reconciled by client order id, as for martin.
 */
export interface GridOrder {
  side: 'buy' | 'sell';
  /** Base to buy (q) or to sell (what the buy below left after its fee). */
  amount: Decimal;
  /** What the base to sell cost (quote); 0 for a buy. */
  cost: Decimal;
}

export interface GridState {
  bot: BotId;
  /** waiting: not started; running: orders on the levels; done: stopped by stop loss / take profit / a close. */
  phase: 'waiting' | 'running' | 'done';
  seq: number;
  /** Grids completed (a buy and its sell one level up): the engine's "cycles". */
  trades: number;
  quantity: Decimal;
  /** One entry per level, lower to upper; null: the empty level. */
  orders: (GridOrder | null)[];
  pending: { id: ClientOrderId; level: number; reason: PlaceOrder['reason'] } | null;
  realized: Decimal;
}

export interface GridView {
  params: GridParams;
  market: MarketRules;
}

type Result = { state: GridState; intents: Intent[] };
const ONE = money(1);

export function initialGridState(bot: BotId): GridState {
  return { bot, phase: 'waiting', seq: 0, trades: 0, quantity: money(0), orders: [], pending: null, realized: money(0) };
}

function place(state: GridState, level: number, order: Omit<PlaceOrder, 'type' | 'clientOrderId'>): Result {
  const seq = state.seq + 1;
  const id = clientOrderId(state.bot, 1, seq);
  return { state: { ...state, seq, pending: { id, level, reason: order.reason } }, intents: [{ type: 'PlaceOrder', clientOrderId: id, ...order }] };
}

/**
 * The levels of a view's grid, computed once per view (the engine and a backtest keep one view per bot
 * and its parameters; a geometric grid's levels cost a power per level): the same answer, cached.
 */
const levelsByView = new WeakMap<GridView, Decimal[]>();
function levelsOf(view: GridView): Decimal[] {
  let levels = levelsByView.get(view);
  if (!levels) {
    levels = gridLevels(view.params, view.market.tickSize);
    levelsByView.set(view, levels);
  }
  return levels;
}

/** The prices that make the grid act: the highest buy level and the lowest sell level, with the exits. */
export function gridTriggers(state: GridState, view: GridView): { down: Decimal | null; up: Decimal | null } {
  if (state.phase !== 'running') return { down: null, up: null };
  const levels = levelsOf(view);
  let down: Decimal | null = view.params.stopLoss ? money(view.params.stopLoss) : null;
  let up: Decimal | null = view.params.takeProfit ? money(view.params.takeProfit) : null;
  state.orders.forEach((o, i) => {
    if (o?.side === 'buy' && (!down || levels[i]!.gt(down))) down = levels[i]!;
    // A sell of nothing (a share floored to 0) waits for no price: onPrice never places it.
    if (o?.side === 'sell' && o.amount.gt(0) && (!up || levels[i]!.lt(up))) up = levels[i]!;
  });
  return { down, up };
}

/** Everything held, to sell on an exit: the sell orders' base and what it cost. */
function held(state: GridState): { amount: Decimal; cost: Decimal } {
  let amount = money(0);
  let cost = money(0);
  for (const o of state.orders)
    if (o?.side === 'sell') {
      amount = amount.plus(o.amount);
      cost = cost.plus(o.cost);
    }
  return { amount, cost };
}

function exit(state: GridState, view: GridView, reason: 'stop' | 'close' | 'manual_close'): Result {
  const { amount } = held(state);
  const sellable = floorTo(amount, view.market.stepSize);
  if (sellable.isZero()) return { state: { ...state, phase: 'done' }, intents: [] };
  return place(state, -1, { side: 'sell', amount: sellable, reason });
}

function onPrice(state: GridState, price: Decimal, view: GridView): Result {
  const { params, market } = view;
  if (state.phase === 'done' || state.pending) return { state, intents: [] };
  if (state.phase === 'waiting') {
    const plan = planGrid(params, market, price);
    const orders: (GridOrder | null)[] = plan.levels.map((_, i) => (i < plan.empty ? { side: 'buy', amount: plan.quantity, cost: money(0) } : null));
    const sells = plan.levels.length - 1 - plan.empty;
    const next: GridState = { ...state, quantity: plan.quantity, orders };
    if (sells === 0) return { state: { ...next, phase: 'running' }, intents: [] };
    // The base for the sells above the start price, bought now.
    return place(next, plan.empty, { side: 'buy', quote: plan.quantity.mul(sells).mul(price), reason: 'open' });
  }
  if (params.stopLoss && price.lte(params.stopLoss)) return exit(state, view, 'stop');
  if (params.takeProfit && price.gte(params.takeProfit)) return exit(state, view, 'close');
  const levels = levelsOf(view);
  for (let i = state.orders.length - 1; i >= 0; i--) {
    const o = state.orders[i];
    if (o?.side === 'buy' && price.lte(levels[i]!)) return place(state, i, { side: 'buy', quote: o.amount.mul(price), reason: 'add' });
  }
  for (let i = 0; i < state.orders.length; i++) {
    const o = state.orders[i];
    if (o?.side === 'sell' && price.gte(levels[i]!) && o.amount.gt(0)) return place(state, i, { side: 'sell', amount: o.amount, reason: 'close' });
  }
  return { state, intents: [] };
}

function onFill(state: GridState, side: 'buy' | 'sell', price: Decimal, amount: Decimal, view: GridView): Result {
  const pending = state.pending!;
  const fee = view.market.feeRate;
  const orders = [...state.orders];
  const base = { ...state, pending: null, orders };
  if (pending.reason === 'open') {
    // The start buy: its base (after the fee) is shared out over the sell levels above the empty one.
    const sells = orders.length - 1 - pending.level;
    const each = floorTo(amount.mul(ONE.minus(fee)).div(sells), view.market.stepSize);
    const cost = amount.mul(price).div(sells);
    for (let i = pending.level + 1; i < orders.length; i++) orders[i] = { side: 'sell', amount: each, cost };
    return { state: { ...base, phase: 'running' }, intents: [] };
  }
  if (pending.level < 0) {
    // An exit: everything sold; the profit of the whole position is booked and the bot is done.
    const { cost } = held(state);
    const profit = amount.mul(price).mul(ONE.minus(fee)).minus(cost);
    const trades = state.trades + 1;
    return { state: { ...base, phase: 'done', trades, orders: orders.map(() => null), realized: state.realized.plus(profit) }, intents: [{ type: 'CycleClosed', cycle: trades, profit }] };
  }
  const i = pending.level;
  if (side === 'buy') {
    orders[i] = null;
    orders[i + 1] = { side: 'sell', amount: floorTo(amount.mul(ONE.minus(fee)), view.market.stepSize), cost: amount.mul(price) };
    return { state: base, intents: [] };
  }
  const sold = orders[i]!;
  // The cost of what was sold (the exchange may sell a little less than asked).
  const cost = sold.amount.isZero() ? money(0) : sold.cost.mul(amount.div(sold.amount));
  const profit = amount.mul(price).mul(ONE.minus(fee)).minus(cost);
  orders[i] = null;
  if (i > 0) orders[i - 1] = { side: 'buy', amount: state.quantity, cost: money(0) };
  const trades = state.trades + 1;
  return { state: { ...base, trades, realized: state.realized.plus(profit) }, intents: [{ type: 'CycleClosed', cycle: trades, profit }] };
}

/** The grid strategy as a pure function of (state, event). */
export const decideGrid: Decide<GridState, GridView> = (state, event, view) => {
  switch (event.type) {
    case 'BotStarted':
    case 'PriceTicked':
      return onPrice(state, event.price, view);
    case 'ManualAddRequested':
    case 'SignalReceived': // signals are for DCA and custom bots only
      return { state, intents: [] };
    case 'ManualCloseRequested':
      if (state.phase !== 'running' || state.pending) return { state, intents: [] };
      return exit(state, view, 'manual_close');
    case 'OrderRejected':
      if (state.pending?.id !== event.clientOrderId) return { state, intents: [] };
      return { state: { ...state, pending: null }, intents: [{ type: 'PauseBot', reason: event.reason }] };
    case 'OrderFilled':
      if (state.pending?.id !== event.clientOrderId) return { state, intents: [] };
      return onFill(state, event.side, event.price, event.amount, view);
  }
};
