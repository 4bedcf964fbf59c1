import { PASSWORD_RE, PAYMENT_PASSWORD_RE, type PasswordType } from '../../contract/rules.ts';
import type { Db } from '../db/connect.ts';
import { fail } from './errors.ts';
import type { LoginLimiter } from './login-limiter.ts';
import { hashPassword, verifyPassword } from './passwords.ts';
import { revokeOtherSessions } from './sessions.ts';
import { userById } from './users.ts';

export interface PasswordInput {
  type: PasswordType;
  old?: string | undefined;
  password: string;
  confirm: string;
}

/**
 * Changes the login password (the current one required; the user's other sessions end), or sets /
 * changes the payment password (the current payment password required; when setting it the first
 * time, the login password, if the account has one).
 */
export async function changePassword(deps: { db: Db; limiter: LoginLimiter }, session: { userId: string; sessionId: string }, input: PasswordInput, ip: string): Promise<void> {
  const { db, limiter } = deps;
  const { userId, sessionId } = session;
  const user = await userById(db, userId);
  const old = input.old ?? '';
  // A stolen token must not turn this call into a password oracle: wrong old passwords count against
  // the same limits as failed logins (the payment password, 6 digits, under a key of its own).
  const checkOld = async (hashed: string, key: string) => {
    const verdict = limiter.check(key, ip);
    if (!verdict.ok) throw fail('TooManyAttempts', { values: { minutes: verdict.minutes } });
    if (await verifyPassword(hashed, old)) return;
    limiter.fail(key, ip);
    throw fail('IncorrectPassword');
  };
  const loginKey = (user.account ?? `#${user.id}`).toLowerCase();
  if (input.type === 'login') {
    if (!PASSWORD_RE.test(input.password)) throw fail('PasswordFormat');
    if (input.password !== input.confirm) throw fail('PasswordsMismatch');
    if (user.password_hash) await checkOld(user.password_hash, loginKey);
    await db.updateTable('users').set({ password_hash: await hashPassword(input.password) }).where('id', '=', userId).execute();
    // Whoever else held a session may be the reason for the change.
    await revokeOtherSessions(db, userId, sessionId);
    return;
  }
  if (!PAYMENT_PASSWORD_RE.test(input.password)) throw fail('PaymentPasswordFormat');
  if (input.password !== input.confirm) throw fail('PaymentPasswordMismatch');
  if (user.payment_hash) await checkOld(user.payment_hash, `pay:#${user.id}`);
  else if (user.password_hash) await checkOld(user.password_hash, loginKey);
  await db.updateTable('users').set({ payment_hash: await hashPassword(input.password) }).where('id', '=', userId).execute();
}

/**
 * Checks the payment password before money moves (withdrawals, changes): PaymentPasswordNotSet when
 * there is none, IncorrectPassword when wrong, and the failed-login limits against guessing 6 digits.
 */
export async function checkPaymentPassword(deps: { db: Db; limiter: LoginLimiter }, userId: string, password: string, ip: string): Promise<void> {
  const user = await userById(deps.db, userId);
  if (!user.payment_hash) throw fail('PaymentPasswordNotSet');
  const key = `pay:#${user.id}`;
  const verdict = deps.limiter.check(key, ip);
  if (!verdict.ok) throw fail('TooManyAttempts', { values: { minutes: verdict.minutes } });
  if (await verifyPassword(user.payment_hash, password)) return;
  deps.limiter.fail(key, ip);
  throw fail('IncorrectPassword');
}
