import { sql } from 'kysely';
import type { LiveEvent, LiveKind, StreamedEvent } from '../../contract/live.ts';
import { STREAM_REPLAY_MAX, STREAM_REPLAY_MS } from '../../contract/live.ts';
import type { Db } from '../db/connect.ts';
import { EVENT_CHANNEL, notify } from '../cluster/notify.ts';

/**
 * The live events of each user, numbered 1, 2, 3... in the transaction that makes them.
 *
 * `emit` locks the user's head row, so two transactions of one user get their numbers in the order they
 * commit: a stream that has sent number n and reads `seq > n` after a notification can never skip an
 * event committed later with a smaller number (a global sequence would allow exactly that). The lock is
 * held from the emit to the commit, so it is taken last: through the outbox (outbox.ts), which writes a
 * transaction's events just before it commits, each user's in the order of their ids.
 *
 * The notification goes out only if the transaction commits, to every process (PostgreSQL NOTIFY, or
 * PGlite's own), where the open streams of the user read the new rows.
 */
export async function emit(tx: Db, userId: string, events: readonly LiveEvent[]): Promise<void> {
  if (events.length === 0) return;
  const { rows } = await sql<{ seq: string }>`
    insert into user_event_heads (user_id, seq) values (${userId}, ${events.length})
    on conflict (user_id) do update set seq = user_event_heads.seq + ${events.length}
    returning seq`.execute(tx);
  const last = BigInt(rows[0]!.seq);
  const first = last - BigInt(events.length) + 1n;
  await tx
    .insertInto('user_events')
    .values(
      events.map((event, i) => {
        const { kind, ...data } = event;
        return { user_id: userId, seq: String(first + BigInt(i)), kind, data: JSON.stringify(data) };
      }),
    )
    .execute();
  await notify(tx, EVENT_CHANNEL, String(userId));
}

/** The user's last event number ('0' before the first). */
export async function headOf(db: Db, userId: string): Promise<string> {
  const row = await db.selectFrom('user_event_heads').select('seq').where('user_id', '=', userId).executeTakeFirst();
  return row?.seq ?? '0';
}

const streamed = (r: { seq: string; kind: string; data: unknown; created_at: Date }): StreamedEvent =>
  ({ ...(r.data as object), kind: r.kind as LiveKind, id: String(r.seq), at: r.created_at.toISOString() }) as StreamedEvent;

/** The user's events after number `after`, oldest first, at most `limit`, none older than the replay window. */
export async function eventsAfter(db: Db, userId: string, after: string, limit = STREAM_REPLAY_MAX, now = new Date()): Promise<StreamedEvent[]> {
  const rows = await db
    .selectFrom('user_events')
    .select(['seq', 'kind', 'data', 'created_at'])
    .where('user_id', '=', userId)
    .where('seq', '>', after)
    .where('created_at', '>', new Date(now.getTime() - STREAM_REPLAY_MS))
    .orderBy('seq')
    .limit(limit)
    .execute();
  return rows.map(streamed);
}

/**
 * What a reconnect that last saw `after` is sent: the events it missed, or a reset (resume from the
 * head, every screen loads again) when they cannot all be given: some are past the window, there are
 * more than STREAM_REPLAY_MAX, or `after` is beyond the head (an id from another database or user).
 */
export async function replayFrom(db: Db, userId: string, after: string, now = new Date()): Promise<{ events: StreamedEvent[] } | { reset: string }> {
  const head = await headOf(db, userId);
  if (BigInt(after) === BigInt(head)) return { events: [] };
  if (BigInt(after) > BigInt(head)) return { reset: head };
  const events = await eventsAfter(db, userId, after, STREAM_REPLAY_MAX + 1, now);
  if (events.length > STREAM_REPLAY_MAX || events[0]?.id !== String(BigInt(after) + 1n)) return { reset: head };
  return { events };
}

/** Deletes the events past the replay window (and an hour's margin): nobody can be replayed them. */
export async function pruneEvents(db: Db, now = new Date()): Promise<number> {
  const result = await db
    .deleteFrom('user_events')
    .where('created_at', '<', new Date(now.getTime() - STREAM_REPLAY_MS - 3_600_000))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
