import type Decimal from 'decimal.js';
import { money } from '../money.ts';
import { botId, type ClientOrderId, type PlaceOrder } from '../types.ts';
import type { GridState } from './strategy.ts';

/** A grid state as stored (bots.state): decimal strings. */
export interface StoredGridState {
  phase: GridState['phase'];
  seq: number;
  trades: number;
  quantity: string;
  orders: ({ side: 'buy' | 'sell'; amount: string; cost: string; bought?: string } | null)[];
  pending: { id: string; level: number; reason: PlaceOrder['reason'] } | null;
  realized: string;
  /** The grid's dust (absent in a state stored before it was kept: none). */
  dust?: string;
  /** What the dust cost (GridState.dustCost); absent: none. */
  dustCost?: string;
  /** The start price and the trailing exits' highs (absent in a state stored before them: none). */
  start?: string | null;
  trail?: string | null;
  stopHigh?: string | null;
  /** The edge of its range it was told at (absent in a state stored before it was kept: none). */
  edge?: 'low' | 'high' | null;
}

const dec = (d: Decimal | null) => (d ? d.toFixed() : null);
const undec = (s: string | null | undefined) => (s ? money(s) : null);

export function encodeGrid(s: GridState): StoredGridState {
  return {
    phase: s.phase,
    seq: s.seq,
    trades: s.trades,
    quantity: s.quantity.toFixed(),
    orders: s.orders.map((o) => (o ? { side: o.side, amount: o.amount.toFixed(), cost: o.cost.toFixed(), ...(o.bought ? { bought: o.bought.toFixed() } : {}) } : null)),
    pending: s.pending ? { id: s.pending.id, level: s.pending.level, reason: s.pending.reason } : null,
    realized: s.realized.toFixed(),
    dust: s.dust.toFixed(),
    ...(s.dustCost?.gt(0) ? { dustCost: s.dustCost.toFixed() } : {}),
    start: dec(s.start),
    trail: dec(s.trail),
    stopHigh: dec(s.stopHigh),
    edge: s.edge,
  };
}

export function decodeGrid(id: string, s: StoredGridState): GridState {
  return {
    bot: botId(id),
    phase: s.phase,
    seq: s.seq,
    trades: s.trades,
    quantity: money(s.quantity),
    orders: s.orders.map((o) => (o ? { side: o.side, amount: money(o.amount), cost: money(o.cost), ...(o.bought ? { bought: money(o.bought) } : {}) } : null)),
    pending: s.pending ? { id: s.pending.id as ClientOrderId, level: s.pending.level, reason: s.pending.reason } : null,
    realized: money(s.realized),
    dust: money(s.dust ?? '0'),
    ...(s.dustCost && money(s.dustCost).gt(0) ? { dustCost: money(s.dustCost) } : {}),
    start: undec(s.start),
    trail: undec(s.trail),
    stopHigh: undec(s.stopHigh),
    edge: s.edge ?? null,
  };
}
