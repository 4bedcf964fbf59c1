import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../db/connect.ts';
import type { ClientFactory } from '../exchanges/verify.ts';
import { bindKeys } from '../services/exchange-keys.ts';
import { bareUser, dbKinds, openTestDb, PG_URL } from '../testing/test-support.ts';
import { FINGERPRINT_SETTING, SecretKeyRefused, checkServerKey, loadServerKey, type ServerKey } from './key-check.ts';
import { rotateSecrets } from './rotate-key.ts';
import { SecretBox } from './secret-box.ts';

const root = join(import.meta.dirname, '..', '..');
const scratch = mkdtempSync(join(tmpdir(), 'key-check-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const client: ClientFactory = async () => ({ fetchBalance: async () => ({}) });
const given = (key: Buffer): ServerKey => ({ box: new SecretBox(key), source: 'SECRET_KEY' });
const refusal = (p: Promise<unknown>) =>
  p.then(
    () => '',
    (e: unknown) => {
      expect(e).toBeInstanceOf(SecretKeyRefused);
      return (e as Error).message;
    },
  );

/**
 * One key for every process on a database. The first start records the key's fingerprint
 * (never the key); a process with another key refuses to start, naming SECRET_KEY.
 */
describe.each(dbKinds)('the key of the database (%s)', (kind) => {
  let db: Db;
  let drop: () => Promise<void>;
  beforeAll(async () => ({ db, drop } = await openTestDb(kind)));
  afterAll(() => drop());
  const stored = async () => (await sql<{ value: string }>`select value from cluster_settings where name = ${FINGERPRINT_SETTING}`.execute(db)).rows[0]?.value;
  const forget = () => sql`delete from cluster_settings where name = ${FINGERPRINT_SETTING}`.execute(db);

  it('is recorded by the first start as a fingerprint that is not the key; the same key starts again, another is refused naming SECRET_KEY', async () => {
    await forget();
    const key = randomBytes(32);
    expect(await checkServerKey(db, given(key))).toBe('recorded');
    const fingerprint = await stored();
    expect(fingerprint).toMatch(/^[0-9a-f]{64}$/);
    expect(fingerprint).not.toContain(key.toString('hex'));
    expect(fingerprint).not.toBe(key.toString('base64'));
    expect(await checkServerKey(db, given(key))).toBe('matched');
    const message = await refusal(checkServerKey(db, given(randomBytes(32))));
    expect(message).toMatch(/^SECRET_KEY: this process's key \(from SECRET_KEY, fingerprint [0-9a-f]{12}\) is not the key of this database \(fingerprint [0-9a-f]{12}\)/);
    expect(message).toContain(fingerprint!.slice(0, 12));
    expect(message).toContain("start this one with the others' SECRET_KEY");
    expect(await stored()).toBe(fingerprint);
  });

  it('goes to one of two processes starting at once with different keys; the other is refused', async () => {
    await forget();
    const results = await Promise.allSettled([checkServerKey(db, given(randomBytes(32))), checkServerKey(db, given(randomBytes(32)))]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(results.filter((r) => r.status === 'rejected' && r.reason instanceof SecretKeyRefused)).toHaveLength(1);
  });

  it('removes a key file the start made for nothing when the database has another key', async () => {
    await forget();
    expect(await checkServerKey(db, given(randomBytes(32)))).toBe('recorded');
    const dataDir = join(scratch, `made-${kind}`);
    const key = loadServerKey({ dataDir, secretKey: '', secretKeyFile: '' });
    expect(key.madeFile).toBe(join(dataDir, 'secret.key'));
    expect(existsSync(key.madeFile!)).toBe(true);
    expect(await refusal(checkServerKey(db, key))).toContain(`from the key file ${key.madeFile}, made at this start and removed again`);
    expect(existsSync(key.madeFile!)).toBe(false);
  });

  it('is not recorded from a key that opens none of the exchange secrets already stored (an upgraded installation)', async () => {
    await forget();
    const user = await db
      .insertInto('users')
      .values(bareUser(String(20_000_000 + Math.floor(Math.random() * 1e7)), `keycheck${kind}`))
      .returning('id')
      .executeTakeFirstOrThrow();
    const used = randomBytes(32);
    await bindKeys({ db, box: new SecretBox(used), client }, user.id, 1, { apiKey: 'paperkey0009', secretKey: 'papersecret0009' });
    expect(await refusal(checkServerKey(db, given(randomBytes(32))))).toContain('opens none of the exchange secrets stored in this database');
    expect(await stored()).toBeUndefined();
    expect(await checkServerKey(db, given(used))).toBe('recorded');

    // A rotation moves the database to the new key: the old one is refused from then on.
    const next = randomBytes(32);
    expect(await rotateSecrets(db, new SecretBox(used), new SecretBox(next))).toBe(1);
    expect(await checkServerKey(db, given(next))).toBe('matched');
    expect(await refusal(checkServerKey(db, given(used)))).toMatch(/^SECRET_KEY: /);
    await db.deleteFrom('exchange_keys').execute();
  });
});

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/** `node server/main.ts` with `env`: resolves when it listens, or with its exit code and output when it exits first. */
function start(env: Record<string, string>): Promise<{ child: ChildProcess; listening: boolean; code: number | null; out: string }> {
  return freePort().then((port) => {
    const child = spawn(process.execPath, ['server/main.ts'], {
      cwd: root,
      env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', STATIC_DIR: '/nonexistent', LOG_LEVEL: 'error', SECRET_KEY: '', SECRET_KEY_FILE: '', DATABASE_URL: '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    return new Promise((resolve) => {
      child.stdout!.on('data', (d: Buffer) => {
        out += d.toString();
        if (out.includes('listening on')) resolve({ child, listening: true, code: null, out });
      });
      child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
      child.on('exit', (code) => resolve({ child, listening: false, code, out }));
    });
  });
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

describe('real server processes on one PostgreSQL', () => {
  const schema = `keycheck_${randomBytes(4).toString('hex')}`;
  const url = new URL(PG_URL);
  url.searchParams.set('options', `-c search_path=${schema}`);
  const admin = async (query: string) => {
    const c = new pg.Client({ connectionString: PG_URL });
    await c.connect();
    try {
      await c.query(query);
    } finally {
      await c.end();
    }
  };
  beforeAll(() => admin(`CREATE SCHEMA ${schema}`));
  afterAll(() => admin(`DROP SCHEMA IF EXISTS ${schema} CASCADE`));

  it('start with one SECRET_KEY; a process with another key, or none and no key file, refuses to start naming SECRET_KEY', { timeout: 120_000 }, async () => {
    const key = randomBytes(32).toString('base64');
    const dataDir = (name: string) => join(scratch, `pg-${name}`);
    const first = await start({ DATABASE_URL: url.toString(), SECRET_KEY: key, DATA_DIR: dataDir('first') });
    try {
      expect(first.listening, first.out).toBe(true);
      const second = await start({ DATABASE_URL: url.toString(), SECRET_KEY: key, DATA_DIR: dataDir('second') });
      expect(second.listening, second.out).toBe(true);
      await stop(second.child);

      const other = await start({ DATABASE_URL: url.toString(), SECRET_KEY: randomBytes(32).toString('base64'), DATA_DIR: dataDir('other') });
      expect(other.listening).toBe(false);
      expect(other.code).toBe(1);
      expect(other.out).toMatch(/SECRET_KEY: this process's key \(from SECRET_KEY, fingerprint [0-9a-f]{12}\) is not the key of this database/);

      const none = await start({ DATABASE_URL: url.toString(), DATA_DIR: dataDir('none') });
      expect(none.listening).toBe(false);
      expect(none.code).toBe(1);
      expect(none.out).toContain(`SECRET_KEY: this process's key (from the key file ${join(dataDir('none'), 'secret.key')}, made at this start and removed again`);
      expect(existsSync(join(dataDir('none'), 'secret.key'))).toBe(false);
    } finally {
      await stop(first.child);
    }
  });
});
