import type Decimal from 'decimal.js';
import { floorTo, money } from '../money.ts';
import { fillFeeRate, type MarketRules } from '../core/market.ts';
import { stepTrailingTakeProfit, trailLine, type TrailStep } from '../trailing.ts';
import { clientOrderId, type BotId, type ClientOrderId, type Decide, type Intent, type PlaceOrder } from '../types.ts';
import { gridLevels, grossBuy, planGrid, startAmount } from './plan.ts';
import type { GridParams } from './rules.ts';

/**
 * The grid bot (README.md): a buy order waits at every level below the start price and a sell order at
 * every level above it, one level left empty. A buy that fills at level i puts a sell at level i + 1;
 * a sell that fills at level i books that grid's profit and puts a buy at level i - 1. Orders are the
 * engine's market orders sent when the price reaches a level (virtual limit orders): one order in
 * flight at a time, so a crash is always reconciled by client order id, as for martin. Its exits, at
 * a take-profit and a stop-loss price, may trail (README.md "Trailing exits").
 */
export interface GridOrder {
  side: 'buy' | 'sell';
  /** A buy: the base it is to leave after the fee (q; it buys grossBuy(q)). A sell: the base to sell (what the buy below left after its fee, floored to the step, with the dust once it adds up to a step). */
  amount: Decimal;
  /** What the base to sell cost (quote); 0 for a buy. */
  cost: Decimal;
  /** A sell: the base its buy got, before the fee taken in it (the average buy price is cost / bought); absent in a state stored before it was kept. */
  bought?: Decimal;
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
  /** The grid's coin below the step that no sell order holds (what the fee and the step leave of its buys), at no cost: added to the next sell once it adds up to a step, and to an exit's sale. */
  dust: Decimal;
  /**
   * What the dust cost (quote): none but the unsold rest of a sell filled in part (its rest cancelled), whose
   * coin is the grid's and whose cost is still owed by what sells it. Taken by the next sell that takes the
   * dust, or by an exit; absent: none.
   */
  dustCost?: Decimal;
  /** The price the grid started at (its plan's): a trailing stop keeps its ratio to it; null: started before it was kept. */
  start: Decimal | null;
  /** An armed trailing take profit's high (since it armed); null: not armed. */
  trail: Decimal | null;
  /** A trailing stop's high since the start; null: none above the start price yet. */
  stopHigh: Decimal | null;
  /**
   * The edge of its range the grid stands at, told once (RangeEdgeReached): `low`, no buy level left below
   * the price (every one filled: it buys nothing more until the price rises); `high`, nothing left to sell
   * (every sell filled: it waits for the price to fall). Cleared once it is two levels inside again, so a
   * price that wavers at the edge is told once, not at every level it fills there.
   */
  edge: 'low' | 'high' | null;
}

export interface GridView {
  params: GridParams;
  market: MarketRules;
}

type Result = { state: GridState; intents: Intent[] };
const ONE = money(1);

