import type Decimal from 'decimal.js';
import { clientOrderId, type BotId, type ClientOrderId, type Decide, type Intent, type PlaceOrder, type Triggers } from '../types.ts';
import { doubleOf, floorTo, money } from '../money.ts';
import { stepTrailingStop, stepTrailingTakeProfit, trailLine } from '../trailing.ts';
import { nextAddPrice, orderQuote } from './plan.ts';
import { averagePrice, closeCycle, reducePosition, sellableAmount, soldShare, stopLossPrice, takeProfitPrice, type Fill } from '../core/position.ts';
import type { MartinParams } from './rules.ts';
import type { MarketRules } from '../core/market.ts';

/**
 * The martin bot's state between events. `pending` is the one order in flight: the strategy never
 * places a second order before the first is answered, so a crash can always be reconciled by id.
 */
export interface MartinState {
  bot: BotId;
  /** 'done': the cycle closed and repeat is off. */
  phase: 'waiting' | 'holding' | 'done';
  cycle: number;
  seq: number;
  fills: Fill[];
  /**
   * `share`: a partial close's share in percent (its fill keeps the cycle open); absent on every other order.
   * `rested`: the take profit's order rested on the book (resting.ts): a part of it filled, its rest cancelled,
   * is a partial close too (README.md "Resting orders"); never stored (its fill is booked in the same decision).
   */
  pending: { id: ClientOrderId; reason: PlaceOrder['reason']; share?: string; rested?: true } | null;
  /** Prices that trigger the next move, computed once per fill (a price tick only compares). */
  targets: { takeProfit: Decimal; stopLoss: Decimal | null; nextAdd: Decimal | null } | null;
  realized: Decimal;
  /** Base left below the step by the last close, sold with the next one... */
  carry: Decimal;
  /** ...and its cost basis, counted when it is sold. */
  carryCost: Decimal;
  /** Profit realised by partial closes in the open cycle (already in `realized`), counted in the cycle's profit when it closes. */
  booked: Decimal;
  /** Trailing take profit: the high since it armed; null or absent: not armed (README.md "Trailing"). */
  trail?: Decimal | null;
  /** Trailing stop loss: the high since the cycle's entry; null or absent: off (or not set yet). */
  stopHigh?: Decimal | null;
}

export interface MartinView {
  params: MartinParams;
  market: MarketRules;
}

/** A fresh bot: waiting for its first price to open cycle 1. */
export function initialMartinState(bot: BotId): MartinState {
  return { bot, phase: 'waiting', cycle: 1, seq: 0, fills: [], pending: null, targets: null, realized: money(0), carry: money(0), carryCost: money(0), booked: money(0) };
}

function place(state: MartinState, order: Omit<PlaceOrder, 'type' | 'clientOrderId'>, share?: string): { state: MartinState; intents: Intent[] } {
  const seq = state.seq + 1;
  const id = clientOrderId(state.bot, state.cycle, seq);
  return { state: { ...state, seq, pending: { id, reason: order.reason, ...(share !== undefined ? { share } : {}) } }, intents: [{ type: 'PlaceOrder', clientOrderId: id, ...order }] };
}

/** The trigger prices after the fills so far (README.md: take profit, stop loss, next add). */
function targetsOf(fills: readonly Fill[], { params, market }: MartinView): NonNullable<MartinState['targets']> {
  const avg = averagePrice(fills);
  const last = fills[fills.length - 1]!;
  return {
    takeProfit: takeProfitPrice(avg, params.takeProfit, market.tickSize),
    stopLoss: params.stopLoss ? stopLossPrice(avg, params.stopLoss, market.tickSize) : null,
    nextAdd: fills.length < params.maxPositions ? nextAddPrice(last.price, params.addTrigger, market.tickSize) : null,
  };
}

/** The state with its trigger prices recomputed for `view` (after loading it, or new parameters); a trailing exit turned off forgets its high. */
export function retarget(state: MartinState, view: MartinView): MartinState {
  const trail = trailingDeviation(view.params) === null ? null : (state.trail ?? null);
  const stopHigh = trailingStop(view.params) === null ? null : (state.stopHigh ?? null);
  return { ...state, targets: state.fills.length > 0 ? targetsOf(state.fills, view) : null, trail, stopHigh };
}

/** The trailing take profit's deviation (percent), or null when it is off. */
const trailingDeviation = (params: MartinParams) => (params.trailingDeviation ? params.trailingDeviation : null);
/** The trailing stop loss's percent (the stop loss's), or null when it is off. */
const trailingStop = (params: MartinParams) => (params.trailingStop && params.stopLoss ? params.stopLoss : null);
/** The highest fill price of the cycle: where a trailing stop's high starts. */
const topFill = (fills: readonly Fill[]) => fills.reduce((top: Decimal, f) => (f.price.gt(top) ? f.price : top), fills[0]!.price);

