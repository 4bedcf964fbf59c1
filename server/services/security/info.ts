import type { SecurityInfo } from '../../../contract/account.ts';
import type { Db } from '../../db/connect.ts';
import { userById } from '../users.ts';
import { lockedUntil } from './lock.ts';

/** What protects the account now, for the security screen. */
export async function securityInfo(db: Db, userId: string, lockMs: number, now = new Date()): Promise<SecurityInfo> {
  const u = await userById(db, userId);
  const locked = lockedUntil(u, lockMs, now);
  return {
    twoFactor: u.totp_sealed !== null,
    recoveryCodesLeft: u.totp_sealed ? (u.recovery_hashes?.length ?? 0) : 0,
    loginPasswordSet: u.password_hash !== null,
    paymentPasswordSet: u.payment_hash !== null,
    wallet: u.address ?? '',
    walletProofNeeded: u.password_hash === null && u.address !== null,
    withdrawLockedUntil: locked,
    withdrawLockMs: lockMs,
  };
}
