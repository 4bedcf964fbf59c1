import { createHash } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { Db } from '../db/connect.ts';
import { heldLeasesWithStatus, orderLeaseForShare, unownedBots } from '../store/bot-leases.ts';

/**
 * Who may trade a bot: the `bot_leases` row names the owning worker and a
 * fencing number (epoch), +1 on every grant. A lease is valid while its worker's heartbeat is younger
 * than the TTL, by the database's clock. Every decision transaction checks (worker, epoch) with the
 * lease row locked, so a process that lost a bot can neither commit for it nor, therefore, send.
 */

/** This process's lease on a bot, as every decision for it must show. */
export interface Fence {
  worker: string;
  epoch: string;
}

/** The decision was made under a lease this process no longer holds: nothing is written or sent. */
export class LeaseLost extends Error {
  constructor(botId: string) {
    super(`lease on bot ${botId} lost`);
    this.name = 'LeaseLost';
  }
}

/** A bot no live worker owns, with the epoch its lease had when read (the compare-and-set value). */
export interface Wanted {
  botId: string;
  userId: string;
  epoch: string;
}

const interval = (ms: number) => sql.raw(`interval '${Math.max(1, Math.floor(ms))} milliseconds'`);

/** Inside a decision's transaction: locks the bot's lease row and throws LeaseLost unless it is still `fence`. */
export async function checkLease(tx: Kysely<never> | Db, botId: string, fence: Fence): Promise<void> {
  const { rows } = await sql<{ worker_id: string | null; epoch: string }>`select worker_id, epoch from bot_leases where bot_id = ${botId} for update`.execute(tx);
  const row = rows[0];
  if (!row || row.worker_id !== fence.worker || String(row.epoch) !== fence.epoch) throw new LeaseLost(botId);
}

/**
 * Inside an exchange's order transaction (the Paper venue): whether `sender` still holds
 * the lease of the bot that recorded `clientOrderId`. The lease row stays locked (FOR SHARE) until the
 * order is written, so a takeover (epoch + 1) either waits for this order, and its owner then finds it
 * by client order id, or comes first, and this order is refused. The sender's own lease read before
 * sending cannot close that window: a process paused (SIGSTOP, a long GC) between that read and the
 * exchange's write would still send. An order no bot recorded, or whose bot has no lease row (a lone
 * process before its first claim), has nothing to compare: it passes. Answers the bot, if any.
 */
export async function senderHolds(tx: Kysely<never> | Db, clientOrderId: string, sender: Fence): Promise<{ holds: boolean; botId: string | null }> {
  const row = await orderLeaseForShare(tx, { clientOrderId });
  if (!row) return { holds: true, botId: null };
  return { holds: row.worker_id === sender.worker && String(row.epoch) === sender.epoch, botId: String(row.bot_id) };
}

/** Whether `fence` still holds the bot (a read, for sends outside a decision: an order in flight re-sent). */
export async function holds(db: Db, botId: string, fence: Fence): Promise<boolean> {
  const { rows } = await sql<{ n: number }>`select 1 as n from bot_leases where bot_id = ${botId} and worker_id = ${fence.worker} and epoch = ${fence.epoch}`.execute(db);
  return rows.length > 0;
}

/** The epoch of `me`'s lease on one bot, if `me` holds it. */
export async function leaseOf(db: Db, me: string, botId: string): Promise<string | undefined> {
  const { rows } = await sql<{ epoch: string }>`select epoch from bot_leases where bot_id = ${botId} and worker_id = ${me}`.execute(db);
  return rows[0] === undefined ? undefined : String(rows[0].epoch);
}

/** The live workers that take bots (heartbeat younger than the TTL, not leaving), by id. */
export async function liveWorkers(db: Db, ttlMs: number): Promise<string[]> {
  const { rows } = await sql<{ id: string }>`select id from workers where not draining and heartbeat_at > now() - ${interval(ttlMs)} order by id`.execute(db);
  return rows.map((r) => String(r.id));
}

/**
 * Rendezvous hashing on the trader: the live worker with the highest hash of
 * (worker, user) gets all of a user's bots, so the per-key rate limit and the Paper balance row stay on
 * one process; when a worker joins or leaves only about 1/N of the users move.
 */
export function winner(workers: readonly string[], userId: string): string | undefined {
  let best: string | undefined;
  let bestScore = '';
  for (const w of workers) {
    const score = createHash('sha1').update(`${w}:${userId}`).digest('hex');
    if (best === undefined || score > bestScore) {
      best = w;
      bestScore = score;
    }
  }
  return best;
}

/**
 * The bots that should trade and that no live worker owns: running, or holding an order in flight,
 * with no lease, a freed one, or one whose worker's heartbeat is older than the TTL. A bot without a
 * lease row gets one (epoch 0) here.
 */
export async function wanted(db: Db, ttlMs: number, limit = 1000, botId?: string): Promise<Wanted[]> {
  const rows = await unownedBots(db, { ttlMs, limit, botId });
  const missing = rows.filter((r) => r.epoch === null).map((r) => String(r.id));
  if (missing.length > 0) await sql`insert into bot_leases (bot_id) values ${sql.join(missing.map((id) => sql`(${id})`))} on conflict do nothing`.execute(db);
  return rows.map((r) => ({ botId: String(r.id), userId: String(r.user_id), epoch: r.epoch === null ? '0' : String(r.epoch) }));
}

/**
 * Takes the given bots by compare-and-set: only a lease still at the epoch we read, and still free or
 * held by a dead worker, is granted to `me` with epoch + 1, and only while `me` is registered (a worker
 * whose row was removed takes nothing until its heartbeat writes it again). Answers the leases won.
 */
export async function claim(db: Db, me: string, bots: readonly Wanted[], ttlMs: number): Promise<(Fence & { botId: string })[]> {
  if (bots.length === 0) return [];
  const pairs = sql.join(bots.map((b) => sql`(${b.botId}::bigint, ${b.epoch}::bigint)`));
  const { rows } = await sql<{ bot_id: string; epoch: string }>`
    update bot_leases l set worker_id = ${me}, epoch = l.epoch + 1, granted_at = now()
    where (l.bot_id, l.epoch) in (${pairs}) and exists (select 1 from workers w where w.id = ${me})
      and (l.worker_id is null or not exists (
        select 1 from workers w where w.id = l.worker_id and w.heartbeat_at > now() - ${interval(ttlMs)}))
    returning l.bot_id, l.epoch`.execute(db);
  return rows.map((r) => ({ botId: String(r.bot_id), worker: me, epoch: String(r.epoch) }));
}

/** The bots `me` holds, with their epochs and the status the database gives them now. */
export async function owned(db: Db, me: string): Promise<{ botId: string; epoch: string; status: string; deleted: boolean }[]> {
  const rows = await heldLeasesWithStatus(db, { workerId: me });
  return rows.map((r) => ({ botId: String(r.bot_id), epoch: String(r.epoch), status: r.status, deleted: r.deleted_at !== null }));
}

/** Frees bots `me` holds (another worker wins them now, or this one leaves). */
export async function release(db: Db, me: string, botIds: readonly string[]): Promise<void> {
  if (botIds.length === 0) return;
  await sql`update bot_leases set worker_id = null where worker_id = ${me} and bot_id in (${sql.join(botIds.map((id) => sql`${id}::bigint`))})`.execute(db);
}
