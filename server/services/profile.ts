import type { Profile, UserIndex } from '../../contract/account.ts';
import { profileFieldOk, type SetInfoField } from '../../contract/rules.ts';
import type { CodeName } from '../../contract/codes.ts';
import { balances } from '../ledger.ts';
import type { Db } from '../db/connect.ts';
import { sql } from 'kysely';
import { fail } from '../errors.ts';
import { publicUser, referrerSn, userById } from './users.ts';

/** The profile of a logged-in user (never a hash). */
export async function profile(db: Db, userId: string): Promise<Profile> {
  const user = await userById(db, userId);
  return {
    ...publicUser(user, await referrerSn(db, user.referrer_id)),
    email: user.email,
    loginPasswordSet: user.password_hash !== null,
    paymentPasswordSet: user.payment_hash !== null,
    createdAt: user.created_at.toISOString(),
  };
}

/** The "my" page summary; balances are exact decimal strings. */
export async function userIndex(db: Db, userId: string): Promise<UserIndex> {
  const [p, count, b] = await Promise.all([
    profile(db, userId),
    db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('referrer_id', '=', userId)
      .executeTakeFirstOrThrow(),
    balances(db, userId),
  ]);
  return { profile: p, fuel: b.fuel, points: b.points, referrals: Number(count.n) };
}

/** The code a bad value of each profile field answers with. */
export const setInfoErrors: Record<SetInfoField, CodeName> = {
  nickname: 'InvalidNickname',
  email: 'InvalidEmail',
  mobile: 'InvalidMobile',
  avatar: 'InvalidAvatar',
  referrer: 'InvalidReferralCode',
};

/** Changes one profile field after checking it; answers the new profile. */
export async function setInfo(db: Db, userId: string, field: SetInfoField, raw: string): Promise<Profile> {
  const value = raw.trim();
  if (!profileFieldOk[field](value)) throw fail(setInfoErrors[field]);
  if (field === 'referrer') return changeReferrer(db, userId, value);
  await db
    .updateTable('users')
    .set({ [field]: value })
    .where('id', '=', userId)
    .execute();
  return profile(db, userId);
}

/**
 * Sets or changes the inviter once: an existing UID, not oneself, and no cycle (the new
 * referrer must not be in the trader's own team). A second change is refused.
 *
 * Changes wait for each other (a transaction lock on one key: a trader changes it once, so they are
 * rare): the walk up the new referrer's chain then sees every other change committed. Without it, two
 * traders naming each other at once each found no cycle, or each locked their own row and waited for the
 * other's (its foreign key): `deadlock detected`. Both rows are then locked in id order, so no other
 * writer of them can deadlock with this one either.
 */
async function changeReferrer(db: Db, userId: string, sn: string): Promise<Profile> {
  return db.transaction().execute(async (tx) => {
    await sql`select pg_advisory_xact_lock(hashtextextended('referrer-change', 0))`.execute(tx);
    const me = await tx.selectFrom('users').select(['sn', 'referrer_changed']).where('id', '=', userId).executeTakeFirstOrThrow();
    if (me.referrer_changed) throw fail('ReferrerChangedOnce');
    const found = await tx.selectFrom('users').select('id').where('sn', '=', sn).executeTakeFirst();
    if (!found || String(found.id) === userId) throw fail('InvalidReferralCode');
    const locked = await tx
      .selectFrom('users')
      .select(['id', 'referrer_id'])
      .where('id', 'in', [userId, String(found.id)])
      .orderBy('id')
      .forUpdate()
      .execute();
    const target = locked.find((row) => String(row.id) === String(found.id));
    if (!target) throw fail('InvalidReferralCode');
    // Walk up from the new referrer: meeting the trader means they would refer themselves through others.
    let up = target.referrer_id ? String(target.referrer_id) : null;
    for (let depth = 0; up && depth < 1000; depth++) {
      if (up === userId) throw fail('InvalidReferralCode');
      const row = await tx.selectFrom('users').select('referrer_id').where('id', '=', up).executeTakeFirst();
      up = row?.referrer_id ? String(row.referrer_id) : null;
    }
    await tx
      .updateTable('users')
      .set({ referrer_id: String(target.id), referrer_changed: true })
      .where('id', '=', userId)
      .execute();
    return profile(tx as unknown as Db, userId);
  });
}
