import { money } from '../money.ts';
import { botId, type ClientOrderId, type PlaceOrder } from '../types.ts';
import type { DipState } from './strategy.ts';

/** A buy-the-dip state as stored (bots.state): decimal strings; its trigger prices are derived. */
export interface StoredDipState {
  phase: DipState['phase'];
  cycle: number;
  seq: number;
  pending: { id: string; reason: PlaceOrder['reason'] } | null;
  realized: string;
  reference: string | null;
  fills: { price: string; amount: string }[];
  carry: string;
  carryCost: string;
}

export function encodeDip(state: DipState): StoredDipState {
  return {
    phase: state.phase,
    cycle: state.cycle,
    seq: state.seq,
    pending: state.pending ? { id: state.pending.id, reason: state.pending.reason } : null,
    realized: state.realized.toFixed(),
    reference: state.reference?.toFixed() ?? null,
    fills: state.fills.map((f) => ({ price: f.price.toFixed(), amount: f.amount.toFixed() })),
    carry: state.carry.toFixed(),
    carryCost: state.carryCost.toFixed(),
  };
}

export function decodeDip(id: string, stored: StoredDipState): DipState {
  return {
    bot: botId(id),
    // A bot started again after it finished waits for its first price again (the service stores 'waiting').
    phase: stored.phase,
    cycle: stored.cycle,
    seq: stored.seq,
    pending: stored.pending ? { id: stored.pending.id as ClientOrderId, reason: stored.pending.reason } : null,
    realized: money(stored.realized),
    reference: stored.phase === 'waiting' || stored.reference === null ? null : money(stored.reference),
    fills: stored.fills.map((f) => ({ price: money(f.price), amount: money(f.amount) })),
    carry: money(stored.carry),
    carryCost: money(stored.carryCost),
  };
}
