import type { Side } from '../types.ts';

/**
 * The resting slots of a bot that averages down into one position (martin, DCA): its next add ("add", a
 * buy) and its take profit ("take_profit", a sell). An exit at market (a stop, a trailing take profit, a
 * close by hand) rests in none.
 */
export type AddOrTakeProfit = 'add' | 'take_profit';

/** The slot an order in flight stands for: an add, or the take profit (a whole sale, not a part sold by hand). */
export function addOrTakeProfitSlot(pending: { reason: string; share?: string | undefined } | null): AddOrTakeProfit | null {
  const reason = pending?.reason;
  return reason === 'add' ? 'add' : reason === 'close' && pending?.share === undefined ? 'take_profit' : null;
}

/** Whether a `side` order's fill fits its slot: a buy at the add, a sell at the take profit. */
export const fitsSlot = (slot: string, side: Side): slot is AddOrTakeProfit => (slot === 'add' && side === 'buy') || (slot === 'take_profit' && side === 'sell');
