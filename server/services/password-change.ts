import { PASSWORD_RE, PAYMENT_PASSWORD_RE, type PasswordType } from '../../contract/rules.ts';
import type { Db } from '../db/connect.ts';
import { fail } from '../errors.ts';
import type { LoginLimiter } from './login-limiter.ts';
import { hashPassword, verifyPassword } from './passwords.ts';
import { revokeOtherSessions } from './sessions.ts';
import { userById } from './users.ts';
import type { SecretBox } from '../security/secret-box.ts';
import { lockForChange, noticeOfChange } from './security/lock.ts';
import { requireSecondFactor } from './security/two-factor.ts';
import { spendSignature, type Site } from './wallet.ts';
import { trySecret, type SessionRef, type TriesDeps } from './security/session-tries.ts';

export interface PasswordInput {
  type: PasswordType;
  old?: string | undefined;
  password: string;
  confirm: string;
  /** A wallet-only account's proof: its wallet's signature of the userPaymentNonce statement. */
  signature?: string | undefined;
  otp?: string | undefined;
}

export interface PasswordDeps {
  db: Db;
  limiter: LoginLimiter;
  box: SecretBox;
  /** How long withdrawals wait after a password change (WITHDRAW_LOCK_HOURS). */
  lockMs: number;
}

/**
 * Changes the login password (the current one required; the user's other sessions end), or sets /
 * changes the payment password (the current payment password required; when setting it the first
 * time, the login password, if the account has one). A wallet-only account has neither: it sets or
 * resets its payment password with a fresh signature of its bound wallet, so a stolen session token
 * alone can never set one. With two-factor authentication on, a code is needed
 * too. Any change locks withdrawals for a while and leaves a security notice.
 */
export async function changePassword(deps: PasswordDeps, session: SessionRef, input: PasswordInput, site: Site): Promise<void> {
  const { db } = deps;
  const { userId, sessionId } = session;
  const user = await userById(db, userId);
  const old = input.old ?? '';
  // A stolen token must not turn this call into a password oracle: a wrong old password is a wrong
  // try of this session, which ends after a few (session-tries.ts); the owner's other sessions keep theirs.
  const checkOld = async (hashed: string) => {
    if (!(await trySecret(deps, session, () => verifyPassword(hashed, old)))) throw fail('IncorrectPassword');
  };
  if (input.type === 'login') {
    if (!PASSWORD_RE.test(input.password)) throw fail('PasswordFormat');
    if (input.password !== input.confirm) throw fail('PasswordsMismatch');
    if (user.password_hash) await checkOld(user.password_hash);
    else if (user.address) await walletProof(db, user, input.signature, site);
    await requireSecondFactor(deps, session, input.otp);
    await db
      .updateTable('users')
      .set({ password_hash: await hashPassword(input.password) })
      .where('id', '=', userId)
      .execute();
    // Whoever else held a session may be the reason for the change.
    await revokeOtherSessions(db, userId, sessionId);
    await lockForChange(db, userId, 'login_password', deps.lockMs);
    return;
  }
  if (!PAYMENT_PASSWORD_RE.test(input.password)) throw fail('PaymentPasswordFormat');
  if (input.password !== input.confirm) throw fail('PaymentPasswordMismatch');
  if (!user.password_hash && user.address) {
    // A wallet-only account: the bound wallet's signature, whether setting or resetting.
    await walletProof(db, user, input.signature, site);
  } else if (user.payment_hash) await checkOld(user.payment_hash);
  else if (user.password_hash) await checkOld(user.password_hash);
  await requireSecondFactor(deps, session, input.otp);
  await db
    .updateTable('users')
    .set({ payment_hash: await hashPassword(input.password) })
    .where('id', '=', userId)
    .execute();
  // The first payment password only opens withdrawals (none were possible without it): nothing to lock.
  if (user.payment_hash) await lockForChange(db, userId, 'payment_password', deps.lockMs);
  else await noticeOfChange(db, userId, 'payment_password');
}

/** A wallet-only account's proof: the bound wallet signed this site's payment statement (single use, 5 minutes). */
async function walletProof(db: Db, user: { address: string | null }, signature: string | undefined, site: Site): Promise<void> {
  if (!signature || !user.address) throw fail('WalletProofRequired');
  await spendSignature(db, { address: user.address, signature }, site, new Date(), 'payment');
}

/**
 * Checks the payment password before money moves (withdrawals, changes): PaymentPasswordNotSet when
 * there is none, IncorrectPassword when wrong; each check is a try of the session (session-tries.ts),
 * so 6 digits cannot be guessed through it.
 */
export async function checkPaymentPassword(deps: TriesDeps, session: SessionRef, password: string): Promise<void> {
  const user = await userById(deps.db, session.userId);
  const hashed = user.payment_hash;
  if (!hashed) throw fail('PaymentPasswordNotSet');
  if (!(await trySecret(deps, session, () => verifyPassword(hashed, password)))) throw fail('IncorrectPassword');
}
