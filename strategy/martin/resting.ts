import { buyAmount, sellableAmount } from '../core/position.ts';
import type { ClientOrderId, Side } from '../types.ts';
import type { RestingOrder } from '../resting.ts';
import { addOrTakeProfitSlot, fitsSlot } from '../core/resting-slots.ts';
import { orderQuote } from './plan.ts';
import { martinLines, type MartinState, type MartinView } from './strategy.ts';

/**
 * The limit orders a holding martin bot wants resting (README.md "Resting orders"): its next add at the
 * add price, for what the add's quote buys there, and its take profit at the take-profit price, for all it
 * can sell. A trailing take profit and a stop loss are market orders when their line is crossed, and rest
 * nowhere; the add rests only above the stop's line and while no trailing take profit is armed. Nothing while it waits to open or is done, or while a sale is on its way; while a buy is on its
 * way at market (the open, a manual add), the take profit only: the add's level is that buy's.
 */
export function martinResting(state: MartinState, view: MartinView): RestingOrder[] {
  const { params, market } = view;
  const targets = state.targets;
  const pending = state.pending;
  if (state.phase !== 'holding' || !targets || state.fills.length === 0) return [];
  if (pending && !['open', 'add', 'manual_add'].includes(pending.reason)) return [];
  const wanted: RestingOrder[] = [];
  // Not while a trailing take profit is armed (onPrice adds nothing then), nor at or under the stop's line:
  // a fall reaches the stop first, and its sale would take the add's coin with it.
  const { nextAdd, stop } = martinLines(state, view);
  if (!pending && nextAdd && (!stop || stop.lt(nextAdd))) {
    const amount = buyAmount(orderQuote(params, state.fills.length), nextAdd, market.stepSize);
    if (amount.gt(0)) wanted.push({ slot: 'add', side: 'buy', price: nextAdd, amount, reason: 'add' });
  }
  if (!params.trailingDeviation) {
    const amount = sellableAmount(state.fills, market, state.carry);
    if (amount.gt(0)) wanted.push({ slot: 'take_profit', side: 'sell', price: targets.takeProfit, amount, reason: 'close' });
  }
  return wanted;
}

/** The slot of a martin bot's order in flight when a resting order stands for it: its add, or its take profit. */
export function martinSlotOf(state: MartinState): string | null {
  return addOrTakeProfitSlot(state.pending);
}

/**
 * The martin bot with its resting add or take profit as its order in flight, as onPrice would have placed
 * it. An add the book filled after its cycle's take profit, before its cancel got there (a fast move
 * between the two fills), is the next cycle's open at its price: the coin it bought is the bot's, and a
 * repeating bot would have opened one now anyway. A bot that does not repeat has no cycle to open: null.
 */
export function martinInFlight(state: MartinState, slot: string, id: ClientOrderId, side: Side): MartinState | null {
  if (state.pending) return null;
  if (state.phase === 'waiting' && slot === 'add' && side === 'buy') return { ...state, seq: state.seq + 1, pending: { id, reason: 'open' } };
  if (state.phase !== 'holding' || state.fills.length === 0) return null;
  if (!fitsSlot(slot, side)) return null;
  // A take profit that rested: filled in part (its rest cancelled), it is a partial close (strategy.ts `rested`).
  return { ...state, seq: state.seq + 1, pending: slot === 'add' ? { id, reason: 'add' } : { id, reason: 'close', rested: true } };
}
