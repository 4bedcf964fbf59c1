import { money } from '../money.ts';
import { botId, type ClientOrderId, type PlaceOrder } from '../types.ts';
import { retargetCustom, type CustomState, type CustomView } from './strategy.ts';

/**
 * A custom state as stored (bots.state): decimal strings. The exit prices are derived (the trailing
 * highs they move with are stored); the feed (candles, indicators) is not stored: a loaded bot starts
 * with an empty feed that the engine warms up from candle history (CustomFeed.seed, then the 1-minute
 * candles since).
 */
export interface StoredCustomState {
  phase: CustomState['phase'];
  cycle: number;
  seq: number;
  fills: { price: string; amount: string }[];
  pending: { id: string; reason: PlaceOrder['reason'] } | null;
  realized: string;
  carry: string;
  carryCost: string;
  /** A trailing take profit's high since it armed; absent: not armed (or no trailing take profit). */
  trail?: string;
  /** A trailing stop loss's high since the entry; absent: none yet (or no trailing stop). */
  stopHigh?: string;
}

export function encodeCustom(state: CustomState): StoredCustomState {
  return {
    phase: state.phase,
    cycle: state.cycle,
    seq: state.seq,
    fills: state.fills.map((f) => ({ price: f.price.toFixed(), amount: f.amount.toFixed() })),
    pending: state.pending ? { id: state.pending.id, reason: state.pending.reason } : null,
    realized: state.realized.toFixed(),
    carry: state.carry.toFixed(),
    carryCost: state.carryCost.toFixed(),
    // The trailing highs survive a restart; a bot without them stores exactly what it did before.
    ...(state.trail ? { trail: state.trail.toFixed() } : {}),
    ...(state.stopHigh ? { stopHigh: state.stopHigh.toFixed() } : {}),
  };
}

export function decodeCustom(id: string, stored: StoredCustomState, view: CustomView): CustomState {
  const state: CustomState = {
    bot: botId(id),
    phase: stored.phase,
    cycle: stored.cycle,
    seq: stored.seq,
    fills: stored.fills.map((f) => ({ price: money(f.price), amount: money(f.amount) })),
    pending: stored.pending ? { id: stored.pending.id as ClientOrderId, reason: stored.pending.reason } : null,
    targets: null,
    realized: money(stored.realized),
    carry: money(stored.carry),
    carryCost: money(stored.carryCost),
    trail: stored.trail ? money(stored.trail) : null,
    stopHigh: stored.stopHigh ? money(stored.stopHigh) : null,
    feed: null,
  };
  return retargetCustom(state, view);
}
