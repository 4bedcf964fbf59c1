import { money } from '../money.ts';
import { botId, type ClientOrderId } from '../types.ts';
import type { PlaceOrder } from '../types.ts';
import { retarget, type MartinState, type MartinView } from './strategy.ts';

/** A martin state as stored (bots.state): decimal strings; the trigger prices are derived, not stored. */
export interface StoredMartinState {
  phase: MartinState['phase'];
  cycle: number;
  seq: number;
  fills: { price: string; amount: string }[];
  pending: { id: string; reason: PlaceOrder['reason']; share?: string } | null;
  realized: string;
  /** Absent in states stored before carry existed: none. */
  carry?: string;
  /** Absent before the carried dust kept its cost basis: none. */
  carryCost?: string;
  /** Absent before partial closes existed: none. */
  booked?: string;
  /** A trailing take profit's high since it armed; absent: not armed (or no trailing take profit). */
  trail?: string;
  /** A trailing stop loss's high since the entry; absent: none yet (or no trailing stop). */
  stopHigh?: string;
}

export function encodeMartin(state: MartinState): StoredMartinState {
  return {
    phase: state.phase,
    cycle: state.cycle,
    seq: state.seq,
    fills: state.fills.map((f) => ({ price: f.price.toFixed(), amount: f.amount.toFixed() })),
    pending: state.pending ? { id: state.pending.id, reason: state.pending.reason, ...(state.pending.share !== undefined ? { share: state.pending.share } : {}) } : null,
    realized: state.realized.toFixed(),
    carry: state.carry.toFixed(),
    carryCost: state.carryCost.toFixed(),
    booked: state.booked.toFixed(),
    ...(state.trail ? { trail: state.trail.toFixed() } : {}),
    ...(state.stopHigh ? { stopHigh: state.stopHigh.toFixed() } : {}),
  };
}

export function decodeMartin(id: string, stored: StoredMartinState, view: MartinView): MartinState {
  const state: MartinState = {
    bot: botId(id),
    phase: stored.phase,
    cycle: stored.cycle,
    seq: stored.seq,
    fills: stored.fills.map((f) => ({ price: money(f.price), amount: money(f.amount) })),
    pending: stored.pending ? { id: stored.pending.id as ClientOrderId, reason: stored.pending.reason, ...(stored.pending.share !== undefined ? { share: stored.pending.share } : {}) } : null,
    targets: null,
    realized: money(stored.realized),
    carry: money(stored.carry ?? '0'),
    carryCost: money(stored.carryCost ?? '0'),
    booked: money(stored.booked ?? '0'),
    trail: stored.trail ? money(stored.trail) : null,
    stopHigh: stored.stopHigh ? money(stored.stopHigh) : null,
  };
  return retarget(state, view);
}
