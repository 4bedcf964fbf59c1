import { buyAmount, sellableAmount } from '../core/position.ts';
import type { ClientOrderId, Side } from '../types.ts';
import type { RestingOrder } from '../resting.ts';
import { addOrTakeProfitSlot, fitsSlot } from '../core/resting-slots.ts';
import { dealOrderQuote } from './plan.ts';
import { dcaStop, type DcaState, type DcaView } from './strategy.ts';

/**
 * The limit orders an open deal wants resting (README.md "Resting orders"): its next safety order at its
 * price, for what that order's quote buys there, and its take profit at the take-profit price, for all the
 * deal can sell. A trailing take profit and the stop loss (fixed or trailing) are market orders sent when
 * their line is crossed, and rest nowhere. The safety order rests only below the stop's line (a fall
 * reaches the stop first, and its sale would take the safety order's coin with it) and not while a
 * trailing take profit is armed (the deal is being sold: onPrice adds nothing then). Nothing while no deal
 * is open or a sale is on its way; while a buy is on its way at market (the base order, a manual add), the
 * take profit only.
 */
export function dcaResting(state: DcaState, view: DcaView): RestingOrder[] {
  const { params, market } = view;
  const targets = state.targets;
  const pending = state.pending;
  if (state.phase !== 'holding' || !targets || state.fills.length === 0) return [];
  if (pending && !['open', 'add', 'manual_add'].includes(pending.reason)) return [];
  const wanted: RestingOrder[] = [];
  const stop = dcaStop(state, view);
  const next = targets.nextSafety;
  if (!pending && next && !state.trail && (!stop || stop.price.lt(next))) {
    const amount = buyAmount(dealOrderQuote(params, state.safeties + 1), next, market.stepSize);
    if (amount.gt(0)) wanted.push({ slot: 'add', side: 'buy', price: next, amount, reason: 'add' });
  }
  if (!params.trailingDeviation) {
    const amount = sellableAmount(state.fills, market, state.carry);
    if (amount.gt(0)) wanted.push({ slot: 'take_profit', side: 'sell', price: targets.takeProfit, amount, reason: 'close' });
  }
  return wanted;
}

/** The slot of a deal's order in flight when a resting order stands for it: its safety order, or its take profit. */
export function dcaSlotOf(state: DcaState): string | null {
  return addOrTakeProfitSlot(state.pending);
}

/**
 * The deal with its resting safety order or take profit as its order in flight, as onPrice would have
 * placed it: a take profit's with the time the next deal's cooldown counts from, the time the fill is
 * booked at (`at`; unknown: learned at the next price, as startDue does).
 */
export function dcaInFlight(state: DcaState, slot: string, id: ClientOrderId, side: Side, at?: number): DcaState | null {
  if (state.pending) return null;
  // A safety order the book filled after the deal's take profit, before its cancel got there: the next
  // deal's base order at its price (its coin is the bot's), whatever the start condition or cooldown said.
  if (state.phase === 'waiting' && slot === 'add' && side === 'buy') return { ...state, seq: state.seq + 1, since: null, pending: { id, reason: 'open' } };
  if (state.phase !== 'holding' || state.fills.length === 0) return null;
  if (!fitsSlot(slot, side)) return null;
  const close = slot === 'take_profit';
  // A take profit that rested: filled in part (its rest cancelled), it is a partial close (strategy.ts `rested`).
  return { ...state, seq: state.seq + 1, ...(close ? { since: at ?? null } : {}), pending: close ? { id, reason: 'close', rested: true } : { id, reason: 'add' } };
}
