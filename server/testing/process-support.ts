import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

/**
 * Real server processes on one PostgreSQL database, for the tests that need them (the
 * chaos run, the SIGTERM handover, the AI search line): a fresh database, the environment every
 * process of a cluster shares, and each process started, signalled and restarted as a supervisor would.
 */

/** A fresh database on the PostgreSQL of `adminUrl` (a superuser connection): its URL, and a drop that ends its connections. */
export async function clusterDatabase(adminUrl: string, prefix = 'cluster'): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `${prefix}_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const url = Object.assign(new URL(adminUrl), { pathname: `/${name}` }).toString();
  return {
    url,
    drop: async () => {
      await admin.query(`drop database if exists ${name} with (force)`).catch(() => undefined);
      await admin.end();
    },
  };
}

/** What every process of one cluster is started with: its database, one key, the lease TTL, a fast engine round, and rate limits wide enough for many traders from one address. */
export function clusterEnv(url: string, ttlMs: number, extra: Record<string, string> = {}): Record<string, string> {
  return {
    DATABASE_URL: url,
    SECRET_KEY: randomBytes(32).toString('base64'),
    LEASE_TTL_MS: String(ttlMs),
    ENGINE_TICK_MS: '200',
    // As bench/server-ready.ts WIDE_RATE_LIMITS: every trader registers from this one address.
    RATE_LIMIT_REGISTER: '100000/1m',
    RATE_LIMIT_LOGIN: '100000/1m',
    RATE_LIMIT_WALLET: '100000/1m',
    RATE_LIMIT_CHALLENGE: '100000/1m',
    RATE_LIMIT_PUBLIC: '100000/1m',
    ...extra,
  };
}

export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/** One `node server/main.ts` of the cluster, restarted on the same port and data dir; its output is kept (the last 20,000 characters). */
export class ServerProcess {
  child: ChildProcess | undefined;
  out = '';
  stopped = false;
  /** How long each start took, to 'listening on'. */
  readonly startMs: number[] = [];
  readonly dataDir = mkdtempSync(join(tmpdir(), 'quantbot-chaos-'));
  readonly port: number;
  private readonly env: Record<string, string>;
  private readonly conflicts: string[];
  constructor(port: number, env: Record<string, string>, conflicts: string[] = []) {
    this.port = port;
    this.env = env;
    this.conflicts = conflicts;
  }

  get base(): string {
    return `http://127.0.0.1:${this.port}/api`;
  }

  /** Starts the process; `extra` adds to its environment for this start only. */
  start(extra: Record<string, string> = {}): Promise<void> {
    const child = spawn(process.execPath, ['server/main.ts'], {
      cwd: join(import.meta.dirname, '..', '..'),
      env: { ...process.env, ...this.env, ...extra, PORT: String(this.port), HOST: '127.0.0.1', DATA_DIR: this.dataDir, STATIC_DIR: '/nonexistent', LOG_LEVEL: 'error' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    this.stopped = false;
    const started = performance.now();
    return new Promise((resolve, reject) => {
      let ready = false;
      // This child's own output: the node's (all its children's) holds the 'listening on' of the ones before.
      let own = '';
      const timer = setTimeout(() => reject(new Error(`server (pid ${child.pid}) did not start within 60 s; it printed: ${own.slice(-2000) || 'nothing'}`)), 60_000);
      const take = (d: Buffer) => {
        const text = d.toString();
        own = (own + text).slice(-20_000);
        this.out = (this.out + text).slice(-20_000);
        for (const line of text.split('\n')) if (/23505|duplicate key/.test(line)) this.conflicts.push(line.slice(0, 300));
        if (!ready && own.includes('listening on')) {
          this.startMs.push(Math.round(performance.now() - started));
          ready = true;
          clearTimeout(timer);
          resolve();
        }
      };
      child.stdout!.on('data', take);
      child.stderr!.on('data', take);
      child.on('exit', (code, signal) => {
        if (!ready) {
          clearTimeout(timer);
          reject(new Error(`server exited (${code ?? signal}): ${this.out.slice(-2000)}`));
        }
      });
    });
  }

  get pid(): number {
    return this.child!.pid!;
  }

  alive(): boolean {
    return this.child !== undefined && this.child.exitCode === null && this.child.signalCode === null;
  }

  async signal(sig: NodeJS.Signals): Promise<void> {
    const child = this.child;
    if (!child || !this.alive()) return;
    const exited = new Promise<void>((r) => child.once('exit', () => r()));
    child.kill(sig);
    await exited;
  }
}
