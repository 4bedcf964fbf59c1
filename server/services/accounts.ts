import { randomInt } from 'node:crypto';
import type { LoginData, Profile, PublicUser, UserIndex } from '../../contract/schemas.ts';
import {
  ACCOUNT_RE, AVATAR_MAX, EMAIL_RE, MOBILE_RE, NICKNAME_MAX, PASSWORD_RE, PAYMENT_PASSWORD_RE, REFERRER_RE,
  type PasswordType, type SetInfoField,
} from '../../contract/rules.ts';
import type { Db } from '../db/connect.ts';
import type { Selectable } from 'kysely';
import type { UsersTable } from '../db/schema.ts';
import { fail } from './errors.ts';
import { hashPassword, verifyDummy, verifyPassword } from './passwords.ts';
import { openSession, revokeOtherSessions } from './sessions.ts';
import type { LoginLimiter } from './login-limiter.ts';

type UserRow = Selectable<UsersTable>;

export interface AccountsDeps {
  db: Db;
  sessionTtlMs: number;
  limiter: LoginLimiter;
}

const isUniqueViolation = (e: unknown, constraint: string) =>
  typeof e === 'object' && e !== null && (e as { code?: string }).code === '23505' &&
  String((e as { constraint?: string; message?: string }).constraint ?? (e as { message?: string }).message).includes(constraint);

/** A fresh 8-digit UID that does not start with 0. */
const newSn = () => String(randomInt(10_000_000, 100_000_000));

async function referrerSn(db: Db, referrerId: string | null): Promise<string> {
  if (!referrerId) return '';
  const row = await db.selectFrom('users').select('sn').where('id', '=', referrerId).executeTakeFirst();
  return row?.sn ?? '';
}

function publicUser(u: UserRow, referral: string): PublicUser {
  return { sn: u.sn, nickname: u.nickname, account: u.account ?? '', mobile: u.mobile, address: u.address ?? '', avatar: u.avatar, referral };
}

export interface RegisterInput {
  terminal: number;
  account: string;
  password: string;
  confirm: string;
  referrer?: string | undefined;
  agreement?: boolean | undefined;
}

/** Registers an account (spec §5 rules) and logs it in on the given terminal. */
export async function register(deps: AccountsDeps, input: RegisterInput): Promise<LoginData> {
  const { db } = deps;
  const account = input.account.trim();
  if (!ACCOUNT_RE.test(account)) throw fail('AccountFormat');
  if (!PASSWORD_RE.test(input.password)) throw fail('PasswordFormat');
  if (input.password !== input.confirm) throw fail('PasswordsMismatch');
  if (input.agreement === false) throw fail('AgreementRequired');
  let referrerId: string | null = null;
  const referrer = input.referrer?.trim() ?? '';
  if (referrer) {
    if (!REFERRER_RE.test(referrer)) throw fail('InvalidReferralCode');
    const row = await db.selectFrom('users').select('id').where('sn', '=', referrer).executeTakeFirst();
    if (!row) throw fail('InvalidReferralCode');
    referrerId = row.id;
  }
  const taken = await db.selectFrom('users').select('id').where('account', '=', account).executeTakeFirst();
  if (taken) throw fail('RegAccountExists');
  const passwordHash = await hashPassword(input.password);
  for (let attempt = 0; ; attempt++) {
    try {
      const user = await db
        .insertInto('users')
        .values({ sn: newSn(), account, password_hash: passwordHash, payment_hash: null, nickname: account.slice(0, NICKNAME_MAX), email: '', mobile: '', address: null, avatar: '', referrer_id: referrerId })
        .returningAll()
        .executeTakeFirstOrThrow();
      const token = await openSession(db, user.id, input.terminal, deps.sessionTtlMs);
      return { token, ...publicUser(user, referrerId ? referrer : '') };
    } catch (e) {
      // The unique index, not the pre-check, is what settles a race between two registrations.
      if (isUniqueViolation(e, 'account')) throw fail('RegAccountExists');
      if (isUniqueViolation(e, 'sn') && attempt < 5) continue;
      throw e;
    }
  }
}

