import { sql } from 'kysely';
import type { Db } from '../db/connect.ts';
import { SIMULATED_EXCHANGE_IDS } from '../exchanges/catalog.ts';
import { liveBotsInFlight } from '../store/bot-lists.ts';
import { owner } from '../services/exchange-keys.ts';
import { recordFingerprint } from './key-check.ts';
import { totpSealLabel } from './seal-labels.ts';
import type { SecretBox } from './secret-box.ts';

/**
 * Re-seals every stored secret under `newBox` in one transaction, all or nothing: the exchange keys
 * (exchange_keys.sealed) and the 2FA secrets (users.totp_sealed, and totp_pending of a set-up under way;
 * left behind, every trader with 2FA was locked out of login and withdrawals by a rotation). Records the
 * new key's fingerprint as the database's (security/key-check.ts: a server started with the old key is
 * refused from then on); answers how many secrets.
 */
export async function rotateSecrets(db: Db, oldBox: SecretBox, newBox: SecretBox): Promise<number> {
  return db.transaction().execute(async (trx) => {
    // Readers may go on; no row can be added, changed or removed under the rotation, so none is left behind.
    await sql`lock table ${sql.table('exchange_keys')} in exclusive mode`.execute(trx);
    await refuseOrdersInFlight(trx);
    const rows = await trx.selectFrom('exchange_keys').select(['id', 'user_id', 'exchange_id', 'sealed']).orderBy('id').execute();
    for (const row of rows) {
      let plain: string;
      try {
        plain = oldBox.open(row.sealed, owner(row.user_id, row.exchange_id));
      } catch {
        throw new Error(`exchange_keys row ${row.id} does not open with the old key: nothing was changed`);
      }
      await trx
        .updateTable('exchange_keys')
        .set({ sealed: newBox.seal(plain, owner(row.user_id, row.exchange_id)) })
        .where('id', '=', row.id)
        .execute();
    }
    const sealed = rows.length + (await resealTotp(trx, oldBox, newBox));
    // A database no server or later has started yet has no settings table: its first start records the key.
    const { rows: settings } = await sql<{ present: boolean }>`select to_regclass('cluster_settings') is not null as present`.execute(trx);
    if (settings[0]?.present) await recordFingerprint(trx, newBox);
    return sealed;
  });
}

/** The users' 2FA secrets, their rows locked for the rotation; answers how many were re-sealed. */
async function resealTotp(trx: Db, oldBox: SecretBox, newBox: SecretBox): Promise<number> {
  const users = await trx
    .selectFrom('users')
    .select(['id', 'totp_sealed', 'totp_pending'])
    .where((eb) => eb.or([eb('totp_sealed', 'is not', null), eb('totp_pending', 'is not', null)]))
    .orderBy('id')
    .forUpdate()
    .execute();
  let count = 0;
  for (const user of users) {
    const label = totpSealLabel(String(user.id));
    const again = (sealed: string | null) => {
      if (sealed === null) return null;
      count++;
      try {
        return newBox.seal(oldBox.open(sealed, label), label);
      } catch {
        throw new Error(`the 2FA secret of user ${user.id} does not open with the old key: nothing was changed`);
      }
    };
    await trx
      .updateTable('users')
      .set({ totp_sealed: again(user.totp_sealed), totp_pending: again(user.totp_pending) })
      .where('id', '=', user.id)
      .execute();
  }
  return count;
}

/**
 * Client order ids on real exchanges are salted with a fingerprint of the key (exchanges/live-trading.ts):
 * after a rotation the engine would look an order in flight up under a new id, miss it, and send it again.
 */
async function refuseOrdersInFlight(trx: Db): Promise<void> {
  const bots = await liveBotsInFlight(trx, { simulatedIds: SIMULATED_EXCHANGE_IDS });
  if (bots.length > 0) {
    throw new Error(`bots ${bots.map((b) => b.id).join(', ')} have an order in flight on a real exchange: let them settle before rotating the key (nothing was changed)`);
  }
}
