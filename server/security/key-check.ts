import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'kysely';
import type { Config } from '../config.ts';
import type { Db } from '../db/connect.ts';
import { owner } from '../services/exchange-keys.ts';
import { SecretBox, loadSecretKey } from './secret-box.ts';

/** The row of cluster_settings that holds the key's fingerprint. */
export const FINGERPRINT_SETTING = 'secret_key_fingerprint';
/** The fingerprint is the HMAC-SHA-256 of this fixed text under the key: it tells keys apart and reveals nothing of them. */
const FINGERPRINT_LABEL = 'secret-key-fingerprint-v1';

/** A process whose key is not the database's: it must not start. */
export class SecretKeyRefused extends Error {}

/** The server's key, and where it came from (for the messages). */
export interface ServerKey {
  box: SecretBox;
  /** SECRET_KEY, SECRET_KEY_FILE (path), or DATA_DIR/secret.key (path). */
  source: string;
  /** The key file DATA_DIR/secret.key was made by this start (removed again when the key is refused). */
  madeFile?: string;
}

/** The key as the server reads it (SECRET_KEY, else SECRET_KEY_FILE, else DATA_DIR/secret.key, made on first start). */
export function loadServerKey(config: Pick<Config, 'secretKey' | 'secretKeyFile' | 'dataDir'>): ServerKey {
  const file = join(config.dataDir, 'secret.key');
  const made = !config.secretKey && !config.secretKeyFile && !existsSync(file);
  const box = new SecretBox(loadSecretKey(config.secretKey, file, config.secretKeyFile));
  const source = config.secretKey ? 'SECRET_KEY' : config.secretKeyFile ? `SECRET_KEY_FILE ${config.secretKeyFile}` : `the key file ${file}`;
  return { box, source, ...(made ? { madeFile: file } : {}) };
}

export const fingerprintOf = (box: SecretBox) => box.fingerprint(FINGERPRINT_LABEL);

/** Records `box`'s fingerprint as the database's key (key rotation, in its transaction). */
export async function recordFingerprint(db: Db, box: SecretBox): Promise<void> {
  const value = fingerprintOf(box);
  await sql`insert into cluster_settings (name, value) values (${FINGERPRINT_SETTING}, ${value}) on conflict (name) do update set value = excluded.value`.execute(db);
}

/**
 * Every server process on a database must use one key (exchange and 2FA secrets sealed by
 * one process open in the others; client order ids on real exchanges are salted with it). The first
 * start records the key's fingerprint in the database; a later start whose key has another fingerprint
 * is refused (SecretKeyRefused, naming SECRET_KEY), and a key file this start made for nothing is removed
 * again. Before recording, a database that already holds exchange secrets must open at least one of
 * them with the key (an upgraded installation started with the wrong key records nothing).
 * Answers whether the fingerprint was recorded now.
 */
export async function checkServerKey(db: Db, key: ServerKey): Promise<'recorded' | 'matched'> {
  try {
    return await check(db, key);
  } catch (e) {
    if (e instanceof SecretKeyRefused && key.madeFile) rmSync(key.madeFile, { force: true });
    throw e;
  }
}

async function check(db: Db, key: ServerKey): Promise<'recorded' | 'matched'> {
  const mine = fingerprintOf(key.box);
  const stored = async () => (await sql<{ value: string }>`select value from cluster_settings where name = ${FINGERPRINT_SETTING}`.execute(db)).rows[0]?.value;
  let theirs = await stored();
  if (theirs === undefined) {
    await opensStoredSecrets(db, key);
    const { rows } = await sql<{ value: string }>`insert into cluster_settings (name, value) values (${FINGERPRINT_SETTING}, ${mine}) on conflict (name) do nothing returning value`.execute(db);
    if (rows.length === 1) return 'recorded';
    theirs = await stored(); // another process recorded its key at the same moment
  }
  if (theirs === mine) return 'matched';
  throw new SecretKeyRefused(
    `SECRET_KEY: this process's key (from ${key.source}${key.madeFile ? ', made at this start and removed again' : ''}, fingerprint ${mine.slice(0, 12)}) is not the key of this database ` +
      `(fingerprint ${String(theirs).slice(0, 12)}). Every server process on one database must use the same key: start this one with the others' SECRET_KEY (or SECRET_KEY_FILE). ` +
      `Only if that key is lost for good: delete the '${FINGERPRINT_SETTING}' row of cluster_settings (the exchange and 2FA secrets stored under it stay unreadable).`,
  );
}

/** Refuses a key that opens none of the newest stored exchange secrets (when there are any). */
async function opensStoredSecrets(db: Db, key: ServerKey): Promise<void> {
  const rows = await db.selectFrom('exchange_keys').select(['id', 'user_id', 'exchange_id', 'sealed']).orderBy('id', 'desc').limit(5).execute();
  if (rows.length === 0) return;
  for (const row of rows) {
    try {
      key.box.open(row.sealed, owner(row.user_id, row.exchange_id));
      return;
    } catch {
      // not this one: try the next
    }
  }
  throw new SecretKeyRefused(
    `SECRET_KEY: this process's key (from ${key.source}${key.madeFile ? ', made at this start and removed again' : ''}) opens none of the exchange secrets stored in this database: ` +
      'start with the key this installation has used (SECRET_KEY, SECRET_KEY_FILE or DATA_DIR/secret.key).',
  );
}
