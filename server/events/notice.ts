import type { Db } from '../db/connect.ts';
import { later } from './outbox.ts';

/**
 * Leaves a notice or a warning for the trader (the notices screen words it by `code`) and tells their open
 * app at once, in the caller's transaction: both are stored, or neither.
 */
export async function leaveNotice(tx: Db, userId: string, notice: { kind: 'warning' | 'notice'; code: string; detail: Record<string, string> }): Promise<string> {
  const row = await tx
    .insertInto('notices')
    .values({ user_id: userId, kind: notice.kind, code: notice.code, detail: JSON.stringify(notice.detail) })
    .returning('id')
    .executeTakeFirstOrThrow();
  const id = String(row.id);
  await later(tx, userId, { kind: 'notice', notice: id, level: notice.kind, code: notice.code, ...(notice.detail.bot ? { bot: notice.detail.bot } : {}) });
  return id;
}
