import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { WIDE_RATE_LIMITS } from '../bench/server-ready.ts';
import './support/live-log.ts';
import { openPhone, type Phone } from './support/browser.ts';
import { callAs, register, storeSession } from './support/session.ts';

const martin = { investment: '1000', firstOrder: '20', multiplier: '2', maxPositions: 4, addTrigger: '10', takeProfit: '10', stopLoss: '', repeat: true };

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

/** A server of this test's own (the shared one must not restart under the other tests), restarted on the same port and data. */
class OwnServer {
  child: ChildProcess | undefined;
  readonly dataDir = mkdtempSync(join(tmpdir(), 'e2e-restart-'));
  readonly port: number;
  constructor(port: number) {
    this.port = port;
  }
  get base() {
    return `http://127.0.0.1:${this.port}`;
  }
  async start(): Promise<void> {
    this.child = spawn(process.execPath, ['server/main.ts'], {
      env: {
        ...process.env,
        ...WIDE_RATE_LIMITS,
        PORT: String(this.port),
        HOST: '127.0.0.1',
        DATA_DIR: this.dataDir,
        DATABASE_URL: '',
        STATIC_DIR: process.env.STATIC_DIR || 'dist',
        LOG_LEVEL: 'error',
      },
      stdio: 'ignore',
    });
    for (let i = 0; i < 600; i++) {
      try {
        if ((await fetch(`${this.base}/api/ready`)).ok) return;
      } catch {
        // not listening yet
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error('the server did not start in 60 s');
  }
  async stop(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null) return;
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
  }
}

describe('the live stream across a server restart', () => {
  let server: OwnServer | undefined;
  let phone: Phone | undefined;
  afterAll(async () => {
    await phone?.close();
    await server?.stop();
    if (server) rmSync(server.dataDir, { recursive: true, force: true });
  });

  it('comes back after the server restarts and replays what was committed meanwhile, each event once', { timeout: 120_000 }, async () => {
    server = new OwnServer(await freePort());
    await server.start();
    const base = server.base;
    const user = await register(base);
    expect((await callAs(base, user, 'POST', '/api/exchanges/bind', { exchangeId: 1, apiKey: 'paperKey12345678', secretKey: 'paperSecret12345678' })).code).toBe(1);
    const bot = (await callAs(base, user, 'POST', '/api/user/botCreate', { type: 'martin', exchangeId: 1, symbol: 'BTC/USDT', params: martin })).data.id as string;
    expect((await callAs(base, user, 'GET', `/api/user/botOperation?id=${bot}&action=start`)).code).toBe(1);

    // No service worker: the page's reconnects are held at the network below (a worker's fetches are not routed).
    phone = await openPhone(base, { serviceWorkers: 'block' });
    const { page, context } = phone;
    await context.addInitScript(() => (window.__liveLog = []));
    await storeSession(page, user);
    await page.goto(`/strategy/detail/${bot}`);
    await page.getByTestId('op-pause').waitFor();
    const log = () => page.evaluate(() => window.__liveLog ?? []);
    const state = async () => (await log()).filter((e) => e.t === 'state').at(-1)?.state;
    await expect.poll(state, { timeout: 15_000 }).toBe('up');

    // The page's reconnects wait at the network until the server is back and has committed a change.
    let release: () => void = () => undefined;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    await context.route('**/api/stream', async (route) => {
      await gate;
      await route.continue().catch(() => undefined);
    });
    await server.stop();
    await expect.poll(async () => (await log()).some((e) => e.t === 'end'), { timeout: 15_000 }).toBe(true);
    await server.start();
    // Committed while the page is away: the pause, after the restart.
    expect((await callAs(base, user, 'GET', `/api/user/botOperation?id=${bot}&action=pause`)).code).toBe(1);
    release();
    await context.unroute('**/api/stream');

    await expect.poll(state, { timeout: 30_000 }).toBe('up');
    await page.getByTestId('op-resume').waitFor({ timeout: 15_000 });
    const applied = (await log()).filter((e) => e.t === 'event' && e.applied);
    expect(applied.filter((e) => e.kind === 'bot').length).toBeGreaterThanOrEqual(1);
    // Each event applied once, in order: the numbers only ever grow.
    const ids = applied.map((e) => BigInt(e.id!));
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.every((id, i) => i === 0 || id > ids[i - 1]!)).toBe(true);
  });
});
