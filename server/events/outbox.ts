import type { LiveEvent } from '../../contract/live.ts';
import type { Transaction } from 'kysely';
import type { Db } from '../db/connect.ts';
import type { Database } from '../db/schema.ts';
import { emit } from './log.ts';

/**
 * Events gathered during a transaction and written at its end.
 *
 * Writing an event locks the user's head row until the commit (log.ts). Taken in the middle of a
 * transaction, that lock would be held while the rest locks other rows: a decision that pays the last
 * fuel pauses the user's other bots (their rows), while one of those bots, mid-decision, holds its row
 * and waits for the head. Written last, the head is the last lock every transaction takes, and none
 * waits on another for it while holding something the other needs.
 */
const outboxes = new WeakMap<object, Map<string, LiveEvent[]>>();

/** Runs `work` in a transaction whose events (`later`) are written just before it commits. */
export async function inTransaction<T>(db: Db, work: (tx: Transaction<Database>) => Promise<T>): Promise<T> {
  return db.transaction().execute(async (tx) => {
    const box = new Map<string, LiveEvent[]>();
    outboxes.set(tx, box);
    const result = await work(tx);
    // Heads in one order (by user id) in every transaction: two that write for the same users never wait on each other.
    const users = [...box.keys()].sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : BigInt(a) > BigInt(b) ? 1 : 0));
    for (const userId of users) await emit(tx, userId, box.get(userId)!);
    return result;
  });
}

/**
 * Adds an event to the transaction's outbox; outside `inTransaction` (a single statement on its own, or a
 * caller's plain transaction) it is written at once.
 */
export async function later(tx: Db, userId: string, ...events: LiveEvent[]): Promise<void> {
  const box = outboxes.get(tx);
  if (!box) return emit(tx, userId, events);
  const list = box.get(userId);
  if (list) list.push(...events);
  else box.set(userId, [...events]);
}