export function initialGridState(bot: BotId): GridState {
  return { bot, phase: 'waiting', seq: 0, trades: 0, quantity: money(0), orders: [], pending: null, realized: money(0), dust: money(0), start: null, trail: null, stopHigh: null, edge: null };
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
export function levelsOf(view: GridView): Decimal[] {
  let levels = levelsByView.get(view);
  if (!levels) {
    levels = gridLevels(view.params, view.market.tickSize);
    levelsByView.set(view, levels);
  }
  return levels;
}

/** The trailing take profit's deviation (percent), or null when it is off (it needs a take-profit price). */
const trailingDeviation = (params: GridParams) => (params.trailingDeviation && params.takeProfit ? params.trailingDeviation : null);

/**
 * A trailing stop's price: `floor_tick(high x stopLoss / start)`, the stop loss's ratio to the start price
 * kept under the high (multiplied first: exactly the stop loss while the high is the start price).
 */
export function gridStopLine(high: Decimal, start: Decimal, stopLoss: string, tick: Decimal): Decimal {
  return floorTo(high.mul(stopLoss).div(start), tick);
}

/** The trailing stop at `price`: the high since the start raised, or the stop hit (trailing.ts's rule, with the grid's line). */
function stepStop(high: Decimal, price: Decimal, start: Decimal, stopLoss: string, tick: Decimal): Exclude<TrailStep, { kind: 'idle' | 'armed' }> {
  const top = price.gt(high) ? price : high;
  const line = gridStopLine(top, start, stopLoss, tick);
  if (price.lte(line)) return { kind: 'fired', high: top, line };
  return { kind: top === high ? 'held' : 'raised', high: top, line };
}

/**
 * A running grid's exit lines (README.md "Trailing exits"): `armed`, an armed trailing take profit's high
 * and sale line; `stop`, the stop-loss price, trailing the high since the start when on (`stopHigh`; a grid
 * started before the start price was kept has a fixed stop). What the engine acts on and the detail draws.
 */
export function gridExits(state: GridState, { params, market }: GridView): { armed: { high: Decimal; line: Decimal } | null; stop: Decimal | null; stopHigh: Decimal | null } {
  const deviation = trailingDeviation(params);
  const armed = deviation && state.trail ? { high: state.trail, line: trailLine(state.trail, deviation, market.tickSize) } : null;
  const start = state.start;
  const stopHigh = params.trailingStop && params.stopLoss && start ? (state.stopHigh ?? start) : null;
  const stop = stopHigh ? gridStopLine(stopHigh, start!, params.stopLoss!, market.tickSize) : params.stopLoss ? money(params.stopLoss) : null;
  return { armed, stop, stopHigh };
}

/**
 * The prices that make a running grid act, for the engine's book and the backtest's walk: `down`, the
 * highest buy level or the stop loss (fixed or trailing) or an armed trailing line; `up`, the lowest sell
 * level or the take profit (neither while armed: the grid is being closed); `follow`, the high a trailing
 * exit follows (asked at any price above it).
 */
export function gridTriggers(state: GridState, view: GridView): { down: Decimal | null; up: Decimal | null; follow: Decimal | null } {
  if (state.phase !== 'running') return { down: null, up: null, follow: null };
  const { armed, stop, stopHigh } = gridExits(state, view);
  const follow = armed && (!stopHigh || armed.high.lt(stopHigh)) ? armed.high : stopHigh;
  if (armed) return { down: stop?.gt(armed.line) ? stop : armed.line, up: null, follow };
  const levels = levelsOf(view);
  let down: Decimal | null = stop;
  let up: Decimal | null = view.params.takeProfit ? money(view.params.takeProfit) : null;
  state.orders.forEach((o, i) => {
    if (o?.side === 'buy' && (!down || levels[i]!.gt(down))) down = levels[i]!;
    // A sell of nothing (a share floored to 0) waits for no price: onPrice never places it.
    if (o?.side === 'sell' && o.amount.gt(0) && (!up || levels[i]!.lt(up))) up = levels[i]!;
  });
  return { down, up, follow };
}

/** Everything held, to sell on an exit: the sell orders' base and what it cost, and the dust (at no cost). */
function held(state: GridState): { amount: Decimal; cost: Decimal } {
  let amount = state.dust;
  let cost = state.dustCost ?? money(0);
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

const withMoved = (moved: Intent[], r: Result): Result => (moved.length === 0 ? r : { state: r.state, intents: [...moved, ...r.intents] });

/**
 * What a price means for a running grid: its exits first (take profit: at once, or trailing: armed, raised,
 * fired; stop loss: fixed, or trailing the high since the start), then, unless armed, its levels.
 */
function onPrice(state: GridState, price: Decimal, view: GridView): Result {
  const { params, market } = view;
  if (state.phase === 'done' || state.pending) return { state, intents: [] };
  if (state.phase === 'waiting') {
    const plan = planGrid(params, market, price);
    const orders: (GridOrder | null)[] = plan.levels.map((_, i) => (i < plan.empty ? { side: 'buy', amount: plan.quantity, cost: money(0) } : null));
    const sells = plan.levels.length - 1 - plan.empty;
    // A grid started again after an exit starts its trailing exits afresh from this price.
    const next: GridState = { ...state, quantity: plan.quantity, orders, start: price, trail: null, stopHigh: null, edge: null };
    if (sells === 0) return { state: { ...next, phase: 'running' }, intents: [] };
    // The base for the sells above the start price, bought now (with the fee taken in it).
    return place(next, plan.empty, { side: 'buy', quote: startAmount(plan.quantity, sells, market).mul(price), reason: 'open' });
  }
  const exits = gridExits(state, view);
  // A high kept while the trailing take profit was turned off is forgotten (it arms afresh).
  let next = state.trail && !exits.armed ? { ...state, trail: null } : state;
  const moved: Intent[] = [];
  const deviation = trailingDeviation(params);
  if (deviation) {
    const step = stepTrailingTakeProfit(next.trail, price, money(params.takeProfit!), deviation, market.tickSize);
    if (step.kind === 'armed' || step.kind === 'raised' || step.kind === 'fired') {
      next = { ...next, trail: step.high };
      moved.push({ type: 'TrailingMoved', exit: 'take_profit', step: step.kind, high: step.high, line: step.line });
      if (step.kind === 'fired') return withMoved(moved, exit(next, view, 'close'));
    }
  } else if (params.takeProfit && price.gte(params.takeProfit)) return exit(next, view, 'close');
  if (exits.stopHigh) {
    const step = stepStop(exits.stopHigh, price, next.start!, params.stopLoss!, market.tickSize);
    if (step.kind !== 'held') next = { ...next, stopHigh: step.high };
    if (step.kind === 'fired') return withMoved([...moved, { type: 'TrailingMoved', exit: 'stop_loss', step: 'fired', high: step.high, line: step.line }], exit(next, view, 'stop'));
    if (step.kind === 'raised') moved.push({ type: 'TrailingMoved', exit: 'stop_loss', step: 'raised', high: step.high, line: step.line });
  } else if (params.stopLoss && price.lte(params.stopLoss)) return withMoved(moved, exit(next, view, 'stop'));
  // Armed, the grid is being closed: no level trades (what it holds rides the rise, sold at the line).
  if (next.trail) return { state: next, intents: moved };
  const levels = levelsOf(view);
  for (let i = next.orders.length - 1; i >= 0; i--) {
    const o = next.orders[i];
    if (o?.side === 'buy' && price.lte(levels[i]!)) return withMoved(moved, place(next, i, { side: 'buy', quote: grossBuy(o.amount, market).mul(price), reason: 'add' }));
  }
  for (let i = 0; i < next.orders.length; i++) {
    const o = next.orders[i];
    if (o?.side === 'sell' && price.gte(levels[i]!) && o.amount.gt(0)) return withMoved(moved, place(next, i, { side: 'sell', amount: o.amount, reason: 'close' }));
  }
  return { state: next, intents: moved };
}

function onFill(state: GridState, side: 'buy' | 'sell', price: Decimal, amount: Decimal, view: GridView, maker: boolean): Result {
  const pending = state.pending!;
  // A level's order that rested on the book paid the maker's fee; a market order the taker's.
  const fee = fillFeeRate(view.market, maker);
  const orders = [...state.orders];
  const base = { ...state, pending: null, orders };
  if (pending.reason === 'open') {
    // The start buy: q for each sell level above the empty one (it bought enough for the fee); what is
    // left over is the grid's dust. Short of that (a fill below the plan), its base shared out.
    const sells = orders.length - 1 - pending.level;
    const got = amount.mul(ONE.minus(fee)).plus(state.dust);
    const share = floorTo(got.div(sells), view.market.stepSize);
    const each = share.lt(state.quantity) ? share : state.quantity;
    // The dust's cost (if any) goes with the sells that take the dust.
    const cost = amount
      .mul(price)
      .plus(state.dustCost ?? 0)
      .div(sells);
    const bought = amount.div(sells);
    for (let i = pending.level + 1; i < orders.length; i++) orders[i] = { side: 'sell', amount: each, cost, bought };
    // A grid started at an edge of its range is not told so: the trader just chose it.
    return { state: { ...withoutDustCost(base), phase: 'running', dust: got.minus(each.mul(sells)), edge: edgeOf(orders, null) }, intents: [] };
  }
  if (pending.level < 0) {
    // An exit: everything sold, the dust with it; the quote received less what the position cost is
    // booked (the books are in the quote) and the bot is done. What the step leaves stays its dust.
    const all = held(state);
    const profit = amount.mul(price).mul(ONE.minus(fee)).minus(all.cost);
    const trades = state.trades + 1;
    const dust = all.amount.minus(amount);
    const next = { ...withoutDustCost(base), phase: 'done' as const, trades, orders: orders.map(() => null), realized: state.realized.plus(profit), dust: dust.gt(0) ? dust : money(0) };
    return { state: next, intents: [{ type: 'CycleClosed', cycle: trades, profit }] };
  }
  const i = pending.level;
  if (side === 'buy') {
    // The level above sells what the buy left after its fee, floored to the step, with the dust once it
    // adds up to a step: q as a rule (the buy was grossBuy(q)), a step more now and then.
    const got = amount.mul(ONE.minus(fee)).plus(state.dust);
    const sell = floorTo(got, view.market.stepSize);
    orders[i] = null;
    // The dust's cost (if any) goes with the sell that takes the dust; what is left below the step is at no cost.
    orders[i + 1] = { side: 'sell', amount: sell, cost: amount.mul(price).plus(state.dustCost ?? 0), bought: amount };
    return atEdge({ ...withoutDustCost(base), dust: got.minus(sell) }, [], view);
  }
  const sold = orders[i]!;
  // The cost of what was sold (a sell filled in part, its rest cancelled, sells less than its amount).
  // What it did not sell is still the grid's coin: kept as dust with the rest of the cost (dustCost), to
  // go with the next sell, never forgotten by the books (README.md "Partial fills").
  const cost = sold.amount.isZero() ? money(0) : sold.cost.mul(amount.div(sold.amount));
  const profit = amount.mul(price).mul(ONE.minus(fee)).minus(cost);
  const unsold = sold.amount.minus(amount);
  orders[i] = null;
  if (i > 0) orders[i - 1] = { side: 'buy', amount: state.quantity, cost: money(0) };
  const trades = state.trades + 1;
  const next = unsold.gt(0) ? { ...base, dust: state.dust.plus(unsold), dustCost: (state.dustCost ?? money(0)).plus(sold.cost.minus(cost)) } : base;
  return atEdge({ ...next, trades, realized: state.realized.plus(profit) }, [{ type: 'CycleClosed', cycle: trades, profit }], view);
}

/** The state with no dust cost (the dust's cost taken by a sell or an exit). */
function withoutDustCost(state: GridState): GridState {
  if (state.dustCost === undefined) return state;
  const { dustCost: _taken, ...rest } = state;
  return rest;
}

/**
 * The edge a grid's orders stand at (GridState.edge), from the one it stood at: `low` with no buy left,
 * `high` with nothing left to sell; the edge it stood at kept until it is two levels inside again.
 */
function edgeOf(orders: readonly (GridOrder | null)[], was: GridState['edge']): GridState['edge'] {
  let buys = 0;
  let sells = 0;
  for (const o of orders) {
    if (o?.side === 'buy') buys++;
    // A sell of nothing (a share floored to 0) sells nothing.
    else if (o?.side === 'sell' && o.amount.gt(0)) sells++;
  }
  if (buys === 0) return 'low';
  if (sells === 0) return 'high';
  if ((was === 'low' && buys < 2) || (was === 'high' && sells < 2)) return was;
  return null;
}

/** A level's fill done: the edge it took the grid to, told once (the edge level's price). */
function atEdge(state: GridState, intents: Intent[], view: GridView): Result {
  const edge = edgeOf(state.orders, state.edge);
  if (edge === state.edge) return { state, intents };
  if (edge === null) return { state: { ...state, edge }, intents };
  const levels = levelsOf(view);
  const price = edge === 'low' ? levels[0]! : levels[levels.length - 1]!;
  return { state: { ...state, edge }, intents: [...intents, { type: 'RangeEdgeReached', side: edge, price }] };
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
      return onFill(state, event.side, event.price, event.amount, view, event.maker === true);
  }
};