/**
 * The prices that make a holding bot act, for the engine's book and the backtest's walk: `up`, the
 * take-profit price (null while a trailing take profit is armed); `down`, the highest of the stop (fixed
 * or trailing), the armed trailing line and the next add (no add while armed); `follow`, the high a
 * trailing exit follows (the strategy is asked at any price above it). Null for a bot not holding, or
 * with an order in flight.
 */
export function martinTriggers(state: MartinState, view: MartinView): { up: Decimal | null; down: Decimal | null; follow: Decimal | null } | null {
  const t = state.targets;
  if (!t || state.pending || state.phase !== 'holding') return null;
  const lines = martinLines(state, view);
  const downs = [lines.stop, lines.armed?.line ?? null, lines.nextAdd];
  const down = downs.reduce<Decimal | null>((a, b) => (b && (!a || b.gt(a)) ? b : a), null);
  const highs = [lines.armed?.high ?? null, lines.stopHigh].filter((h): h is Decimal => h !== null);
  const follow = highs.reduce<Decimal | null>((a, b) => (!a || b.lt(a) ? b : a), null);
  return { up: lines.armed ? null : t.takeProfit, down, follow };
}

const num = (d: Decimal | null, none: number) => (d ? doubleOf(d) : none);

/** When the engine's book and the backtest's walk ask the bot (its kit's triggers): it waits to open, or martinTriggers. */
export function martinKitTriggers(state: MartinState, view: MartinView): Triggers {
  const asks = !state.pending && state.phase === 'waiting';
  const t = martinTriggers(state, view);
  if (!t) return { up: Infinity, down: -Infinity, asks };
  // A trailing exit follows its high: asked at the high and above (a new high moves it).
  return { up: Math.min(num(t.up, Infinity), num(t.follow, Infinity)), down: num(t.down, -Infinity), asks, upAt: t.up, downAt: t.down };
}

/**
 * A holding bot's exit and add lines with its trailing exits: `armed`, an armed trailing take profit's
 * high and sale line; `stop`, the stop loss (trailing the high since the entry when on: `stopHigh`);
 * `nextAdd`, none while armed. What the detail screen draws.
 */
export function martinLines(
  state: MartinState,
  { params, market }: MartinView,
): { armed: { high: Decimal; line: Decimal } | null; stop: Decimal | null; stopHigh: Decimal | null; nextAdd: Decimal | null } {
  const t = state.targets;
  const deviation = trailingDeviation(params);
  const armed = deviation !== null && state.trail ? { high: state.trail, line: trailLine(state.trail, deviation, market.tickSize) } : null;
  const stopPct = trailingStop(params);
  const stopHigh = stopPct !== null && state.fills.length > 0 ? (state.stopHigh ?? topFill(state.fills)) : null;
  const stop = stopHigh ? trailLine(stopHigh, stopPct!, market.tickSize) : (t?.stopLoss ?? null);
  return { armed, stop, stopHigh, nextAdd: armed ? null : (t?.nextAdd ?? null) };
}

/**
 * What a price means for a holding bot: take profit (at once, or trailing: armed, raised, fired), stop
 * loss (fixed, or trailing the high since the entry), an add, or nothing.
 */
function onPrice(state: MartinState, price: Decimal, view: MartinView): { state: MartinState; intents: Intent[] } {
  const { params, market } = view;
  if (state.phase === 'done' || state.pending) return { state, intents: [] };
  if (state.phase === 'waiting' || !state.targets) return place(state, { side: 'buy', quote: orderQuote(params, 0), reason: 'open' });
  const { takeProfit, stopLoss, nextAdd } = state.targets;
  const sell = (s: MartinState, reason: 'close' | 'stop', moved: Intent[]) => {
    const out = place(s, { side: 'sell', amount: sellableAmount(s.fills, market, s.carry), reason });
    return { state: out.state, intents: [...moved, ...out.intents] };
  };
  let next = state;
  const moved: Intent[] = [];
  const deviation = trailingDeviation(params);
  if (deviation === null) {
    if (price.gte(takeProfit)) return sell(next, 'close', moved);
  } else {
    const step = stepTrailingTakeProfit(state.trail ?? null, price, takeProfit, deviation, market.tickSize);
    if (step.kind !== 'idle' && step.kind !== 'held') {
      next = { ...next, trail: step.high };
      moved.push({ type: 'TrailingMoved', exit: 'take_profit', step: step.kind, high: step.high, line: step.line });
      if (step.kind === 'fired') return sell(next, 'close', moved);
    }
  }
  const stopPct = trailingStop(params);
  if (stopPct !== null) {
    const before = state.stopHigh ?? null;
    const step = stepTrailingStop(before ?? topFill(state.fills), price, stopPct, market.tickSize);
    if (step.kind === 'raised' || before === null) {
      next = { ...next, stopHigh: step.high };
      if (step.kind !== 'fired') moved.push({ type: 'TrailingMoved', exit: 'stop_loss', step: 'raised', high: step.high, line: step.line });
    }
    if (step.kind === 'fired') return sell(next, 'stop', [...moved, { type: 'TrailingMoved', exit: 'stop_loss', step: 'fired', high: step.high, line: step.line }]);
  } else if (stopLoss && price.lte(stopLoss)) return sell(next, 'stop', moved);
  // Armed, the position is being sold: no add.
  if (!next.trail && nextAdd && price.lte(nextAdd)) {
    const out = place(next, { side: 'buy', quote: orderQuote(params, state.fills.length), reason: 'add' });
    return { state: out.state, intents: [...moved, ...out.intents] };
  }
  return { state: next, intents: moved };
}

