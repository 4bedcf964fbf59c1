import { createHash, randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { Secret, TOTP } from 'otpauth';
import type { Db } from '../../db/connect.ts';
import type { SecretBox } from '../../security/secret-box.ts';
import { totpSealLabel } from '../../security/seal-labels.ts';
import { fail } from '../../errors.ts';
import type { LoginLimiter } from '../login-limiter.ts';
import { userById } from '../users.ts';
import { lockForChange, noticeOfChange } from './lock.ts';
import { trySecret, type SessionRef } from './session-tries.ts';

/**
 * Time-based two-factor authentication (RFC 6238): 6 digits, 30 s, SHA-1 (what
 * every authenticator app reads), one step of clock drift either way. The secret is sealed at rest
 * like exchange secrets; each code works once (the last accepted step is kept); eight recovery codes
 * are shown once and kept as hashes. Once on, it is asked for withdrawals, exchange keys and
 * password changes; wrong codes count against the session's tries like wrong passwords.
 */
export interface TwoFactorDeps {
  db: Db;
  box: SecretBox;
  limiter: LoginLimiter;
  /** How long withdrawals wait after a change of the setting. */
  lockMs: number;
}

const ISSUER = 'QuantBot';
const PERIOD = 30;
const RECOVERY_CODES = 8;
const totpOf = (secret: Secret, label: string) => new TOTP({ issuer: ISSUER, label, secret, algorithm: 'SHA1', digits: 6, period: PERIOD });
const hashCode = (code: string) => createHash('sha256').update(code.replace(/-/g, '').toUpperCase()).digest('hex');
/** "K7Q2-MX9D": 40 bits from an alphabet without look-alikes. */
function recoveryCode(): string {
  const alphabet = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
  const bytes = randomBytes(8);
  const chars = [...bytes].map((b) => alphabet[b % alphabet.length]);
  return `${chars.slice(0, 4).join('')}-${chars.slice(4).join('')}`;
}

export const TOTP_RE = /^\d{6}$/;
export const RECOVERY_RE = /^[2-9A-HJKMNP-Za-hjkmnp-z]{4}-?[2-9A-HJKMNP-Za-hjkmnp-z]{4}$/;

/** Starts the setup: a new secret kept pending until a code from the app confirms it; answers what the app scans. */
export async function setupTwoFactor(deps: TwoFactorDeps, userId: string): Promise<{ secret: string; uri: string }> {
  const user = await userById(deps.db, userId);
  if (user.totp_sealed) throw fail('TwoFactorAlreadyEnabled');
  const secret = new Secret({ size: 20 });
  await deps.db
    .updateTable('users')
    .set({ totp_pending: deps.box.seal(secret.base32, totpSealLabel(userId)) })
    .where('id', '=', userId)
    .execute();
  const label = user.account ?? (user.address ? `${user.address.slice(0, 6)}…${user.address.slice(-4)}` : user.sn);
  return { secret: secret.base32, uri: totpOf(secret, label).toString() };
}

/** The 30-second step a code belongs to, or null when it fits none within one step of now. */
function stepOf(secretBase32: string, code: string, now: number): number | null {
  const delta = TOTP.validate({ token: code, secret: Secret.fromBase32(secretBase32), algorithm: 'SHA1', digits: 6, period: PERIOD, timestamp: now, window: 1 });
  return delta === null ? null : Math.floor(now / 1000 / PERIOD) + delta;
}

/** Confirms the pending secret with a first code: 2FA is on; answers the recovery codes (shown once). */
export async function enableTwoFactor(deps: TwoFactorDeps, session: SessionRef, code: string, now = Date.now()): Promise<{ recoveryCodes: string[] }> {
  const { userId } = session;
  const user = await userById(deps.db, userId);
  if (user.totp_sealed) throw fail('TwoFactorAlreadyEnabled');
  if (!user.totp_pending) throw fail('TwoFactorNotEnabled');
  const secret = deps.box.open(user.totp_pending, totpSealLabel(userId));
  const step = TOTP_RE.test(code) ? stepOf(secret, code, now) : null;
  if (!(await trySecret(deps, session, async () => step !== null))) throw fail('TwoFactorInvalid');
  const codes = Array.from({ length: RECOVERY_CODES }, recoveryCode);
  const done = await deps.db
    .updateTable('users')
    .set({ totp_sealed: user.totp_pending, totp_pending: null, totp_last_step: step!, recovery_hashes: JSON.stringify(codes.map(hashCode)) })
    .where('id', '=', userId)
    .where('totp_sealed', 'is', null)
    .executeTakeFirst();
  if (Number(done.numUpdatedRows) !== 1) throw fail('TwoFactorAlreadyEnabled');
  // Turning 2FA on adds a check before money leaves and opens nothing: a notice, no lock.
  await noticeOfChange(deps.db, userId, 'two_factor_on');
  return { recoveryCodes: codes };
}

/** Turns 2FA off, with a code from the app or a recovery code. */
export async function disableTwoFactor(deps: TwoFactorDeps, session: SessionRef, code: string): Promise<void> {
  const user = await userById(deps.db, session.userId);
  if (!user.totp_sealed) throw fail('TwoFactorNotEnabled');
  await requireSecondFactor(deps, session, code);
  // Only the 2FA the code was checked against is turned off: a request that turned it off meanwhile (the
  // same code sent twice at once) left nothing for this one to check, and it is refused.
  const off = await deps.db
    .updateTable('users')
    .set({ totp_sealed: null, totp_pending: null, totp_last_step: null, recovery_hashes: null })
    .where('id', '=', session.userId)
    .where('totp_sealed', '=', user.totp_sealed)
    .executeTakeFirst();
  if (Number(off.numUpdatedRows) !== 1) throw fail('TwoFactorNotEnabled');
  await lockForChange(deps.db, session.userId, 'two_factor_off', deps.lockMs);
}

/**
 * The second factor for a sensitive call: nothing when 2FA is off; otherwise a fresh code from the app
 * (each works once) or an unused recovery code (used up), else TwoFactorRequired / TwoFactorInvalid.
 * The check is one try of the session (session-tries.ts), claimed before a code is used up: a right
 * code sent through a session whose tries ran out is refused and stays unused. A right code that was
 * already used (the same code sent twice at once) answers TwoFactorInvalid without counting as a
 * wrong try: it can only work once, and guessing it right gains nothing.
 */
export async function requireSecondFactor(deps: Pick<TwoFactorDeps, 'db' | 'box' | 'limiter'>, session: SessionRef, code: string | undefined, now = Date.now()): Promise<void> {
  const { userId } = session;
  const user = await userById(deps.db, userId);
  if (!user.totp_sealed) return;
  if (!code) throw fail('TwoFactorRequired');
  const sealed = user.totp_sealed;
  let alreadyUsed = false;
  const right = await trySecret(deps, session, async () => {
    if (TOTP_RE.test(code)) {
      const step = stepOf(deps.box.open(sealed, totpSealLabel(userId)), code, now);
      if (step === null) return false;
      // A step at or before the last accepted one is a replayed code; the update settles two at once,
      // also against a request that turned 2FA off meanwhile (which clears the last step).
      const used = await deps.db
        .updateTable('users')
        .set({ totp_last_step: step })
        .where('id', '=', userId)
        .where('totp_sealed', '=', sealed)
        .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', String(step))]))
        .executeTakeFirst();
      alreadyUsed = Number(used.numUpdatedRows) !== 1;
      return true;
    }
    if (RECOVERY_RE.test(code)) {
      const hash = hashCode(code);
      const left = (user.recovery_hashes ?? []).filter((h) => h !== hash);
      if (left.length === (user.recovery_hashes ?? []).length) return false;
      const used = await deps.db
        .updateTable('users')
        .set({ recovery_hashes: JSON.stringify(left) })
        .where('id', '=', userId)
        .where(sql<boolean>`recovery_hashes @> ${JSON.stringify([hash])}::jsonb`)
        .executeTakeFirst();
      alreadyUsed = Number(used.numUpdatedRows) !== 1;
      return true;
    }
    return false;
  });
  if (!right || alreadyUsed) throw fail('TwoFactorInvalid');
}
