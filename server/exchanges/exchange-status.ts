import { sql } from 'kysely';
import type { Db } from '../db/connect.ts';
import { inTransaction, later } from '../events/outbox.ts';
import type { ExchangeState } from '../market/exchange-health.ts';
import { usersWithBotsOn } from '../store/bot-lists.ts';
import { exchangeByCode } from './catalog.ts';

/**
 * Tells the traders with bots on `exchange` that it stopped answering, or answers again: an `exchange`
 * event each (their open app, their alerts), in one transaction. Several processes see the same outage;
 * only the one whose update changes the shared row tells, so each change is told once. Answers whether
 * this call told it.
 */
export async function announceExchangeState(db: Db, exchange: string, state: ExchangeState): Promise<boolean> {
  const info = exchangeByCode(exchange);
  if (!info) return false;
  return inTransaction(db, async (tx) => {
    const { rows } = await sql<{ exchange: string }>`
      insert into exchange_health (exchange, state) values (${exchange}, ${state})
      on conflict (exchange) do update set state = excluded.state, changed_at = now()
      where exchange_health.state <> excluded.state
      returning exchange`.execute(tx);
    // A first 'up' (no row before) is no recovery: nothing was told down.
    if (rows.length === 0) return false;
    if (state === 'up' && !(await wasDown(tx, exchange))) return false;
    for (const userId of await usersWithBotsOn(tx, { exchangeId: info.id })) await later(tx, userId, { kind: 'exchange', exchange, state });
    return true;
  });
}

/** Whether the row just changed to up came from a down (a fresh row is inserted, not updated). */
async function wasDown(tx: Db, exchange: string): Promise<boolean> {
  // xmax is 0 for a row this transaction inserted, non-zero for one it updated.
  const { rows } = await sql<{ updated: boolean }>`select xmax <> 0 as updated from exchange_health where exchange = ${exchange}`.execute(tx);
  return rows[0]?.updated === true;
}
