// The cluster's lease reads that join the bots or their orders (bot_leases is the cluster's own table).
import { sql, type Kysely } from 'kysely';
import type { Executor } from './executor.ts';
import { RESTING_LIVE } from './resting-orders.ts';

/** A bot (`b`) has a resting order that may still be on the venue, or get there (resting-orders.ts RESTING_LIVE). */
export const restingLive = sql<boolean>`exists (select 1 from bot_orders o where o.bot_id = b.id and o.slot is not null and o.status in (${sql.join(RESTING_LIVE)}))`;

/**
 * A bot some process must hold: one not deleted that runs or has an order in flight, or any bot (a deleted
 * one too) with a resting order that may still be on the venue, whose cancel is to be retried.
 */
export const wantsLease = sql<boolean>`((b.deleted_at is null and (b.status = 'running' or b.state->>'pending' is not null)) or ${restingLive})`;

const interval = (ms: number) => sql.raw(`interval '${Math.max(1, Math.floor(ms))} milliseconds'`);

/**
 * The lease of the bot that recorded `clientOrderId`, locked FOR SHARE until the caller's transaction
 * ends (an exchange's order transaction); undefined when no bot recorded it or its bot has no lease row.
 */
export async function orderLeaseForShare(db: Kysely<never> | Executor, { clientOrderId }: { clientOrderId: string }) {
  const { rows } = await sql<{ bot_id: string; worker_id: string | null; epoch: string }>`
    select l.bot_id, l.worker_id, l.epoch from bot_orders o join bot_leases l on l.bot_id = o.bot_id
    where o.client_order_id = ${clientOrderId} for share of l`.execute(db);
  return rows[0];
}

/**
 * The bots (one when `botId` is given) that should trade and no live worker owns: not deleted and running
 * or holding an order in flight, or with a resting order that may still be on the venue (a paused, stopped
 * or deleted bot's, whose cancel a killed process left undone: its holder cancels it, and books a fill it
 * finds), with no lease row (epoch null), a freed one, or one whose worker's
 * heartbeat is older than `ttlMs`; by id, `limit` at most.
 */
export async function unownedBots(db: Executor, { ttlMs, limit, botId }: { ttlMs: number; limit: number; botId?: string | undefined }) {
  const { rows } = await sql<{ id: string; user_id: string; epoch: string | null }>`
    select b.id, b.user_id, l.epoch from bots b left join bot_leases l on l.bot_id = b.id
    where ${botId === undefined ? sql`true` : sql`b.id = ${botId}`} and ${wantsLease}
      and (l.worker_id is null or not exists (
        select 1 from workers w where w.id = l.worker_id and w.heartbeat_at > now() - ${interval(ttlMs)}))
    order by b.id limit ${limit}`.execute(db);
  return rows;
}

/** The leases `workerId` holds, with the status and deletion the database gives their bots now. */
export async function heldLeasesWithStatus(db: Executor, { workerId }: { workerId: string }) {
  const { rows } = await sql<{ bot_id: string; epoch: string; status: string; deleted_at: Date | null }>`
    select l.bot_id, l.epoch, b.status, b.deleted_at from bot_leases l join bots b on b.id = l.bot_id where l.worker_id = ${workerId}`.execute(db);
  return rows;
}

/**
 * A bot's trader and lease as a command's sender routes by it: the lease's epoch (null: no lease row)
 * and its holder when that worker's heartbeat is younger than `ttlMs`; undefined for a bot that is gone.
 */
export async function botLeaseNow(db: Executor, { botId, ttlMs }: { botId: string; ttlMs: number }) {
  const { rows } = await sql<{ user_id: string; epoch: string | null; holder: string | null }>`
    select b.user_id, l.epoch,
      (select w.id from workers w where w.id = l.worker_id and w.heartbeat_at > now() - ${interval(ttlMs)}) as holder
    from bots b left join bot_leases l on l.bot_id = b.id where b.id = ${botId} and b.deleted_at is null`.execute(db);
  return rows[0];
}
