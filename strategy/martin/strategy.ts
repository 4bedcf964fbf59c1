import type Decimal from 'decimal.js';
import { clientOrderId, type BotId, type ClientOrderId, type Decide, type Intent, type PlaceOrder } from '../types.ts';
import { floorTo, money } from '../money.ts';
import { averagePrice, closeCycle, nextAddPrice, orderQuote, reducePosition, sellableAmount, stopLossPrice, takeProfitPrice, type Fill } from './plan.ts';
import type { MarketRules, MartinParams } from './rules.ts';

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
  /** `share`: a partial close's share in percent (its fill keeps the cycle open); absent on every other order. */
  pending: { id: ClientOrderId; reason: PlaceOrder['reason']; share?: string } | null;
  /** Prices that trigger the next move, computed once per fill (a price tick only compares). */
  targets: { takeProfit: Decimal; stopLoss: Decimal | null; nextAdd: Decimal | null } | null;
  realized: Decimal;
  /** Base left below the step by the last close, sold with the next one... */
  carry: Decimal;
  /** ...and its cost basis, counted when it is sold. */
  carryCost: Decimal;
  /** Profit realised by partial closes in the open cycle (already in `realized`), counted in the cycle's profit when it closes. */
  booked: Decimal;
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

/** The state with its trigger prices recomputed for `view` (after loading it, or new parameters). */
export function retarget(state: MartinState, view: MartinView): MartinState {
  return { ...state, targets: state.fills.length > 0 ? targetsOf(state.fills, view) : null };
}

/** What a price means for a holding bot: take profit, stop loss, an add, or nothing. */
function onPrice(state: MartinState, price: Decimal, view: MartinView): { state: MartinState; intents: Intent[] } {
  const { params, market } = view;
  if (state.phase === 'done' || state.pending) return { state, intents: [] };
  if (state.phase === 'waiting' || !state.targets) return place(state, { side: 'buy', quote: orderQuote(params, 0), reason: 'open' });
  const { takeProfit, stopLoss, nextAdd } = state.targets;
  if (price.gte(takeProfit)) return place(state, { side: 'sell', amount: sellableAmount(state.fills, market, state.carry), reason: 'close' });
  if (stopLoss && price.lte(stopLoss)) return place(state, { side: 'sell', amount: sellableAmount(state.fills, market, state.carry), reason: 'stop' });
  if (nextAdd && price.lte(nextAdd)) return place(state, { side: 'buy', quote: orderQuote(params, state.fills.length), reason: 'add' });
  return { state, intents: [] };
}

/** The martin strategy as a pure function of (state, event): see README.md for the rules and formulas. */
export const decideMartin: Decide<MartinState, MartinView> = (state, event, view) => {
  switch (event.type) {
    case 'BotStarted':
    case 'PriceTicked':
      return onPrice(state, event.price, view);
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
        return { state: { ...state, phase: 'holding', pending: null, fills, targets: targetsOf(fills, view) }, intents: [] };
      }
      const carried = { amount: state.carry, cost: state.carryCost };
      if (state.pending.share !== undefined) {
        // A partial close: the sold part's profit is realised now; the rest keeps its average cost and the
        // cycle goes on with its trigger prices recomputed, as after any fill (README.md "Partial close").
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
          return { state: next, intents: [{ type: 'PositionReduced', cycle: state.cycle, profit, share: state.pending.share }] };
        }
      }
      // What was sold is the exchange's figure; what it could not sell stays, with its cost, for the next close.
      const { profit, dust, dustCost } = closeCycle(state.fills, event.price, view.market, carried, event.amount);
      const carry = dust;
      const carryCost = dust.gt(0) ? dustCost : money(0);
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
      };
      return { state: next, intents: [closed] };
    }
  }
};
