// The orders a bot records before it sends them, and the exchange's answers on them (bot_orders).
import type { Selectable } from 'kysely';
import type { BotOrdersTable } from '../db/schema.ts';
import type { Executor } from './executor.ts';
import { firstStep, stepOrder } from './order-steps.ts';

/** A bot_orders row as stored. */
export type BotOrderRow = Selectable<BotOrdersTable>;

/** When a cycle opened: the time of its first filled order by sequence, if any. */
export async function firstFilledOrder(db: Executor, { botId, cycle }: { botId: string; cycle: number }): Promise<{ updated_at: Date } | undefined> {
  return db.selectFrom('bot_orders').select('updated_at').where('bot_id', '=', botId).where('cycle', '=', cycle).where('status', '=', 'filled').orderBy('seq').executeTakeFirst();
}

/** The orders of one cycle of a bot, in sequence (100 at most). */
export async function ordersOfCycle(db: Executor, { botId, cycle }: { botId: string; cycle: number }): Promise<BotOrderRow[]> {
  // A resting order counts once it filled: until then it is on the exchange (the detail lists it there), and
  // a grid cancels and replaces them by the dozen, which would crowd out the cycle's own orders.
  return db
    .selectFrom('bot_orders')
    .selectAll()
    .where('bot_id', '=', botId)
    .where('cycle', '=', cycle)
    .where((eb) => eb.or([eb('slot', 'is', null), eb('status', '=', 'filled')]))
    .orderBy('seq')
    .orderBy('id')
    .limit(100)
    .execute();
}

/** The order recorded under a client order id, if any. */
export async function findOrder(db: Executor, { clientOrderId }: { clientOrderId: string }): Promise<BotOrderRow | undefined> {
  return db.selectFrom('bot_orders').selectAll().where('client_order_id', '=', clientOrderId).executeTakeFirst();
}

/** The records of these client order ids (those that have one): one statement per 1,000 ids. */
export async function findOrders(db: Executor, { clientOrderIds }: { clientOrderIds: readonly string[] }): Promise<BotOrderRow[]> {
  const rows: BotOrderRow[] = [];
  for (let i = 0; i < clientOrderIds.length; i += 1000) {
    rows.push(
      ...(await db
        .selectFrom('bot_orders')
        .selectAll()
        .where('client_order_id', 'in', clientOrderIds.slice(i, i + 1000))
        .execute()),
    );
  }
  return rows;
}

/** An order the decision places, recorded (status new) before it is sent. */
export async function insertNewOrder(
  db: Executor,
  order: { botId: string; clientOrderId: string; cycle: number; seq: number; side: 'buy' | 'sell'; reason: string; quote: string | null; amount: string | null; atPrice: string | null },
): Promise<void> {
  await db
    .insertInto('bot_orders')
    .values({
      bot_id: order.botId,
      client_order_id: order.clientOrderId,
      cycle: order.cycle,
      seq: order.seq,
      side: order.side,
      reason: order.reason,
      quote: order.quote,
      amount: order.amount,
      at_price: order.atPrice,
      status: 'new',
    })
    .execute();
  await firstStep(db, { clientOrderId: order.clientOrderId, botId: order.botId });
}

/**
 * The exchange's answer on the order in flight: filled or rejected, with what it filled at and for. The
 * answer came from the venue, so the order was sent: a `new` order steps to `submitted` first, then to the
 * answer (order-states.ts); the same answer recorded again changes nothing.
 */
export async function recordOrderAnswer(
  db: Executor,
  answer: { clientOrderId: string; status: 'filled' | 'rejected'; price: string | null; filled: string; cost: string; fee: string | null; feeCurrency: string | null },
): Promise<void> {
  const row = await db.selectFrom('bot_orders').select('status').where('client_order_id', '=', answer.clientOrderId).forUpdate().executeTakeFirst();
  if (row && row.status !== answer.status) {
    if (row.status === 'new') await stepOrder(db, { clientOrderId: answer.clientOrderId, to: 'submitted' });
    await stepOrder(db, { clientOrderId: answer.clientOrderId, to: answer.status });
  }
  await db
    .updateTable('bot_orders')
    .set({
      price: answer.price,
      filled: answer.filled,
      cost: answer.cost,
      fee: answer.fee,
      fee_currency: answer.feeCurrency,
      updated_at: new Date(),
    })
    .where('client_order_id', '=', answer.clientOrderId)
    .execute();
}

/** When a cycle opened: the earliest time one of its buys filled, if any. */
export async function cycleOpenedAt(db: Executor, { botId, cycle }: { botId: string; cycle: number }): Promise<Date | null> {
  const opened = await db
    .selectFrom('bot_orders')
    .select((eb) => eb.fn.min('updated_at').as('at'))
    .where('bot_id', '=', botId)
    .where('cycle', '=', cycle)
    .where('status', '=', 'filled')
    .where('side', '=', 'buy')
    .executeTakeFirst();
  return opened?.at ? new Date(opened.at as Date) : null;
}
