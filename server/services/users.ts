import type { Selectable } from 'kysely';
import type { PublicUser } from '../../contract/auth.ts';
import type { Db } from '../db/connect.ts';
import type { UsersTable } from '../db/schema.ts';
import { fail } from '../errors.ts';

export type UserRow = Selectable<UsersTable>;

/** The user of a live session; a user gone since the session was checked ends the session. */
export async function userById(db: Db, userId: string): Promise<UserRow> {
  const user = await db.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirst();
  if (!user) throw fail('SessionRevoked');
  return user;
}

/** The sn of the user's referrer, '' when none. */
export async function referrerSn(db: Db, referrerId: string | null): Promise<string> {
  if (!referrerId) return '';
  const row = await db.selectFrom('users').select('sn').where('id', '=', referrerId).executeTakeFirst();
  return row?.sn ?? '';
}

/** What the client may see of a user (docs/product.md §3): never a hash, never the internal id. */
export function publicUser(u: UserRow, referral: string): PublicUser {
  return { sn: u.sn, nickname: u.nickname, account: u.account ?? '', mobile: u.mobile, address: u.address ?? '', avatar: u.avatar, referral };
}
