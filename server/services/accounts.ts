import { randomBytes, randomInt } from 'node:crypto';
import type { LoginData } from '../../contract/auth.ts';
import { ACCOUNT_RE, NICKNAME_MAX, PASSWORD_RE, REFERRER_RE } from '../../contract/rules.ts';
import type { Db } from '../db/connect.ts';
import { fail } from '../errors.ts';
import type { SecretBox } from '../security/secret-box.ts';
import type { ChallengeTaker, LoginLimiter } from './login-limiter.ts';
import { money } from '../../strategy/money.ts';
import { post } from '../ledger.ts';
import { hashPassword, verifyDummy, verifyPassword } from './passwords.ts';
import { openSession } from './sessions.ts';
import { publicUser, referrerSn, type UserRow } from './users.ts';
import { inTransaction } from '../events/outbox.ts';

export interface AccountsDeps {
  db: Db;
  sessionTtlMs: number;
  limiter: LoginLimiter;
  /** The proof-of-work challenges: every registration, and logins after failures (security/challenge.ts). */
  challenges: ChallengeTaker;
  /** Fuel a new account starts with (config FUEL_WELCOME); default 100. */
  welcomeFuel?: string;
  /** Shares of a fee earned per referral level (config REFERRAL_RATES), shown in the referral rules. */
  referralRates?: readonly string[];
  /** The site's origins (config PUBLIC_ORIGIN): what wallet sign-in messages name and accept. */
  publicOrigins: readonly string[];
  /** Seals two-factor secrets at rest. */
  box: SecretBox;
  /** How long withdrawals wait after a security change (WITHDRAW_LOCK_HOURS). */
  lockMs: number;
}

export const DEFAULT_WELCOME_FUEL = '100';

/** A new account's welcome fuel, posted in the transaction that creates the account. */
export async function grantWelcomeFuel(tx: Parameters<typeof post>[0], userId: string, amount = DEFAULT_WELCOME_FUEL): Promise<void> {
  if (money(amount).gt(0)) await post(tx, { userId, asset: 'fuel', amount: money(amount), reason: 'welcome' });
}

/** Whether `e` is PostgreSQL's unique violation (23505) on a constraint whose name contains `constraint`. */
export function isUniqueViolation(e: unknown, constraint: string): boolean {
  if (typeof e !== 'object' || e === null) return false;
  const err = e as { code?: string; constraint?: string; message?: string };
  return err.code === '23505' && String(err.constraint ?? err.message).includes(constraint);
}

/** A fresh 8-digit UID that does not start with 0. */
const newSn = () => String(randomInt(10_000_000, 100_000_000));

/** The id of the user whose UID is `referrer`; null for none; InvalidReferralCode when malformed or unknown. */
export async function referrerIdOf(db: Db, referrer: string | undefined): Promise<string | null> {
  const sn = referrer?.trim() ?? '';
  if (!sn) return null;
  if (!REFERRER_RE.test(sn)) throw fail('InvalidReferralCode');
  const row = await db.selectFrom('users').select('id').where('sn', '=', sn).executeTakeFirst();
  if (!row) throw fail('InvalidReferralCode');
  return row.id;
}

/**
 * Creates a user with a fresh UID and the welcome fuel, in one transaction (a password account or a
 * wallet's first login). A UID collision is retried; other unique violations (account, address) are
 * the caller's to answer.
 */
export async function createUser(
  db: Db,
  fields: { account: string | null; password_hash: string | null; nickname: string; address: string | null; referrer_id: string | null },
  welcomeFuel?: string,
): Promise<UserRow> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await inTransaction(db, async (tx) => {
        const created = await tx
          .insertInto('users')
          .values({ sn: newSn(), payment_hash: null, email: '', mobile: '', avatar: '', ...fields, nickname: fields.nickname.slice(0, NICKNAME_MAX) })
          .returningAll()
          .executeTakeFirstOrThrow();
        await grantWelcomeFuel(tx, created.id, welcomeFuel);
        return created;
      });
    } catch (e) {
      // 90 million UIDs: a collision is rare, several in a row mean something else is wrong.
      if (isUniqueViolation(e, 'sn') && attempt < 5) continue;
      throw e;
    }
  }
}

/** A new account's nickname: never its login name, which the rank and the team lists would show to others. */
export const defaultNickname = () => `trader_${randomBytes(3).toString('hex')}`;

export interface RegisterInput {
  terminal: number;
  account: string;
  password: string;
  confirm: string;
  referrer?: string | undefined;
  agreement?: boolean | undefined;
  /** A solved proof-of-work challenge (base64 ALTCHA payload): always needed. */
  challenge?: string | undefined;
}

/** Registers an account (docs/product.md §5 rules) and logs it in on the given terminal. */
export async function register(deps: AccountsDeps, input: RegisterInput): Promise<LoginData> {
  const { db } = deps;
  const account = input.account.trim();
  if (!ACCOUNT_RE.test(account)) throw fail('AccountFormat');
  if (!PASSWORD_RE.test(input.password)) throw fail('PasswordFormat');
  if (input.password !== input.confirm) throw fail('PasswordsMismatch');
  if (input.agreement === false) throw fail('AgreementRequired');
  // Every registration pays a proof of work, before any database work or hashing.
  await deps.challenges.use(input.challenge);
  const referrerId = await referrerIdOf(db, input.referrer);
  // A cheap early answer; the unique index below is what settles a race between two registrations.
  const taken = await db.selectFrom('users').select('id').where('account', '=', account).executeTakeFirst();
  if (taken) throw fail('RegAccountExists');
  const passwordHash = await hashPassword(input.password);
  let user: UserRow;
  try {
    user = await createUser(db, { account, password_hash: passwordHash, nickname: defaultNickname(), address: null, referrer_id: referrerId }, deps.welcomeFuel);
  } catch (e) {
    if (isUniqueViolation(e, 'account')) throw fail('RegAccountExists');
    throw e;
  }
  const token = await openSession(db, user.id, input.terminal, deps.sessionTtlMs);
  return { token, ...publicUser(user, referrerId ? input.referrer!.trim() : '') };
}

export interface LoginInput {
  terminal: number;
  account: string;
  password: string;
  /** A solved proof-of-work challenge, needed after failures (answered ChallengeRequired until it comes). */
  challenge?: string | undefined;
}

/**
 * Logs in by account and password. After failures of this account from this source the next try waits
 * (RateLimited, 1, 2, 4 ... 60 s) and, after a few, needs a solved challenge (ChallengeRequired); never a
 * lock (services/login-limiter.ts). Unknown account and wrong password look alike, in answer and timing.
 */
export async function login(deps: AccountsDeps, input: LoginInput, ip: string): Promise<LoginData> {
  const { db, limiter } = deps;
  const account = input.account.trim();
  const key = account.toLowerCase();
  // Counts this try as a failure until the password proves right.
  await limiter.beginLogin(key, ip, input.challenge, deps.challenges);
  const user = await db.selectFrom('users').selectAll().where('account', '=', account).executeTakeFirst();
  if (!user?.password_hash) {
    // Same work as a real check, so an unknown account cannot be told apart by timing.
    await verifyDummy(input.password);
    throw fail('InvalidCredentials');
  }
  if (!(await verifyPassword(user.password_hash, input.password))) throw fail('InvalidCredentials');
  await limiter.loginSucceeded(key, ip);
  // Only someone who knows the password learns that the account is disabled.
  if (user.disabled) throw fail('AccountDisabled');
  const token = await openSession(db, user.id, input.terminal, deps.sessionTtlMs);
  return { token, ...publicUser(user, await referrerSn(db, user.referrer_id)) };
}
