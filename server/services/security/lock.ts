import type { Db } from '../../db/connect.ts';
import { fail } from '../../errors.ts';
import { leaveNotice } from '../../events/notice.ts';

/**
 * Withdrawals wait after any change of an account's security, as trusted
 * exchanges do: whoever changed a password, the two-factor setting or added an address may not be the
 * owner, and the owner gets a notice and the time to react before money can leave.
 */
export const DEFAULT_WITHDRAW_LOCK_MS = 24 * 3_600_000;

/** What changed, as the security notice names it. */
export type SecurityChange = 'login_password' | 'payment_password' | 'two_factor_on' | 'two_factor_off';

/** A security notice for the trader: new device, a change, a withdrawal. The notices screen words it. */
export async function securityNotice(db: Db, userId: string, code: string, detail: Record<string, string>): Promise<void> {
  await leaveNotice(db, userId, { kind: 'warning', code, detail });
}

/**
 * Locks the user's withdrawals for `lockMs` from now and leaves a notice of the change. The lock is kept
 * as the change's time (never moved back by an older change), its end counted with the setting in force
 * when it is read: an operator who shortens WITHDRAW_LOCK_HOURS shortens the locks already running.
 */
export async function lockForChange(db: Db, userId: string, change: SecurityChange, lockMs: number, now = new Date()): Promise<Date> {
  const row = await db
    .updateTable('users')
    .set((eb) => ({ withdraw_lock_from: eb.fn('greatest', [eb.fn.coalesce('withdraw_lock_from', eb.val(now)), eb.val(now)]) }))
    .where('id', '=', userId)
    .returning('withdraw_lock_from')
    .executeTakeFirstOrThrow();
  const until = new Date((row.withdraw_lock_from ?? now).getTime() + lockMs);
  await securityNotice(db, userId, 'security_change', { change, until: until.toISOString() });
  return until;
}

/**
 * A change that only adds protection, and so locks nothing: the first payment password (withdrawals were
 * impossible without one) and turning 2FA on (one more check before money leaves). The owner still gets
 * the notice, in case it was not them.
 */
export async function noticeOfChange(db: Db, userId: string, change: SecurityChange): Promise<void> {
  await securityNotice(db, userId, 'security_change', { change });
}

/** The end of a user's withdrawal lock (ISO time) while it lasts, else null: what the screens show. */
export function lockedUntil(user: { withdraw_lock_from: Date | null }, lockMs: number, now = new Date()): string | null {
  const until = lockEnd(user.withdraw_lock_from, lockMs);
  return until && until.getTime() > now.getTime() ? until.toISOString() : null;
}

const lockEnd = (from: Date | null, lockMs: number) => (from ? new Date(from.getTime() + lockMs) : null);

/** "2026-11-24 13:55 UTC": the end of a lock as a message shows it, the same in zh and en. */
export const untilText = (d: Date) => `${d.toISOString().slice(0, 16).replace('T', ' ')} UTC`;

/** Refuses while the user's withdrawals are locked (WithdrawalLocked, with the time they open). */
export async function checkWithdrawLock(db: Db, userId: string, lockMs: number, now = new Date()): Promise<void> {
  const row = await db.selectFrom('users').select('withdraw_lock_from').where('id', '=', userId).executeTakeFirstOrThrow();
  const until = lockEnd(row.withdraw_lock_from, lockMs);
  if (until && until.getTime() > now.getTime()) throw fail('WithdrawalLocked', { values: { until: untilText(until) } });
}

/**
 * A withdrawal address is paid only `lockMs` after the trader first asked to withdraw to it: the first
 * request records it (with a notice) and is refused with the time it becomes usable.
 */
export async function checkWithdrawAddress(db: Db, userId: string, address: string, lockMs: number, now = new Date()): Promise<void> {
  if (lockMs <= 0) return;
  const usableAt = new Date(now.getTime() + lockMs);
  const added = await db
    .insertInto('withdrawal_addresses')
    .values({ user_id: userId, address, usable_at: usableAt })
    .onConflict((oc) => oc.columns(['user_id', 'address']).doNothing())
    .returning('usable_at')
    .executeTakeFirst();
  if (added) {
    await securityNotice(db, userId, 'security_address', { address, until: usableAt.toISOString() });
    throw fail('WithdrawalLocked', { values: { until: untilText(usableAt) } });
  }
  const row = await db.selectFrom('withdrawal_addresses').select(['usable_at', 'created_at']).where('user_id', '=', userId).where('address', '=', address).executeTakeFirstOrThrow();
  // Never later than the current setting allows from when the address was recorded.
  const usable = new Date(Math.min(row.usable_at.getTime(), row.created_at.getTime() + lockMs));
  if (usable.getTime() > now.getTime()) throw fail('WithdrawalLocked', { values: { until: untilText(usable) } });
}