/** Logs in by account and password, within the attempt limits; unknown account and wrong password look alike. */
export async function login(deps: AccountsDeps, input: { terminal: number; account: string; password: string }, ip: string): Promise<LoginData> {
  const { db, limiter } = deps;
  const account = input.account.trim();
  const key = account.toLowerCase();
  const verdict = limiter.check(key, ip);
  if (!verdict.ok) throw fail(verdict.reason === 'account' ? 'AccountLocked' : 'TooManyAttempts', { minutes: verdict.minutes });
  const user = await db.selectFrom('users').selectAll().where('account', '=', account).executeTakeFirst();
  if (!user?.password_hash) {
    await verifyDummy(input.password);
    limiter.fail(key, ip);
    throw fail('InvalidCredentials');
  }
  if (!(await verifyPassword(user.password_hash, input.password))) {
    limiter.fail(key, ip);
    throw fail('InvalidCredentials');
  }
  if (user.disabled) throw fail('AccountLocked', { minutes: 0 });
  limiter.succeed(key, ip);
  const token = await openSession(db, user.id, input.terminal, deps.sessionTtlMs);
  return { token, ...publicUser(user, await referrerSn(db, user.referrer_id)) };
}

async function userById(db: Db, userId: string): Promise<UserRow> {
  const user = await db.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirst();
  if (!user) throw fail('SessionRevoked');
  return user;
}

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

/** The "my" page summary. Balances arrive with the assets issue; they are exact decimal strings. */
export async function userIndex(db: Db, userId: string): Promise<UserIndex> {
  const [p, count] = await Promise.all([
    profile(db, userId),
    db.selectFrom('users').select((eb) => eb.fn.countAll<string>().as('n')).where('referrer_id', '=', userId).executeTakeFirstOrThrow(),
  ]);
  return { profile: p, fuel: '0', points: '0', referrals: Number(count.n) };
}

const fieldRules: Record<SetInfoField, { ok: (v: string) => boolean; error: Parameters<typeof fail>[0] }> = {
  nickname: { ok: (v) => v.length >= 1 && v.length <= NICKNAME_MAX, error: 'InvalidNickname' },
  email: { ok: (v) => v === '' || EMAIL_RE.test(v), error: 'InvalidEmail' },
  mobile: { ok: (v) => v === '' || MOBILE_RE.test(v), error: 'InvalidMobile' },
  avatar: { ok: (v) => v === '' || (v.length <= AVATAR_MAX && /^(https:\/\/\S+|\/\S*)$/.test(v)), error: 'InvalidAvatar' },
};

/** Changes one profile field after checking it; answers the new profile. */
export async function setInfo(db: Db, userId: string, field: SetInfoField, raw: string): Promise<Profile> {
  const value = raw.trim();
  const rule = fieldRules[field];
  if (!rule.ok(value)) throw fail(rule.error);
  await db.updateTable('users').set({ [field]: value }).where('id', '=', userId).execute();
  return profile(db, userId);
}

export interface PasswordInput {
  type: PasswordType;
  old?: string | undefined;
  password: string;
  confirm: string;
}

/**
 * Changes the login password (the current one required; other sessions end), or sets / changes the
 * payment password (the current payment password, or on first setting the login password, required).
 */
export async function changePassword(deps: AccountsDeps, userId: string, sessionId: string, input: PasswordInput): Promise<void> {
  const { db } = deps;
  const user = await userById(db, userId);
  const old = input.old ?? '';
  if (input.type === 'login') {
    if (!PASSWORD_RE.test(input.password)) throw fail('PasswordFormat');
    if (input.password !== input.confirm) throw fail('PasswordsMismatch');
    if (user.password_hash && !(await verifyPassword(user.password_hash, old))) throw fail('IncorrectPassword');
    await db.updateTable('users').set({ password_hash: await hashPassword(input.password) }).where('id', '=', userId).execute();
    await revokeOtherSessions(db, userId, sessionId);
    return;
  }
  if (!PAYMENT_PASSWORD_RE.test(input.password)) throw fail('PaymentPasswordFormat');
  if (input.password !== input.confirm) throw fail('PaymentPasswordMismatch');
  const guard = user.payment_hash ?? user.password_hash;
  if (guard && !(await verifyPassword(guard, old))) throw fail('IncorrectPassword');
  await db.updateTable('users').set({ payment_hash: await hashPassword(input.password) }).where('id', '=', userId).execute();
}
