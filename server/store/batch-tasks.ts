// One operation on many bots carried out in the background, and its per-bot results (batch_tasks).
import type { Selectable } from 'kysely';
import type { BatchTasksTable } from '../db/schema.ts';
import type { Executor } from './executor.ts';

export type BatchTaskRow = Selectable<BatchTasksTable>;
export type BatchResult = BatchTaskRow['results'][number];

/** A new batch task, running, with no result yet. */
export async function insertBatchTask(db: Executor, task: { id: string; userId: string; action: string; ids: readonly string[] }): Promise<void> {
  await db
    .insertInto('batch_tasks')
    .values({ id: task.id, user_id: task.userId, action: task.action, ids: JSON.stringify(task.ids), results: '[]', status: 'running' })
    .execute();
}

/** The task's results so far; done once every bot has one. */
export async function saveBatchResults(db: Executor, { id, results, done }: { id: string; results: readonly BatchResult[]; done: boolean }): Promise<void> {
  await db
    .updateTable('batch_tasks')
    .set({ results: JSON.stringify(results), status: done ? 'done' : 'running' })
    .where('id', '=', id)
    .execute();
}

/** The trader's batch task, or undefined (another's or unknown). */
export async function findOwnBatchTask(db: Executor, { id, userId }: { id: string; userId: string }): Promise<BatchTaskRow | undefined> {
  return db.selectFrom('batch_tasks').selectAll().where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
}