/** The martin strategy as a pure function of (state, event): see README.md for the rules and formulas. */
export const decideMartin: Decide<MartinState, MartinView> = (state, event, view) => {
  switch (event.type) {
    case 'BotStarted':
    case 'PriceTicked':
      return onPrice(state, event.price, view);
    case 'SignalReceived': // signals are for DCA and custom bots only
      return { state, intents: [] };
    case 'ManualAddRequested': {
      if (state.phase !== 'holding' || state.pending || state.fills.length >= view.params.maxPositions) return { state, intents: [] };
      return place(state, { side: 'buy', quote: event.quote ?? orderQuote(view.params, state.fills.length), reason: 'manual_add' });
    }
    case 'ManualCloseRequested': {
      if (state.phase !== 'holding' || state.pending) return { state, intents: [] };
      // A partial close sells the amount asked (the service sized and checked it); the same order otherwise.
      const all = sellableAmount(state.fills, view.market, state.carry);
      const part = event.part?.amount.gt(0) && event.part.amount.lt(all) ? event.part : undefined;
      return place(state, { side: 'sell', amount: part ? part.amount : all, reason: 'manual_close' }, part?.share);
    }
    case 'OrderRejected': {
      if (state.pending?.id !== event.clientOrderId) return { state, intents: [] };
      return { state: { ...state, pending: null }, intents: [{ type: 'PauseBot', reason: event.reason }] };
    }
    case 'OrderFilled': {
      if (state.pending?.id !== event.clientOrderId) return { state, intents: [] };
      if (event.side === 'buy') {
        const fills = [...state.fills, { price: event.price, amount: event.amount }];
        // A buy moves the take profit: an armed trailing take profit is disarmed (it arms again at the new one).
        const stopHigh = trailingStop(view.params) === null ? null : state.stopHigh?.gt(event.price) ? state.stopHigh : event.price;
        return { state: { ...state, phase: 'holding', pending: null, fills, targets: targetsOf(fills, view), trail: null, stopHigh }, intents: [] };
      }
      const carried = { amount: state.carry, cost: state.carryCost };
      if (state.pending.share !== undefined || state.pending.rested) {
        // A partial close: the sold part's profit is realised now; the rest keeps its average cost and the
        // cycle goes on with its trigger prices recomputed, as after any fill (README.md "Partial close").
        // So is a resting take profit filled in part: the rest is still the bot's to sell at that price.
        const part = reducePosition(state.fills, event.price, view.market, carried, event.amount);
        if (floorTo(part.close.dust, view.market.stepSize).gt(0)) {
          const profit = part.close.profit;
          const next: MartinState = {
            ...state,
            pending: null,
            fills: part.fills,
            targets: targetsOf(part.fills, view),
            realized: state.realized.plus(profit),
            carry: part.carry.amount,
            carryCost: part.carry.cost,
            booked: state.booked.plus(profit),
          };
          const share = state.pending.share ?? soldShare(event.amount, sellableAmount(state.fills, view.market, state.carry));
          return { state: next, intents: [{ type: 'PositionReduced', cycle: state.cycle, profit, share }] };
        }
      }
      // What was sold is the exchange's figure; what it could not sell stays the bot's coin, carried at no
      // cost into the next close (the books are kept in the quote: plan.ts closeCycle).
      const { profit, dust } = closeCycle(state.fills, event.price, view.market, carried, event.amount);
      const carry = dust;
      const carryCost = money(0);
      // The cycle's profit counts its partial closes too (realised when they sold).
      const closed: Intent = { type: 'CycleClosed', cycle: state.cycle, profit: state.booked.plus(profit) };
      const next: MartinState = {
        ...state,
        phase: view.params.repeat ? 'waiting' : 'done',
        cycle: state.cycle + 1,
        seq: 0,
        fills: [],
        pending: null,
        targets: null,
        realized: state.realized.plus(profit),
        carry,
        carryCost,
        booked: money(0),
        trail: null,
        stopHigh: null,
      };
      return { state: next, intents: [closed] };
    }
  }
};
