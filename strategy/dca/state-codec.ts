import { money } from '../money.ts';
import { botId, type ClientOrderId, type PlaceOrder } from '../types.ts';
import { retargetDca, type DcaState, type DcaView } from './strategy.ts';

/** A DCA state as stored (bots.state): decimal strings; the trigger prices are derived, the indicator start's feed rebuilt, not stored. */
export interface StoredDcaState {
  phase: DcaState['phase'];
  cycle: number;
  seq: number;
  fills: { price: string; amount: string }[];
  safeties: number;
  pending: { id: string; reason: PlaceOrder['reason']; share?: string } | null;
  realized: string;
  carry: string;
  carryCost: string;
  booked: string;
  /** When the next deal's start counts from (absent in states stored before it: not known). */
  since?: number | null;
  /** An armed trailing take profit's high (absent: not armed). */
  trail?: string | null;
  /** A trailing stop's high since the deal's base order (absent: none yet, or no trailing stop). */
  stopHigh?: string | null;
}

export function encodeDca(s: DcaState): StoredDcaState {
  return {
    phase: s.phase,
    cycle: s.cycle,
    seq: s.seq,
    fills: s.fills.map((f) => ({ price: f.price.toFixed(), amount: f.amount.toFixed() })),
    safeties: s.safeties,
    pending: s.pending ? { id: s.pending.id, reason: s.pending.reason, ...(s.pending.share !== undefined ? { share: s.pending.share } : {}) } : null,
    realized: s.realized.toFixed(),
    carry: s.carry.toFixed(),
    carryCost: s.carryCost.toFixed(),
    booked: s.booked.toFixed(),
    since: s.since,
    trail: s.trail ? s.trail.toFixed() : null,
    ...(s.stopHigh ? { stopHigh: s.stopHigh.toFixed() } : {}),
  };
}

export function decodeDca(id: string, s: StoredDcaState, view: DcaView): DcaState {
  const state: DcaState = {
    bot: botId(id),
    phase: s.phase,
    cycle: s.cycle,
    seq: s.seq,
    fills: s.fills.map((f) => ({ price: money(f.price), amount: money(f.amount) })),
    safeties: s.safeties,
    pending: s.pending ? { id: s.pending.id as ClientOrderId, reason: s.pending.reason, ...(s.pending.share !== undefined ? { share: s.pending.share } : {}) } : null,
    targets: null,
    realized: money(s.realized),
    carry: money(s.carry),
    carryCost: money(s.carryCost),
    booked: money(s.booked),
    since: s.since ?? null,
    trail: s.trail ? money(s.trail) : null,
    stopHigh: s.stopHigh ? money(s.stopHigh) : null,
    // An indicator start's feed is not stored: the engine warms it up from candle history (README.md "Deal start").
    feed: null,
  };
  return retargetDca(state, view);
}
