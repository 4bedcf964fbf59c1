import { createHash } from 'node:crypto';
import type { Db } from '../../db/connect.ts';
import { securityNotice } from './lock.ts';

/**
 * The devices a trader logs in from, as a hash of the terminal code and the browser's user agent: a
 * login from one never seen before leaves a security notice. The first device of
 * an account (its registration or first wallet login) is simply remembered.
 */
export function deviceOf(terminal: number, userAgent: string | undefined): string {
  return createHash('sha256')
    .update(`${terminal}\n${userAgent ?? ''}`)
    .digest('hex');
}

/** Remembers the device; answers whether it was new to a user who already had others (and then leaves the notice). */
export async function noteDevice(db: Db, userId: string, device: { terminal: number; userAgent?: string | undefined; ip: string }, now = new Date()): Promise<boolean> {
  const id = deviceOf(device.terminal, device.userAgent);
  const seen = await db.updateTable('known_devices').set({ last_seen: now }).where('user_id', '=', userId).where('device', '=', id).executeTakeFirst();
  if (Number(seen.numUpdatedRows) > 0) return false;
  const others = await db
    .selectFrom('known_devices')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  const added = await db
    .insertInto('known_devices')
    .values({ user_id: userId, device: id, last_seen: now })
    .onConflict((oc) => oc.columns(['user_id', 'device']).doNothing())
    .returning('device')
    .executeTakeFirst();
  if (!added || Number(others.n) === 0) return false;
  await securityNotice(db, userId, 'security_login', { terminal: String(device.terminal), ip: device.ip, agent: (device.userAgent ?? '').slice(0, 120) });
  return true;
}
