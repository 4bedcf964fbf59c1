import { createHash, randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { Secret, TOTP } from 'otpauth';
import type { Db } from '../../db/connect.ts';
import type { SecretBox } from '../../security/secret-box.ts';
import { totpSealLabel } from '../../security/seal-labels.ts';
import { fail } from '../errors.ts';
import type { LoginLimiter } from '../login-limiter.ts';
import { userById } from '../users.ts';
import { lockForChange } from './lock.ts';

/**
 * Time-based two-factor authentication (RFC 6238, issue 12 finding 3): 6 digits, 30 s, SHA-1 (what
 * every authenticator app reads), one step of clock drift either way. The secret is sealed at rest
 * like exchange secrets; each code works once (the last accepted step is kept); eight recovery codes
 * are shown once and kept as hashes. Once on, it is asked for withdrawals, exchange keys and
 * password changes; wrong codes count against the same limits as wrong passwords.
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
export async function enableTwoFactor(deps: TwoFactorDeps, userId: string, code: string, ip: string, now = Date.now()): Promise<{ recoveryCodes: string[] }> {
  const user = await userById(deps.db, userId);
  if (user.totp_sealed) throw fail('TwoFactorAlreadyEnabled');
  if (!user.totp_pending) throw fail('TwoFactorNotEnabled');
  const secret = deps.box.open(user.totp_pending, totpSealLabel(userId));
  const step = TOTP_RE.test(code) ? stepOf(secret, code, now) : null;
  await guarded(deps, userId, ip, step !== null);
  const codes = Array.from({ length: RECOVERY_CODES }, recoveryCode);
  const done = await deps.db
    .updateTable('users')
    .set({ totp_sealed: user.totp_pending, totp_pending: null, totp_last_step: step!, recovery_hashes: JSON.stringify(codes.map(hashCode)) })
    .where('id', '=', userId)
    .where('totp_sealed', 'is', null)
    .executeTakeFirst();
  if (Number(done.numUpdatedRows) !== 1) throw fail('TwoFactorAlreadyEnabled');
  await lockForChange(deps.db, userId, 'two_factor_on', deps.lockMs);
  return { recoveryCodes: codes };
}

/** Turns 2FA off, with a code from the app or a recovery code. */
export async function disableTwoFactor(deps: TwoFactorDeps, userId: string, code: string, ip: string): Promise<void> {
  const user = await userById(deps.db, userId);
  if (!user.totp_sealed) throw fail('TwoFactorNotEnabled');
  await requireSecondFactor(deps, userId, code, ip);
  await deps.db.updateTable('users').set({ totp_sealed: null, totp_pending: null, totp_last_step: null, recovery_hashes: null }).where('id', '=', userId).execute();
  await lockForChange(deps.db, userId, 'two_factor_off', deps.lockMs);
}

/**
 * The second factor for a sensitive call: nothing when 2FA is off; otherwise a fresh code from the app
 * (each works once) or an unused recovery code (used up), else TwoFactorRequired / TwoFactorInvalid.
 */
export async function requireSecondFactor(deps: Pick<TwoFactorDeps, 'db' | 'box' | 'limiter'>, userId: string, code: string | undefined, ip: string, now = Date.now()): Promise<void> {
  const user = await userById(deps.db, userId);
  if (!user.totp_sealed) return;
  if (!code) throw fail('TwoFactorRequired');
  if (TOTP_RE.test(code)) {
    const step = stepOf(deps.box.open(user.totp_sealed, totpSealLabel(userId)), code, now);
    // A step at or before the last accepted one is a replayed code; the update settles two at once.
    const used =
      step === null
        ? undefined
        : await deps.db
            .updateTable('users')
            .set({ totp_last_step: step })
            .where('id', '=', userId)
            .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', String(step))]))
            .executeTakeFirst();
    return guarded(deps, userId, ip, Number(used?.numUpdatedRows ?? 0) === 1);
  }
  if (RECOVERY_RE.test(code)) {
    const hash = hashCode(code);
    const left = (user.recovery_hashes ?? []).filter((h) => h !== hash);
    const ok = left.length < (user.recovery_hashes ?? []).length;
    const used = ok
      ? await deps.db
          .updateTable('users')
          .set({ recovery_hashes: JSON.stringify(left) })
          .where('id', '=', userId)
          .where(sql<boolean>`recovery_hashes @> ${JSON.stringify([hash])}::jsonb`)
          .executeTakeFirst()
      : undefined;
    return guarded(deps, userId, ip, Number(used?.numUpdatedRows ?? 0) === 1);
  }
  return guarded(deps, userId, ip, false);
}

/** Wrong codes count against the failed-login limits, under a key of their own. */
async function guarded(deps: Pick<TwoFactorDeps, 'limiter'>, userId: string, ip: string, ok: boolean): Promise<void> {
  const key = `2fa:#${userId}`;
  const verdict = await deps.limiter.claim(key, ip);
  if (!verdict.ok) throw fail('TooManyAttempts', { values: { minutes: verdict.minutes } });
  if (!ok) throw fail('TwoFactorInvalid');
  await deps.limiter.release(key, ip);
}
