import type { Page } from '../../contract/envelope.ts';
import type { Notice } from '../../contract/notices.ts';
import type { Db } from '../db/connect.ts';
import { fail } from '../errors.ts';

/**
 * Notices and warnings: the engine and the services leave them (fuel ran out, a bot
 * paused by a refused order); the trader lists, reads and marks them read.
 */
type Row = { id: string; kind: 'warning' | 'notice'; code: string; detail: Record<string, string>; read_at: Date | null; created_at: Date };
const notice = (r: Row): Notice => ({ id: String(r.id), kind: r.kind, code: r.code, detail: r.detail, read: r.read_at !== null, createdAt: r.created_at.toISOString() });

/** Unread notices of the user; of one kind when given (the warnings screen counts its own). */
async function unreadOf(db: Db, userId: string, kind?: Notice['kind']): Promise<number> {
  let q = db
    .selectFrom('notices')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('user_id', '=', userId)
    .where('read_at', 'is', null);
  if (kind) q = q.where('kind', '=', kind);
  const row = await q.executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function listNotices(db: Db, userId: string, kind: Notice['kind'] | undefined, page: number, pageSize: number): Promise<Page<Notice> & { unread: number }> {
  let list = db.selectFrom('notices').selectAll().where('user_id', '=', userId);
  let count = db
    .selectFrom('notices')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('user_id', '=', userId);
  if (kind) {
    list = list.where('kind', '=', kind);
    count = count.where('kind', '=', kind);
  }
  const [rows, total, unread] = await Promise.all([
    list
      .orderBy('id', 'desc')
      .limit(pageSize)
      .offset((page - 1) * pageSize)
      .execute(),
    count.executeTakeFirstOrThrow(),
    unreadOf(db, userId, kind),
  ]);
  return { list: rows.map(notice), total: Number(total.n), page, page_size: pageSize, unread };
}

/** One notice; reading it marks it read. */
export async function noticeDetail(db: Db, userId: string, id: string): Promise<Notice> {
  const row = await db.updateTable('notices').set({ read_at: new Date() }).where('id', '=', id).where('user_id', '=', userId).where('read_at', 'is', null).returningAll().executeTakeFirst();
  const found = row ?? (await db.selectFrom('notices').selectAll().where('id', '=', id).where('user_id', '=', userId).executeTakeFirst());
  if (!found) throw fail('NotFound');
  return notice(found);
}

/** Marks one notice, or all of them, read; answers how many stay unread. */
export async function readNotices(db: Db, userId: string, target: { id?: string | undefined; all?: boolean | undefined }): Promise<{ unread: number }> {
  if (!target.id && !target.all) throw fail('RequiredFieldMissing');
  let q = db.updateTable('notices').set({ read_at: new Date() }).where('user_id', '=', userId).where('read_at', 'is', null);
  if (target.id && !target.all) q = q.where('id', '=', target.id);
  await q.execute();
  return { unread: await unreadOf(db, userId) };
}
