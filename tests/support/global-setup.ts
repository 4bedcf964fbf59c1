import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { startDevChain, type DevChain } from '../../server/chain/dev-chain.ts';
import { WIDE_RATE_LIMITS } from '../../bench/server-ready.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    baseURL: string;
    /** The local chain 56 (anvil) the server watches: deposits, withdrawals. */
    chainUrl: string;
  }
}

let server: ChildProcess | undefined;
let dataDir = '';
let chain: DevChain | undefined;

/** Starts the real server (built PWA + /api, embedded PGlite in a fresh folder) once for the e2e run. */
export default async function setup(project: TestProject) {
  // The built PWA the server serves: STATIC_DIR when set (a build of one's own, beside others working in this tree), else dist/.
  const staticDir = process.env.STATIC_DIR || 'dist';
  if (!existsSync(join(staticDir, 'index.html'))) throw new Error(`${staticDir}/ is missing: run \`npm run build\` (npm test does it)`);
  dataDir = mkdtempSync(join(tmpdir(), 'e2e-data-'));
  const port = 18_000 + Math.floor(Math.random() * 2000);
  // A real local chain 56 with the project's contracts: the server watches it for deposits and pays withdrawals on it.
  chain = await startDevChain();
  const chainEnv = {
    CHAIN_RPC_URL: chain.url,
    CHAIN_USDT: chain.usdt,
    CHAIN_DEPOSIT: chain.deposit,
    HOT_WALLET_KEY: chain.hotWalletKey,
    CHAIN_CONFIRMATIONS: '3',
    CHAIN_POLL_MS: '200',
    CHAIN_START_BLOCK: '1',
    // Withdrawals wait 7.2 s (not 24 h) after a security change and for a new address: tests wait it out.
    WITHDRAW_LOCK_HOURS: '0.002',
  };
  // The AI search on 2 days of candles, not 30: the same candidates and rules, 1/15 of the
  // work; its full size is measured by `npm run bench`.
  const workloadEnv = { AI_SEARCH_DAYS: '2,0.5' };
  server = spawn(process.execPath, ['server/main.ts'], {
    // Every test registers and logs in from 127.0.0.1: the per-source limits are widened (the proof of
    // work keeps its real difficulty: the browser solves it). Rate limits have server tests of their own.
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, DATABASE_URL: '', ...chainEnv, ...workloadEnv, ...WIDE_RATE_LIMITS },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  server.stdout?.on('data', (d) => (output += d));
  server.stderr?.on('data', (d) => (output += d));
  const baseURL = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (server.exitCode !== null) throw new Error(`server exited early:\n${output}`);
    try {
      const res = await fetch(`${baseURL}/login`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`server not ready in 60 s:\n${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  project.provide('baseURL', baseURL);
  project.provide('chainUrl', chain.url);
  return async () => {
    // A server that has already ended (it crashed, or something killed it) sends no more 'exit': waiting
    // for one would hold the run forever.
    if (server && server.exitCode === null && server.signalCode === null) {
      const exited = new Promise((r) => server?.once('exit', r));
      server.kill('SIGTERM');
      await exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
    await chain?.stop();
  };
}
