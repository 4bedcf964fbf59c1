import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DataDirLocked, LOCK_FILE, lockDataDir, startTimeOf } from './data-dir-lock.ts';

const root = join(import.meta.dirname, '..', '..');
const scratch = mkdtempSync(join(tmpdir(), 'data-dir-lock-'));
const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  rmSync(scratch, { recursive: true, force: true });
});

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/** `node server/main.ts` on `dataDir`: resolves when it listens, or with its exit code and output when it exits first. */
function start(dataDir: string, port: number): Promise<{ child: ChildProcess; listening: boolean; code: number | null; out: string }> {
  const child = spawn(process.execPath, ['server/main.ts'], {
    cwd: root,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, DATABASE_URL: '', SECRET_KEY: '', STATIC_DIR: '/nonexistent', LOG_LEVEL: 'error' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  return new Promise((resolve) => {
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('listening on')) resolve({ child, listening: true, code: null, out });
    });
    child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
    child.on('exit', (code) => resolve({ child, listening: false, code, out }));
  });
}

const exited = (child: ChildProcess) => new Promise<void>((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('exit', () => resolve())));

/**
 * The embedded PGlite stays one process. A second server on the same DATA_DIR refuses to
 * start with a clear message; the lock of a process that died (SIGKILL) is taken over by the next start.
 */
describe('one server process per DATA_DIR', () => {
  it('refuses a second server on the same DATA_DIR, naming the first; after a SIGKILL the next start takes the folder over', { timeout: 120_000 }, async () => {
    const dataDir = join(scratch, 'data');
    const first = await start(dataDir, await freePort());
    expect(first.listening, first.out).toBe(true);
    const lock = JSON.parse(readFileSync(join(dataDir, LOCK_FILE), 'utf8')) as { pid: number };
    expect(lock.pid).toBe(first.child.pid);

    const second = await start(dataDir, await freePort());
    expect(second.listening).toBe(false);
    expect(second.code).toBe(1);
    expect(second.out).toContain(`DATA_DIR ${dataDir} is in use by another server process (pid ${first.child.pid}`);
    expect(second.out).toContain('DATABASE_URL');
    // The first one is untouched and still answers.
    expect(JSON.parse(readFileSync(join(dataDir, LOCK_FILE), 'utf8')).pid).toBe(first.child.pid);

    first.child.kill('SIGKILL');
    await exited(first.child);
    expect(existsSync(join(dataDir, LOCK_FILE))).toBe(true); // left behind by the killed process
    const port = await freePort();
    const third = await start(dataDir, port);
    expect(third.listening, third.out).toBe(true);
    expect((await fetch(`http://127.0.0.1:${port}/api/health`)).status).toBe(200);
    expect(JSON.parse(readFileSync(join(dataDir, LOCK_FILE), 'utf8')).pid).toBe(third.child.pid);
    third.child.kill('SIGTERM');
    await exited(third.child);
    expect(existsSync(join(dataDir, LOCK_FILE))).toBe(false); // a clean stop leaves no lock
  });

  it('takes over the lock of a pid that no longer runs, of a pid now given to another process, and a malformed one', () => {
    const dir = join(scratch, 'unit');
    const file = join(dir, LOCK_FILE);
    // A pid that is not running: pids above /proc/sys/kernel/pid_max are never given out.
    for (const stale of [JSON.stringify({ pid: 4_194_304 + 7, started: null }), 'garbage']) {
      lockDataDir(dir)(); // makes the folder
      writeFileSync(file, stale);
      const release = lockDataDir(dir);
      expect(JSON.parse(readFileSync(file, 'utf8')).pid).toBe(process.pid);
      release();
      expect(existsSync(file)).toBe(false);
    }
    // A live pid (this process's parent) under another start time: an earlier process given the same pid.
    if (startTimeOf(process.ppid) !== null) {
      writeFileSync(file, JSON.stringify({ pid: process.ppid, started: '1' }));
      lockDataDir(dir)();
    }
  });

  it('refuses while a live process holds it, and releases only its own lock', () => {
    const dir = join(scratch, 'held');
    const file = join(dir, LOCK_FILE);
    lockDataDir(dir)();
    writeFileSync(file, JSON.stringify({ pid: process.ppid, started: startTimeOf(process.ppid) }));
    expect(() => lockDataDir(dir)).toThrow(DataDirLocked);
    expect(() => lockDataDir(dir)).toThrow(`is in use by another server process (pid ${process.ppid}`);
    expect(JSON.parse(readFileSync(file, 'utf8')).pid).toBe(process.ppid);
  });
});
