// The limit orders a bot keeps resting on its venue (bot_orders rows with a slot: strategy/resting.ts),
// as the engine places, cancels and looks them up (server/engine/resting.ts).
import type Decimal from 'decimal.js';
import { money } from '../../strategy/money.ts';
import type { Side } from '../../strategy/types.ts';
import type { Executor } from './executor.ts';
import { type OrderPhase, RefusedStep } from './order-states.ts';
import { firstStep, stepOrder } from './order-steps.ts';

/** A resting order as its record knows it. */
export interface RestingRecord {
  clientOrderId: string;
  slot: string;
  side: Side;
  price: Decimal;
  amount: Decimal;
  filled: Decimal;
  status: OrderPhase;
  reason: string;
  /** Lookups that did not find it since it was sent. */
  misses: number;
  notAfter: Date | null;
}

/** Phases in which a resting order may still be on the venue, or get there. */
export const RESTING_LIVE: readonly OrderPhase[] = ['new', 'submitted', 'open', 'partially_filled', 'pending_cancel', 'lost'];

/** A bot's resting orders that may still be on the venue (a grid keeps one a level: a few hundred at most). */
export async function liveResting(db: Executor, { botId }: { botId: string }): Promise<RestingRecord[]> {
  const rows = await db
    .selectFrom('bot_orders')
    .select(['client_order_id', 'slot', 'side', 'at_price', 'amount', 'filled', 'status', 'reason', 'misses', 'not_after'])
    .where('bot_id', '=', botId)
    .where('slot', 'is not', null)
    .where('status', 'in', RESTING_LIVE)
    .orderBy('id')
    .limit(1000)
    .execute();
  return rows.map((r) => ({
    clientOrderId: r.client_order_id,
    slot: r.slot ?? '',
    side: r.side,
    price: money(r.at_price ?? '0'),
    amount: money(r.amount ?? '0'),
    filled: money(r.filled ?? '0'),
    status: r.status as OrderPhase,
    reason: r.reason,
    misses: r.misses,
    notAfter: r.not_after,
  }));
}

/**
 * Records a resting order before it is sent (`new`), under a client order id of its own: the bot, its
 * cycle, the state's sequence and the bot's count of resting orders so far, so no two are alike and a
 * crash's re-send finds it by the id the record holds. In the caller's transaction (where the bot's lease
 * is checked first).
 */
export async function insertResting(db: Executor, order: { botId: string; cycle: number; seq: number; slot: string; side: Side; price: Decimal; amount: Decimal; reason: string }): Promise<string> {
  const count = await db
    .selectFrom('bot_orders')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('bot_id', '=', order.botId)
    .where('slot', 'is not', null)
    .executeTakeFirstOrThrow();
  const clientOrderId = `${order.botId}-${order.cycle}-${order.seq}-${Number(count.n) + 1}`;
  await db
    .insertInto('bot_orders')
    .values({
      bot_id: order.botId,
      client_order_id: clientOrderId,
      cycle: order.cycle,
      seq: order.seq,
      side: order.side,
      reason: order.reason,
      quote: null,
      amount: order.amount.toFixed(),
      at_price: order.price.toFixed(),
      slot: order.slot,
      status: 'new',
      filled: '0',
    })
    .execute();
  await firstStep(db, { clientOrderId, botId: order.botId });
  return clientOrderId;
}

/**
 * Steps a resting order (order-states.ts), with what the venue says it filled so far when it says; a step
 * not in the table is refused (answered false, nothing stored): another decision moved it first.
 */
export async function stepResting(db: Executor, step: { clientOrderId: string; to: OrderPhase; filled?: Decimal; detail?: Record<string, string> }): Promise<boolean> {
  try {
    await db.transaction().execute(async (tx) => {
      await stepOrder(tx, { clientOrderId: step.clientOrderId, to: step.to, ...(step.detail ? { detail: step.detail } : {}) });
      if (step.filled) await tx.updateTable('bot_orders').set({ filled: step.filled.toFixed() }).where('client_order_id', '=', step.clientOrderId).execute();
    });
    return true;
  } catch (error) {
    if (error instanceof RefusedStep) return false;
    throw error;
  }
}

/**
 * The quote each bot's resting buys hold on their venue (what is left of each at its price), by bot: the
 * venue no longer counts it free, so a bot's reservation of its account's free balance leaves it out.
 */
export async function restingQuoteOf(db: Executor, { botIds }: { botIds: readonly string[] }): Promise<Map<string, Decimal>> {
  const held = new Map<string, Decimal>();
  if (botIds.length === 0) return held;
  const rows = await db
    .selectFrom('bot_orders')
    .select(['bot_id', 'at_price', 'amount', 'filled'])
    .where('bot_id', 'in', botIds)
    .where('slot', 'is not', null)
    .where('side', '=', 'buy')
    .where('status', 'in', RESTING_LIVE)
    .limit(100_000)
    .execute();
  for (const r of rows) {
    const left = money(r.amount ?? '0')
      .minus(r.filled ?? '0')
      .mul(r.at_price ?? '0');
    held.set(String(r.bot_id), (held.get(String(r.bot_id)) ?? money(0)).plus(left));
  }
  return held;
}

/** A slot's order as the bot's detail shows it: its latest order's phase, price and amount, and the venue's reason when it refused it. */
export interface SlotState {
  status: OrderPhase;
  reason: string | null;
  price: string | null;
  amount: string | null;
}

/** Each slot's latest resting order (by slot), with the venue's reason for a refused one. */
export async function slotStates(db: Executor, { botId }: { botId: string }): Promise<Map<string, SlotState>> {
  const rows = await db
    .selectFrom('bot_orders')
    .select(['slot', 'status', 'client_order_id', 'at_price', 'amount'])
    .distinctOn('slot')
    .where('bot_id', '=', botId)
    .where('slot', 'is not', null)
    .orderBy('slot')
    .orderBy('id', 'desc')
    .limit(1000)
    .execute();
  const refused = rows.filter((r) => r.status === 'rejected').map((r) => r.client_order_id);
  const reasons = new Map<string, string>();
  if (refused.length > 0) {
    const steps = await db.selectFrom('bot_order_steps').select(['client_order_id', 'detail']).where('client_order_id', 'in', refused).where('to_phase', '=', 'rejected').execute();
    for (const s of steps) {
      const detail = (typeof s.detail === 'string' ? JSON.parse(s.detail) : s.detail) as Record<string, string> | null;
      if (detail?.reason) reasons.set(s.client_order_id, detail.reason);
    }
  }
  const plain = (d: string | null) => (d === null ? null : money(d).toFixed());
  return new Map(rows.map((r) => [r.slot ?? '', { status: r.status as OrderPhase, reason: reasons.get(r.client_order_id) ?? null, price: plain(r.at_price), amount: plain(r.amount) }]));
}

/** Whether the slot's order before `clientOrderId` was refused too (a refusal is told once, not at every try). */
export async function refusedBefore(db: Executor, { botId, slot, clientOrderId }: { botId: string; slot: string; clientOrderId: string }): Promise<boolean> {
  const row = await db
    .selectFrom('bot_orders')
    .select('status')
    .where('bot_id', '=', botId)
    .where('slot', '=', slot)
    .where('client_order_id', '!=', clientOrderId)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row?.status === 'rejected';
}
