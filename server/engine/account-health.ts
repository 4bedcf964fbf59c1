import { sql } from 'kysely';
import type { Db } from '../db/connect.ts';
import { leaveNotice } from '../events/notice.ts';
import { inTransaction } from '../events/outbox.ts';
import { exchangeById } from '../exchanges/catalog.ts';
import type { PlaceOrder } from '../../strategy/types.ts';

/**
 * Outage mode of an exchange account. An order call whose outcome is unknown (a timeout, a dropped
 * connection, a 5xx) counts as a failure of the account; OUTAGE_AFTER_FAILURES of them in a row put it
 * **out of reach**: its bots stop opening (no new entry, no add: a position opened blind could not be
 * managed), while their exits (take profit, stop loss, closes) still go out; the trader gets a warning.
 * An answered call resets the count, but only a reconciliation round that the exchange answers in full
 * (reconciliation.ts) ends the outage: the bots then open again on their own, and the trader is told.
 * Kept in the database (account_health), so an outage seen by one process holds on every process.
 */

/** Order calls with an unknown outcome in a row that put an account out of reach. */
export const OUTAGE_AFTER_FAILURES = 3;

/** The orders an account out of reach does not send: those that open or add to a position. */
const OPENING: readonly PlaceOrder['reason'][] = ['open', 'add', 'manual_add'];

/** Whether an order opens or adds (held back while the account is out of reach). */
export const opens = (reason: PlaceOrder['reason']) => OPENING.includes(reason);

/** The key of an exchange account in the engine's maps. */
export const accountKey = (userId: string, exchangeId: number) => `${userId}:${exchangeId}`;

/**
 * A call with an unknown outcome: counted; at the OUTAGE_AFTER_FAILURES-th in a row the account is out of
 * reach from now, with the trader's warning, in one transaction. Answers whether this call put it there.
 */
export async function callFailed(db: Db, account: { userId: string; exchangeId: number }): Promise<boolean> {
  return inTransaction(db, async (tx) => {
    const { rows } = await sql<{ failures: number; down_since: Date | null }>`
      insert into account_health (user_id, exchange_id, failures) values (${account.userId}, ${account.exchangeId}, 1)
      on conflict (user_id, exchange_id) do update set failures = account_health.failures + 1
      returning failures, down_since`.execute(tx);
    const row = rows[0]!;
    if (row.down_since !== null || row.failures < OUTAGE_AFTER_FAILURES) return false;
    await tx.updateTable('account_health').set({ down_since: new Date() }).where('user_id', '=', account.userId).where('exchange_id', '=', account.exchangeId).execute();
    const exchange = exchangeById(account.exchangeId);
    await leaveNotice(tx, account.userId, {
      kind: 'warning',
      code: 'account_unreachable',
      detail: { exchange: exchange?.code ?? String(account.exchangeId), name: exchange?.name ?? '', failures: String(row.failures) },
    });
    return true;
  });
}

/** An answered call: the count of failures in a row starts again (an outage itself ends only by a round). */
export async function callAnswered(db: Db, account: { userId: string; exchangeId: number }): Promise<void> {
  await db.updateTable('account_health').set({ failures: 0 }).where('user_id', '=', account.userId).where('exchange_id', '=', account.exchangeId).where('failures', '>', 0).execute();
}

/**
 * A reconciliation round the exchange answered in full: the outage ends, the trader is told. Answers how
 * long it lasted (seconds, by the database's clock), or null when there was none (or another process
 * ended it first: each outage is counted once, by the process that ends it).
 */
export async function outageOver(db: Db, account: { userId: string; exchangeId: number }): Promise<number | null> {
  return inTransaction(db, async (tx) => {
    const { rows: ended } = await sql<{ seconds: number }>`
      update account_health as h set failures = 0, down_since = null
      from (select user_id, exchange_id, down_since from account_health where user_id = ${account.userId} and exchange_id = ${account.exchangeId} and down_since is not null for update) as was
      where h.user_id = was.user_id and h.exchange_id = was.exchange_id
      returning greatest(0, extract(epoch from (now() - was.down_since)))::float8 as seconds`.execute(tx);
    if (ended.length === 0) return null;
    const exchange = exchangeById(account.exchangeId);
    await leaveNotice(tx, account.userId, { kind: 'notice', code: 'account_reachable', detail: { exchange: exchange?.code ?? String(account.exchangeId), name: exchange?.name ?? '' } });
    return Number(ended[0]!.seconds);
  });
}

/** The accounts out of reach now, by `userId:exchangeId`, with since when (ms): read once a round. */
export async function accountsDown(db: Db): Promise<Map<string, number>> {
  const rows = await db.selectFrom('account_health').select(['user_id', 'exchange_id', 'down_since']).where('down_since', 'is not', null).execute();
  return new Map(rows.map((r) => [accountKey(String(r.user_id), r.exchange_id), (r.down_since as Date).getTime()]));
}
