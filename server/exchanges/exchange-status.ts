import { sql } from 'kysely';
import type { Db } from '../db/connect.ts';
import { leaveNotice } from '../events/notice.ts';
import { inTransaction, later } from '../events/outbox.ts';
import type { ExchangeState } from '../market/exchange-health.ts';
import { usersWithBotsOn } from '../store/bot-lists.ts';
import { exchangeByCode } from './catalog.ts';

/**
 * Tells the traders with bots on `exchange` that it stopped answering, or answers again: an `exchange`
 * event each (their open app, their alerts) and a notice (a warning when down) that stays in their
 * notices, in one transaction. Several processes see the same outage;
 * only the one whose update changes the shared row tells, so each change is told once. Answers whether
 * this call told it.
 */
export async function announceExchangeState(db: Db, exchange: string, state: ExchangeState): Promise<boolean> {
  const info = exchangeByCode(exchange);
  if (!info) return false;
  return inTransaction(db, async (tx) => {
    // Down: recorded unless it already is. Up: only from a recorded down (an exchange never seen down has
    // nothing to recover from).
    const { rows } =
      state === 'down'
        ? await sql<{ exchange: string }>`
            insert into exchange_health (exchange, state) values (${exchange}, 'down')
            on conflict (exchange) do update set state = 'down', changed_at = now() where exchange_health.state <> 'down'
            returning exchange`.execute(tx)
        : await sql<{ exchange: string }>`
            update exchange_health set state = 'up', changed_at = now() where exchange = ${exchange} and state = 'down' returning exchange`.execute(tx);
    if (rows.length === 0) return false;
    for (const userId of await usersWithBotsOn(tx, { exchangeId: info.id })) {
      await later(tx, userId, { kind: 'exchange', exchange, state });
      // The exchange event alerts; the notice is the record (its code alerts nothing: server/alerts/words.ts).
      await leaveNotice(tx, userId, { kind: state === 'down' ? 'warning' : 'notice', code: `exchange_${state}`, detail: { exchange, name: info.name } });
    }
    return true;
  });
}
