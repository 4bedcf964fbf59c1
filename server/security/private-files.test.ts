import { spawn } from 'node:child_process';
import { chmodSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createPglite } from '../db/pglite.ts';
import { loadSecretKey } from './secret-box.ts';

const root = join(import.meta.dirname, '..', '..');
const scratch = mkdtempSync(join(tmpdir(), 'private-files-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Every path under `dir` (itself included) whose mode is not 0700 for a folder, 0600 for a file. */
function loose(dir: string): string[] {
  const stat = lstatSync(dir);
  const mode = stat.mode & 0o777;
  if (!stat.isDirectory()) return mode === 0o600 ? [] : [`${mode.toString(8)} ${dir}`];
  const own = mode === 0o700 ? [] : [`${mode.toString(8)} ${dir}`];
  return [...own, ...readdirSync(dir).flatMap((name) => loose(join(dir, name)))];
}

/** Starts the real server on `dataDir` until it listens, then stops it with SIGTERM. */
async function runServer(dataDir: string): Promise<void> {
  const env = { ...process.env, PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, DATABASE_URL: '', SECRET_KEY: '', STATIC_DIR: '/nonexistent', LOG_LEVEL: 'error' };
  const child = spawn(process.execPath, ['server/main.ts'], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('listening on')) resolve();
    });
    child.on('exit', (code) => reject(new Error(`server exited (${code}): ${out}`)));
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

describe('DATA_DIR is private to the server', () => {
  it('is created 0700 with every folder 0700 and every file 0600 (key file, database) by a real start and stop', { timeout: 120_000 }, async () => {
    const dataDir = join(scratch, 'fresh', 'data');
    await runServer(dataDir);
    expect(readdirSync(dataDir).sort()).toEqual(['pglite', 'secret.key']);
    expect(readdirSync(join(dataDir, 'pglite'))).toContain('PG_VERSION');
    expect(loose(join(scratch, 'fresh'))).toEqual([]);
  });

  it("tightens an older install's DATA_DIR, key file and database files", { timeout: 60_000 }, async () => {
    const dataDir = join(scratch, 'old');
    const pglite = join(dataDir, 'pglite');
    await (await createPglite(pglite)).close();
    const key = loadSecretKey('', join(dataDir, 'secret.key'));
    // What an older version left: world-readable files in world-listable folders.
    const loosen = (path: string) => {
      chmodSync(path, lstatSync(path).isDirectory() ? 0o755 : 0o644);
      if (lstatSync(path).isDirectory()) for (const name of readdirSync(path)) loosen(join(path, name));
    };
    loosen(dataDir);
    writeFileSync(join(pglite, 'stray'), '', { mode: 0o666 });
    chmodSync(join(pglite, 'stray'), 0o666);
    expect(loose(dataDir).length).toBeGreaterThan(900);

    expect(loadSecretKey('', join(dataDir, 'secret.key')).equals(key)).toBe(true);
    await (await createPglite(pglite)).close();
    expect(loose(dataDir)).toEqual([]);
  });

  it('creates missing parents 0700 too', () => {
    const dir = join(scratch, 'parents');
    mkdirSync(dir, { mode: 0o755 });
    chmodSync(dir, 0o755);
    loadSecretKey('', join(dir, 'a', 'b', 'secret.key'));
    expect(loose(join(dir, 'a'))).toEqual([]);
  });
});
