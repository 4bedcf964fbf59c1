// The steps of an order's life (order-states.ts) and its fills by trade id (bot_order_steps, bot_order_fills).
import type Decimal from 'decimal.js';
import { money } from '../../strategy/money.ts';
import type { Executor } from './executor.ts';
import { canStep, type OrderPhase, RefusedStep } from './order-states.ts';

/**
 * Moves an order to `to`, in the caller's transaction: its row locked, the step checked against the table
 * (a step not in it throws RefusedStep and stores nothing: the caller logs it), then the new phase and
 * the step stored together. Answers the phase it came from.
 */
export async function stepOrder(db: Executor, step: { clientOrderId: string; to: OrderPhase; detail?: Record<string, string> }): Promise<OrderPhase> {
  const row = await db.selectFrom('bot_orders').select(['bot_id', 'status']).where('client_order_id', '=', step.clientOrderId).forUpdate().executeTakeFirst();
  if (!row) throw new RefusedStep(step.clientOrderId, 'nothing', step.to);
  const from = row.status as OrderPhase;
  if (!canStep(from, step.to)) throw new RefusedStep(step.clientOrderId, from, step.to);
  await db.updateTable('bot_orders').set({ status: step.to, updated_at: new Date() }).where('client_order_id', '=', step.clientOrderId).execute();
  await db
    .insertInto('bot_order_steps')
    .values({ client_order_id: step.clientOrderId, bot_id: row.bot_id, from_phase: from, to_phase: step.to, detail: step.detail ? JSON.stringify(step.detail) : null })
    .execute();
  return from;
}

/**
 * Marks an order sent, just before the send: `new` steps to `submitted`, with the moment after which the
 * venue can no longer take the request (`notAfter`, a venue with a receive window). Answers the phase it
 * was in (`new` the first time; `submitted` or later for an order sent before), or null when no order is
 * recorded under the id.
 */
export async function markSubmitted(db: Executor, { clientOrderId, notAfter }: { clientOrderId: string; notAfter?: Date | undefined }): Promise<OrderPhase | null> {
  return db.transaction().execute(async (tx) => {
    const row = await tx.selectFrom('bot_orders').select('status').where('client_order_id', '=', clientOrderId).forUpdate().executeTakeFirst();
    if (!row) return null;
    if (row.status === 'new') {
      await stepOrder(tx, { clientOrderId, to: 'submitted' });
      await tx
        .updateTable('bot_orders')
        .set({ not_after: notAfter ?? null })
        .where('client_order_id', '=', clientOrderId)
        .execute();
    }
    return row.status as OrderPhase;
  });
}

/**
 * A sent order that never reached its venue (engine/lost-orders.ts): back to `new`, its misses and its
 * window cleared, in the caller's transaction. 'spent' when it went back `resends` times already (left as
 * it is), 'moved' when it is no longer `submitted`.
 */
export async function stepUnreached(tx: Executor, order: { clientOrderId: string; misses: number; resends: number }): Promise<'resend' | 'spent' | 'moved'> {
  const row = await tx.selectFrom('bot_orders').select('status').where('client_order_id', '=', order.clientOrderId).forUpdate().executeTakeFirst();
  if (row?.status !== 'submitted') return 'moved';
  const before = await tx
    .selectFrom('bot_order_steps')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('client_order_id', '=', order.clientOrderId)
    .where('from_phase', '=', 'submitted')
    .where('to_phase', '=', 'new')
    .executeTakeFirstOrThrow();
  if (Number(before.n) >= order.resends) return 'spent';
  await stepOrder(tx, { clientOrderId: order.clientOrderId, to: 'new', detail: { misses: String(order.misses), reason: 'never reached: its receive window passed unseen' } });
  await tx.updateTable('bot_orders').set({ misses: 0, not_after: null }).where('client_order_id', '=', order.clientOrderId).execute();
  return 'resend';
}

/** A lookup that did not find a sent order: counted with the order. Answers the misses so far. */
export async function countMiss(db: Executor, { clientOrderId }: { clientOrderId: string }): Promise<number> {
  const row = await db
    .updateTable('bot_orders')
    .set((eb) => ({ misses: eb('misses', '+', 1) }))
    .where('client_order_id', '=', clientOrderId)
    .returning('misses')
    .executeTakeFirst();
  return row?.misses ?? 0;
}

/** The first step of an order recorded by a decision (new), stored beside its row. */
export async function firstStep(db: Executor, order: { clientOrderId: string; botId: string }): Promise<void> {
  await db.insertInto('bot_order_steps').values({ client_order_id: order.clientOrderId, bot_id: order.botId, from_phase: null, to_phase: 'new', detail: null }).execute();
}

/** An order's steps, oldest first (an order takes a handful). */
export async function stepsOf(db: Executor, { clientOrderId }: { clientOrderId: string }): Promise<{ from: string | null; to: string; at: Date }[]> {
  const rows = await db.selectFrom('bot_order_steps').select(['from_phase', 'to_phase', 'at']).where('client_order_id', '=', clientOrderId).orderBy('id').limit(100).execute();
  return rows.map((r) => ({ from: r.from_phase, to: r.to_phase, at: r.at }));
}

/** One fill of an order as the venue reported it. */
export interface OrderFill {
  tradeId: string;
  price: Decimal;
  amount: Decimal;
  cost: Decimal;
  fee: { currency: string; amount: Decimal } | null;
  maker: boolean;
  at: Date;
}

/**
 * Stores a fill once by its trade id: the same fill seen again (a poll, then a restart's reconciliation)
 * changes nothing. Answers whether it was new (only a new fill may move the bot's books).
 */
export async function recordFill(db: Executor, order: { clientOrderId: string; botId: string }, fill: OrderFill): Promise<boolean> {
  const rows = await db
    .insertInto('bot_order_fills')
    .values({
      client_order_id: order.clientOrderId,
      bot_id: order.botId,
      trade_id: fill.tradeId,
      price: fill.price.toFixed(),
      amount: fill.amount.toFixed(),
      cost: fill.cost.toFixed(),
      fee: fill.fee?.amount.toFixed() ?? null,
      fee_currency: fill.fee?.currency ?? null,
      maker: fill.maker,
      filled_at: fill.at,
    })
    .onConflict((c) => c.columns(['client_order_id', 'trade_id']).doNothing())
    .returning('id')
    .execute();
  return rows.length > 0;
}

/** An order's fills, in the order they were stored. */
export async function fillsOf(db: Executor, { clientOrderId }: { clientOrderId: string }): Promise<OrderFill[]> {
  const rows = await db.selectFrom('bot_order_fills').selectAll().where('client_order_id', '=', clientOrderId).orderBy('id').limit(1000).execute();
  return rows.map((r) => ({
    tradeId: r.trade_id,
    price: money(r.price),
    amount: money(r.amount),
    cost: money(r.cost),
    fee: r.fee === null ? null : { currency: r.fee_currency ?? '', amount: money(r.fee) },
    maker: r.maker,
    at: r.filled_at,
  }));
}
