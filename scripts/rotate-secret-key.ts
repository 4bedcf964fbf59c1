// Re-seals every stored exchange secret under a new key, in one transaction (all or nothing).
// Usage: node scripts/rotate-secret-key.ts   (bash scripts/with-node.sh node scripts/rotate-secret-key.ts)
// Reads the server's environment: DATABASE_URL or DATA_DIR, and the old key from SECRET_KEY, else the
// file SECRET_KEY_FILE names, else DATA_DIR/secret.key. The new key is NEW_SECRET_KEY (base64 of 32
// bytes), else a fresh one: when the old key came from DATA_DIR/secret.key, the new one replaces that
// file (0600) once the transaction has committed; otherwise it is printed once to stdout (the only
// thing this script prints there), to be put where the server reads it.
// STOP THE SERVER FIRST, and start it again with the new key: the embedded PGlite is single-process
// (two processes on one folder corrupt it: the script refuses while a server holds DATA_DIR's lock), and
// on PostgreSQL a running server still holds the old key.
// Refused while a bot has an order in flight on a real exchange (see server/security/rotate-key.ts).
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { readConfig } from '../server/config.ts';
import { openDatabase, type Db } from '../server/db/connect.ts';
import { lockDataDir } from '../server/db/data-dir-lock.ts';
import { commitKeyFile, dropStagedKeyFile, stageKeyFile, stagedKeyFile } from '../server/security/key-file.ts';
import { rotateSecrets } from '../server/security/rotate-key.ts';
import { SecretBox, loadSecretKey } from '../server/security/secret-box.ts';

process.umask(0o077);
const say = (line: string) => process.stderr.write(`${line}\n`);
const stop = (line: string): never => {
  say(line);
  process.exit(1);
};
const config = readConfig();
// SECRET_KEY_FILE is read as the server reads it (server/config.ts: secretKeyFile).
const externalFile = config.secretKeyFile;
const keyFile = join(config.dataDir, 'secret.key');
const fromKeyFile = !config.secretKey && !externalFile;
if (fromKeyFile && !existsSync(keyFile)) stop(`no key in SECRET_KEY, SECRET_KEY_FILE or ${keyFile}: nothing to rotate`);
if (!config.databaseUrl && !existsSync(join(config.dataDir, 'pglite', 'PG_VERSION'))) stop(`no database in ${config.dataDir}: nothing to rotate`);
const oldKey = loadSecretKey(config.secretKey, keyFile, externalFile);

const given = process.env.NEW_SECRET_KEY || '';
const newKey = given ? Buffer.from(given, 'base64') : randomBytes(32);
if (newKey.length !== 32) stop('NEW_SECRET_KEY must be the base64 of 32 bytes');
if (newKey.equals(oldKey)) stop('NEW_SECRET_KEY is the key in use: nothing to rotate');
const writesKeyFile = fromKeyFile && !given;

let db: Db | undefined;
let count = -1;
let staged = false;
let printed = false;
try {
  if (!config.databaseUrl) lockDataDir(config.dataDir); // released when the script exits
  db = await openDatabase(config.databaseUrl ? { url: config.databaseUrl } : { dataDir: config.dataDir });
  // Kept before the commit, so that no crash can leave the database sealed under a key found nowhere.
  if (writesKeyFile) {
    stageKeyFile(keyFile, newKey);
    staged = true;
  } else if (!given) {
    process.stdout.write(`${newKey.toString('base64')}\n`);
    printed = true;
  }
  count = await rotateSecrets(db, new SecretBox(oldKey), new SecretBox(newKey));
} catch (e) {
  if (staged) dropStagedKeyFile(keyFile);
  if (printed) say('the key printed above is not in use');
  say(`rotation failed, nothing was changed: ${(e as Error)?.message ?? String(e)}`);
  process.exitCode = 1;
} finally {
  await db?.destroy();
}

if (count >= 0) {
  const done = `re-sealed ${count} secret${count === 1 ? '' : 's'} (exchange keys and 2FA secrets)`;
  if (writesKeyFile) {
    try {
      commitKeyFile(keyFile);
      say(`${done}; ${keyFile} holds the new key`);
    } catch (e) {
      say(`${done}, but the new key is still in ${stagedKeyFile(keyFile)}: rename it to ${keyFile} before starting the server (${(e as Error).message})`);
      process.exitCode = 1;
    }
  } else if (given) {
    say(`${done} under NEW_SECRET_KEY: start the server with it${fromKeyFile ? `, then delete the retired key in ${keyFile}` : ''}`);
  } else {
    say(`${done} under the key printed above: start the server with it in ${externalFile ? 'the file SECRET_KEY_FILE names' : 'SECRET_KEY'}`);
  }
}
