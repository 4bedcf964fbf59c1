import type Decimal from 'decimal.js';
import { money } from '../money.ts';
import { closeCycle, sellableAmount, takeProfitPrice, type Fill } from '../core/position.ts';
import { clientOrderId, type BotId, type ClientOrderId, type Decide, type Intent, type PlaceOrder } from '../types.ts';
import { buyLine, type DipView } from './plan.ts';

/**
 * Buy the dip, once (README.md): 'waiting' for its first price, which sets the buy line; 'armed' with the
 * buy line below; 'holding' the coin until its take profit; 'done' once sold. `pending` is the one order
 * in flight.
 */
export interface DipState {
  bot: BotId;
  phase: 'waiting' | 'armed' | 'holding' | 'done';
  cycle: number;
  seq: number;
  pending: { id: ClientOrderId; reason: PlaceOrder['reason'] } | null;
  realized: Decimal;
  /** The price it started at; its buy line is `dip` % below it. */
  reference: Decimal | null;
  fills: Fill[];
  /** Coin below the step that a close left, carried at no cost into the next sale (core/position.ts closeCycle). */
  carry: Decimal;
  carryCost: Decimal;
}

export function initialDipState(bot: BotId): DipState {
  return { bot, phase: 'waiting', cycle: 1, seq: 0, pending: null, realized: money(0), reference: null, fills: [], carry: money(0), carryCost: money(0) };
}

/** Its take profit over the buy's average price, rounded up to the tick (martin's rule). */
export function dipTakeProfit(state: Pick<DipState, 'fills'>, { params, market }: DipView): Decimal | null {
  if (state.fills.length === 0) return null;
  const amount = state.fills.reduce((s, f) => s.plus(f.amount), money(0));
  const average = state.fills.reduce((s, f) => s.plus(f.price.mul(f.amount)), money(0)).div(amount);
  return takeProfitPrice(average, params.takeProfit, market.tickSize);
}

/** The prices it acts at now: the buy line while armed, the take profit while holding. */
export function dipTriggers(state: DipState, view: DipView): { down: Decimal | null; up: Decimal | null } {
  if (state.pending) return { down: null, up: null };
  if (state.phase === 'armed' && state.reference) return { down: buyLine(state.reference, view), up: null };
  if (state.phase === 'holding') return { down: null, up: dipTakeProfit(state, view) };
  return { down: null, up: null };
}

function place(state: DipState, order: Omit<PlaceOrder, 'type' | 'clientOrderId'>): { state: DipState; intents: Intent[] } {
  const seq = state.seq + 1;
  const id = clientOrderId(state.bot, state.cycle, seq);
  return { state: { ...state, seq, pending: { id, reason: order.reason } }, intents: [{ type: 'PlaceOrder', clientOrderId: id, ...order }] };
}

const sellAll = (state: DipState, view: DipView, reason: 'close' | 'manual_close') => place(state, { side: 'sell', amount: sellableAmount(state.fills, view.market, state.carry), reason });

/** The buy-the-dip strategy as a pure function of (state, event). */
export const decideDip: Decide<DipState, DipView> = (state, event, view) => {
  switch (event.type) {
    case 'BotStarted':
    case 'PriceTicked': {
      if (state.pending || state.phase === 'done') return { state, intents: [] };
      // Its reference is kept across a restart (StateKept): a reload must not move its line.
      if (state.phase === 'waiting') return { state: { ...state, phase: 'armed', reference: event.price }, intents: [{ type: 'StateKept' }] };
      const t = dipTriggers(state, view);
      if (t.down && event.price.lte(t.down)) return place(state, { side: 'buy', quote: money(view.params.investment), reason: 'open' });
      if (t.up && event.price.gte(t.up)) return sellAll(state, view, 'close');
      return { state, intents: [] };
    }
    case 'ManualCloseRequested':
      return state.phase === 'holding' && !state.pending ? sellAll(state, view, 'manual_close') : { state, intents: [] };
    // One buy, no adds; no signals.
    case 'ManualAddRequested':
    case 'SignalReceived':
      return { state, intents: [] };
    case 'OrderRejected':
      if (state.pending?.id !== event.clientOrderId) return { state, intents: [] };
      return { state: { ...state, pending: null }, intents: [{ type: 'PauseBot', reason: event.reason }] };
    case 'OrderFilled': {
      if (state.pending?.id !== event.clientOrderId) return { state, intents: [] };
      if (event.side === 'buy') return { state: { ...state, phase: 'holding', pending: null, fills: [...state.fills, { price: event.price, amount: event.amount }] }, intents: [] };
      // The books in the quote (core/position.ts closeCycle): what the coin left below the step is carried at no cost.
      const { profit, dust } = closeCycle(state.fills, event.price, view.market, { amount: state.carry, cost: state.carryCost }, event.amount);
      const next: DipState = {
        ...state,
        phase: 'done',
        cycle: state.cycle + 1,
        seq: 0,
        pending: null,
        fills: [],
        realized: state.realized.plus(profit),
        reference: null,
        carry: dust,
        carryCost: money(0),
      };
      return { state: next, intents: [{ type: 'CycleClosed', cycle: state.cycle, profit }] };
    }
  }
};
