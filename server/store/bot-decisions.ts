// The writes of one engine decision on its bot's row, in the transaction commitDecision opens: the status
// fence's lock, the new state and realised profit, and the pause of a user's live bots once their fuel ran out.
import type { Executor } from './executor.ts';

/** Locks the bot's row for the caller's transaction and answers its status and deletion (the status fence of a decision). */
export async function lockBotStatus(db: Executor, { id }: { id: string }) {
  return db.selectFrom('bots').select(['status', 'deleted_at']).where('id', '=', id).forUpdate().executeTakeFirst();
}

/** The bot's name, if it exists. */
export async function botName(db: Executor, { id }: { id: string }): Promise<string | undefined> {
  return (await db.selectFrom('bots').select('name').where('id', '=', id).executeTakeFirst())?.name;
}

/** Stores a decision's outcome on the bot: its encoded state, its realised profit, and a pause with its reason when there is one. */
export async function saveDecidedState(db: Executor, { id, state, realized, pause }: { id: string; state: unknown; realized: string; pause: string | null }): Promise<void> {
  await db
    .updateTable('bots')
    .set({
      state: JSON.stringify(state),
      realized,
      updated_at: new Date(),
      ...(pause !== null ? { status: 'paused' as const, error: pause } : {}),
    })
    .where('id', '=', id)
    .execute();
}

/** Pauses every running live bot (not deleted) of the user, with the error 'fuel'. Answers their ids. */
export async function pauseLiveBotsForFuel(db: Executor, { userId, simulatedIds }: { userId: string; simulatedIds: readonly number[] }): Promise<string[]> {
  const paused = await db
    .updateTable('bots')
    .set({ status: 'paused', error: 'fuel', updated_at: new Date() })
    .where('user_id', '=', userId)
    .where('status', '=', 'running')
    .where('deleted_at', 'is', null)
    .where('exchange_id', 'not in', simulatedIds)
    .returning('id')
    .execute();
  return paused.map((r) => String(r.id));
}

/** Pauses a running bot (not deleted) with a reason, outside a decision (an order the venue lost). Answers whether it was running. */
export async function pauseRunningBot(db: Executor, { id, reason }: { id: string; reason: string }): Promise<boolean> {
  const rows = await db
    .updateTable('bots')
    .set({ status: 'paused', error: reason, updated_at: new Date() })
    .where('id', '=', id)
    .where('status', '=', 'running')
    .where('deleted_at', 'is', null)
    .returning('id')
    .execute();
  return rows.length > 0;
}

/**
 * What a reconciliation round found of bots: in agreement (`problem` null: checked now), or a problem,
 * which leaves the time of the last agreement as it was.
 */
export async function markSynced(db: Executor, { ids, problem, at }: { ids: readonly string[]; problem: string | null; at: Date }): Promise<void> {
  if (ids.length === 0) return;
  await db
    .updateTable('bots')
    .set(problem === null ? { synced_at: at, sync_problem: null } : { sync_problem: problem })
    .where('id', 'in', ids)
    .execute();
}
