// Time from spawning `node server/main.ts` to its first /api answer: the server serves pages before the
// database is migrated, and /api waits for it, so an /api answer means the whole product is ready.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * The benchmarks register and log in hundreds of times from one address: the per-source rate limits
 * are widened unless `env` says otherwise (bench/flood.ts measures them at their defaults).
 */
export const WIDE_RATE_LIMITS: Record<string, string> = {
  RATE_LIMIT_REGISTER: '100000/1m',
  RATE_LIMIT_LOGIN: '100000/1m',
  RATE_LIMIT_WALLET: '100000/1m',
  RATE_LIMIT_CHALLENGE: '100000/1m',
  RATE_LIMIT_PUBLIC: '100000/1m',
};

/** For a bench that loads one trader's calls (thousands a second): out of the way of the per-trader limit, which the browser tests keep at its default. */
export const WIDE_USER_LIMIT: Record<string, string> = { RATE_LIMIT_USER: '100000000/1m' };

/** Registers a new trader on the server at `base` (a solved challenge); the token and the user's fields. */
export async function registerBenchUser(base: string, account = `b${Date.now().toString(36)}`): Promise<{ token: string; user: Record<string, string> }> {
  const { solvedChallengeAt } = await import('../server/security/challenge.ts');
  const reg = (await (
    await fetch(`${base}/api/login/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ terminal: 1, account, password: 'Secret2026x', confirm: 'Secret2026x', challenge: await solvedChallengeAt(base) }),
    })
  ).json()) as { data: { token: string } & Record<string, string> };
  const { token, ...user } = reg.data;
  return { token, user };
}

/** Starts the built server on `port` (a new data dir unless given); resolves with the ms until it answers. */
export async function measureServerReady(port: number, existingDir?: string, env: Record<string, string> = WIDE_RATE_LIMITS): Promise<{ ms: number; stop: (removeData?: boolean) => Promise<void> }> {
  const dataDir = existingDir ?? mkdtempSync(join(tmpdir(), 'bench-data-'));
  const started = performance.now();
  const child = spawn(process.execPath, ['server/main.ts'], {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, DATABASE_URL: '', ...env },
    stdio: 'ignore',
  });
  for (;;) {
    if (child.exitCode !== null) throw new Error('server exited');
    try {
      if ((await fetch(`http://127.0.0.1:${port}/api/auth/profile`)).ok) break;
    } catch {
      // not yet listening
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  const ms = performance.now() - started;
  return {
    ms,
    stop: async (removeData = true) => {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
      if (removeData) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
