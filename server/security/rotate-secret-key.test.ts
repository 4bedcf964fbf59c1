import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { migrate, openDatabase } from '../db/connect.ts';
import { LOCK_FILE, startTimeOf } from '../db/data-dir-lock.ts';
import { bindKeys, readCredentials } from '../services/exchange-keys.ts';
import { SecretBox, loadSecretKey } from './secret-box.ts';

const root = join(import.meta.dirname, '..', '..');
const scratch = mkdtempSync(join(tmpdir(), 'rotate-script-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const creds = { apiKey: 'paperkey0001', secretKey: 'papersecret0001', passphrase: undefined };

/**
 * A DATA_DIR with one user's Paper keys sealed under `key`; answers the user id and the sealed rows. Each
 * open of an embedded database on disk costs seconds of a loaded machine: a case opens it three times.
 */
async function seed(dataDir: string, key: Buffer, corrupt = false): Promise<{ user: string; sealedBefore: string[] }> {
  const db = await openDatabase({ dataDir });
  await migrate(db);
  const user = await db
    .insertInto('users')
    .values({ sn: '55554444', account: 'rotatescript', password_hash: null, payment_hash: null, nickname: 'n', email: '', mobile: '', address: null, avatar: '', referrer_id: null })
    .returning('id')
    .executeTakeFirstOrThrow();
  await bindKeys({ db, box: new SecretBox(key) }, user.id, 1, creds);
  if (corrupt)
    await db
      .updateTable('exchange_keys')
      .set({ sealed: new SecretBox(randomBytes(32)).seal('{}', 'someone') })
      .execute();
  const sealedBefore = (await db.selectFrom('exchange_keys').select('sealed').orderBy('id').execute()).map((r) => r.sealed);
  await db.destroy();
  return { user: user.id, sealedBefore };
}

/** What the user's keys open to under `key`, and whether they open under `old` (false: refused). */
async function opensWith(dataDir: string, key: Buffer, user: string, old?: Buffer) {
  const db = await openDatabase({ dataDir });
  try {
    const creds = await readCredentials({ db, box: new SecretBox(key) }, user, 1);
    const openedWithOld = old
      ? await readCredentials({ db, box: new SecretBox(old) }, user, 1).then(
          () => true,
          () => false,
        )
      : undefined;
    return { creds, openedWithOld };
  } finally {
    await db.destroy();
  }
}

async function sealed(dataDir: string): Promise<string[]> {
  const db = await openDatabase({ dataDir });
  try {
    return (await db.selectFrom('exchange_keys').select('sealed').orderBy('id').execute()).map((r) => r.sealed);
  } finally {
    await db.destroy();
  }
}

function rotate(env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['scripts/rotate-secret-key.ts'], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: '', SECRET_KEY: '', SECRET_KEY_FILE: '', NEW_SECRET_KEY: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

// The script end to end, each case on an embedded database in a DATA_DIR of its own.
describe('scripts/rotate-secret-key.ts', () => {
  it('replaces DATA_DIR/secret.key after the commit and prints no key', { timeout: 120_000 }, async () => {
    const dataDir = join(scratch, 'file');
    const file = join(dataDir, 'secret.key');
    const old = loadSecretKey('', file);
    const { user } = await seed(dataDir, old);

    const run = await rotate({ DATA_DIR: dataDir });
    expect(run).toMatchObject({ code: 0, stdout: '' });
    expect(run.stderr).toContain('re-sealed 1 secret (exchange keys and 2FA secrets);');

    const next = loadSecretKey('', file);
    expect(next.equals(old)).toBe(false);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(existsSync(`${file}.new`)).toBe(false);
    expect(await opensWith(dataDir, next, user, old)).toEqual({ creds, openedWithOld: false });
  });

  it('prints a generated key once when the old one came from SECRET_KEY', { timeout: 120_000 }, async () => {
    const dataDir = join(scratch, 'env');
    const old = randomBytes(32);
    const { user } = await seed(dataDir, old);

    const run = await rotate({ DATA_DIR: dataDir, SECRET_KEY: old.toString('base64') });
    expect(run.code).toBe(0);
    const printed = run.stdout.trim();
    expect(run.stdout).toBe(`${printed}\n`);
    expect(run.stderr).not.toContain(printed);
    expect(run.stderr).not.toContain(old.toString('base64'));
    expect((await opensWith(dataDir, Buffer.from(printed, 'base64'), user)).creds).toEqual(creds);
    expect(existsSync(join(dataDir, 'secret.key'))).toBe(false);
  });

  it('changes nothing, key file included, when a row does not open', { timeout: 120_000 }, async () => {
    const dataDir = join(scratch, 'broken');
    const file = join(dataDir, 'secret.key');
    const old = loadSecretKey('', file);
    const { sealedBefore } = await seed(dataDir, old, true);

    const run = await rotate({ DATA_DIR: dataDir });
    expect(run).toMatchObject({ code: 1, stdout: '' });
    expect(run.stderr).toMatch(/rotation failed, nothing was changed: exchange_keys row \d+ does not open with the old key/);
    expect(readFileSync(file, 'utf8')).toBe(old.toString('base64'));
    expect(existsSync(`${file}.new`)).toBe(false);
    expect(await sealed(dataDir)).toEqual(sealedBefore);
  });

  it('changes nothing while a server holds DATA_DIR (one process on the embedded database)', { timeout: 120_000 }, async () => {
    const dataDir = join(scratch, 'held');
    const file = join(dataDir, 'secret.key');
    const old = loadSecretKey('', file);
    const { sealedBefore } = await seed(dataDir, old);
    // A live process (this one's parent) holds the folder, as a running server would.
    writeFileSync(join(dataDir, LOCK_FILE), JSON.stringify({ pid: process.ppid, started: startTimeOf(process.ppid) }));

    const run = await rotate({ DATA_DIR: dataDir });
    expect(run).toMatchObject({ code: 1, stdout: '' });
    expect(run.stderr).toContain(`rotation failed, nothing was changed: DATA_DIR ${dataDir} is in use by another server process (pid ${process.ppid}`);
    expect(readFileSync(file, 'utf8')).toBe(old.toString('base64'));
    expect(existsSync(`${file}.new`)).toBe(false);
    expect(await sealed(dataDir)).toEqual(sealedBefore);
  });
});
