import { sql, type Kysely } from 'kysely';
import type { MarketOrderRequest } from '../exchanges/port.ts';
import type { PaperAudit } from '../exchanges/paper-venue.ts';

/**
 * The Paper exchange's record of every order it receives (for the cluster chaos test
 * only): with TEST_VENUE_AUDIT=1 in the environment at start, main.ts hands it to Paper (`paperAudit`), and each placeMarketOrder and placeLimitOrder writes a
 * `venue_calls` row in its own transaction: the client order id, the worker and lease epoch that sent
 * it, the bot's lease as the database has it at that moment, and whether Paper already knew the id
 * (a repeat it answers with the first fill), and whether it refused the call because its sender no
 * longer held the bot's lease (paper-venue.ts). Unset, nothing is read or written and no table exists.
 */
export const venueAudit = process.env.TEST_VENUE_AUDIT === '1';

let table: Promise<void> | undefined;

/**
 * Creates `venue_calls` once per process (processes racing to create it: the loser tries again). Called
 * before Paper's order transaction, never inside it: the transaction holds the account's lock, and a
 * second connection asked for there waited for a pool whose every connection was a transaction waiting
 * for that lock (a freshly started process, 10 orders of one trader at once: no order for 12 s and more).
 */
export function ensureVenueAuditTable(db: Kysely<never>): Promise<void> {
  if (!venueAudit) return Promise.resolve();
  const create = () =>
    sql`create table if not exists venue_calls (
      id bigserial primary key, client_order_id text not null, bot_id bigint, worker_id text, epoch bigint,
      lease_worker text, lease_epoch bigint, known boolean not null, refused boolean not null default false, at timestamptz not null default clock_timestamp())`.execute(db);
  table ??= create()
    .catch(() => new Promise((r) => setTimeout(r, 100)).then(create))
    .then(() => undefined);
  return table;
}

/** Inside Paper's order transaction: records this call (a no-op unless TEST_VENUE_AUDIT=1; ensureVenueAuditTable first). */
export async function auditVenueCall(tx: Kysely<never>, request: Pick<MarketOrderRequest, 'clientOrderId' | 'sender'>, known: boolean, refused: boolean): Promise<void> {
  if (!venueAudit) return;
  await sql`insert into venue_calls (client_order_id, bot_id, worker_id, epoch, lease_worker, lease_epoch, known, refused)
    select ${request.clientOrderId}, o.bot_id, ${request.sender?.worker ?? null}, ${request.sender?.epoch ?? null}::bigint, l.worker_id, l.epoch, ${known}, ${refused}
    from (select ${request.clientOrderId}::text as id) c
      left join bot_orders o on o.client_order_id = c.id left join bot_leases l on l.bot_id = o.bot_id`.execute(tx);
}

/** The audit as Paper takes it (exchanges/paper-venue.ts PaperAudit). */
export const paperAudit: PaperAudit = {
  prepare: (db) => ensureVenueAuditTable(db as never),
  record: (tx, request, known, refused) => auditVenueCall(tx as never, request, known, refused),
};
