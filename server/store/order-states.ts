import { type OrderPhase, orderPhases } from '../../contract/bots.ts';

export { type OrderPhase, orderPhases };

/**
 * An order's life as the engine records it, one stored step at a time (bot_order_steps):
 *
 *   new ──> submitted ──> open ──> partially_filled ──> filled
 *    │  <──────┘│ (never reached: its receive window passed unseen; sent again)
 *    │          │           │             │
 *    │          │           └──> pending_cancel ──> cancelled (or filled: the fill came first)
 *    └──> rejected          └──> expired, lost (looked up, not found) ──> found again later
 *
 * `new`: recorded by the decision, not sent yet. `submitted`: sent; the venue's answer is awaited (or its
 * outcome is unknown: a timeout, a dropped connection). `open`: resting on the venue. `lost`: the venue
 * said three times it knows no such order, and one targeted query agreed: the engine keeps looking it up,
 * and a fill found later still counts. `filled`, `cancelled`, `rejected` and `expired` are final.
 */

/** Every step an order may take; anything else is refused (and logged by whoever tried it). */
export const orderSteps: Readonly<Record<OrderPhase, readonly OrderPhase[]>> = {
  // Refused before it reached the venue (a fence, a check) or by the venue's answer to the send.
  new: ['submitted', 'rejected'],
  // A market order's answer is final at once; a limit order rests (open) or fills or expires at once.
  // Back to new: not found once its receive window had passed, it never reached the venue and never can
  // (engine/lost-orders.ts): sent again under the same id.
  submitted: ['new', 'open', 'partially_filled', 'filled', 'cancelled', 'rejected', 'expired', 'lost'],
  open: ['partially_filled', 'filled', 'pending_cancel', 'cancelled', 'expired', 'lost'],
  // Each further part filled is a fill of its own (bot_order_fills), not a step.
  partially_filled: ['filled', 'pending_cancel', 'cancelled', 'expired', 'lost'],
  // A cancel answered "already filled" is the fill.
  pending_cancel: ['cancelled', 'filled', 'lost'],
  // Found again: where it stands now (rejected: the venue says it refused it).
  lost: ['open', 'partially_filled', 'filled', 'cancelled', 'rejected', 'expired'],
  filled: [],
  cancelled: [],
  rejected: [],
  expired: [],
};

/** Whether an order may go from `from` to `to`. */
export function canStep(from: OrderPhase, to: OrderPhase): boolean {
  return orderSteps[from].includes(to);
}

/** Whether an order has ended: nothing of it can change any more. */
export function isFinal(phase: OrderPhase): boolean {
  return orderSteps[phase].length === 0;
}

/** A step not in the table: refused, nothing stored. */
export class RefusedStep extends Error {
  readonly from: string;
  readonly to: string;
  constructor(clientOrderId: string, from: string, to: string) {
    super(`order ${clientOrderId}: no step from ${from} to ${to}`);
    this.name = 'RefusedStep';
    this.from = from;
    this.to = to;
  }
}
