// Live streams: the memory each idle stream costs the server, and the time from an event's commit to its
// frame on a reading client. `node bench/streams.ts [idleStreams]` (default 10,000) prints JSON.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { openDatabase, migrate, type Db } from '../server/db/connect.ts';
import type { Trading } from '../server/trading.ts';
import { buildApp } from '../server/http/app.ts';
import { StreamHub } from '../server/events/hub.ts';
import { inTransaction, later } from '../server/events/outbox.ts';
import { SecretBox } from '../server/security/secret-box.ts';
import { resolveSession } from '../server/services/sessions.ts';
import { openTestStream } from '../server/testing/stream-client.ts';
import { registerPayload, testChallenge, testRateLimits } from '../server/testing/test-support.ts';
import { defaultLimits } from '../server/config.ts';
import { median, percentile, round } from './stats.ts';

/** Opens `n` idle streams from a child process (its sockets and buffers are not the server's), answering once all are open. */
export function idleClients(base: string, token: string, n: number): Promise<{ stop: () => void }> {
  const script = `
    const http = require('node:http');
    const [base, token, n] = process.argv.slice(1);
    const url = new URL(base + '/api/stream');
    let open = 0;
    const one = () => new Promise((resolve, reject) => {
      const req = http.get({ host: url.hostname, port: url.port, path: url.pathname, agent: false, headers: { authorization: 'Bearer ' + token } }, (res) => {
        res.once('data', () => resolve());
        res.on('data', () => {});
      });
      req.on('error', reject);
    });
    (async () => {
      for (let i = 0; i < Number(n); i += 200) {
        await Promise.all(Array.from({ length: Math.min(200, Number(n) - i) }, one));
        open = i + 200;
      }
      process.stdout.write('open\\n');
    })().catch((e) => { process.stdout.write('error ' + e.message + '\\n'); });
  `;
  const child = spawn(process.execPath, ['-e', script, base, token, String(n)], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => {
      const text = d.toString();
      if (text.startsWith('open')) resolve({ stop: () => child.kill('SIGKILL') });
      else if (text.startsWith('error')) reject(new Error(text));
    });
  });
}

/** The app on `db` with `hub`, quiet, its per-trader limit out of the way of a bench's many streams. */
export function benchApp(db: Db, hub: StreamHub, trading?: Trading) {
  return buildApp({
    db,
    box: new SecretBox(randomBytes(32)),
    hub,
    ...(trading ? { trading } : {}),
    config: {
      sessionTtlMs: 86_400_000,
      limits: defaultLimits,
      staticDir: '/nonexistent',
      logLevel: 'silent',
      serverIps: [],
      publicOrigins: ['http://localhost'],
      challenge: testChallenge,
      rateLimits: { ...testRateLimits(), user: { max: 1_000_000, windowMs: 60_000 } },
    },
  });
}

export async function measureStreams(idle = 10_000, events = 200): Promise<Record<string, unknown>> {
  const db = await openDatabase({});
  await migrate(db);
  const hub = new StreamHub(db, { maxPerUser: idle + 10 });
  const app = await benchApp(db, hub);
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  const r = await app.inject({ method: 'POST', url: '/api/login/register', payload: await registerPayload(app) });
  const token = r.json().data.token as string;
  const userId = (await resolveSession(db, token)).userId;

  // Commit to frame: one reading stream, events committed one at a time.
  const reader = await openTestStream(base, token);
  await reader.until((f) => f.some((x) => x.type === 'ready'));
  const latencies: number[] = [];
  for (let i = 0; i < events; i++) {
    const seen = reader.frames.length;
    const started = performance.now();
    await inTransaction(db, (tx) => later(tx, userId, { kind: 'balance', asset: 'usdt' }));
    await reader.until((f) => f.length > seen, 5000);
    latencies.push(performance.now() - started);
  }
  reader.close();

  // Idle streams: the server's memory before and after, each stream's heartbeat-only cost.
  global.gc?.();
  const before = process.memoryUsage();
  const clients = await idleClients(base, token, idle);
  global.gc?.();
  await new Promise((r) => setTimeout(r, 500));
  global.gc?.();
  const after = process.memoryUsage();
  const open = hub.count();
  // With every idle stream open, an event still reaches a reader at once.
  const busyReader = await openTestStream(base, token);
  await busyReader.until((f) => f.some((x) => x.type === 'ready'), 20_000);
  const busy: number[] = [];
  for (let i = 0; i < 20; i++) {
    const seen = busyReader.frames.length;
    const started = performance.now();
    await inTransaction(db, (tx) => later(tx, userId, { kind: 'balance', asset: 'usdt' }));
    await busyReader.until((f) => f.length > seen, 20_000);
    busy.push(performance.now() - started);
  }
  busyReader.close();
  clients.stop();
  await app.close();
  await db.destroy();
  return {
    commitToFrameMs: { median: round(median(latencies), 2), p95: round(percentile(latencies, 0.95), 2), n: latencies.length },
    idleStreams: open,
    bytesPerIdleStream: { rss: Math.round((after.rss - before.rss) / open), heap: Math.round((after.heapUsed - before.heapUsed) / open) },
    // Every one of the idle streams is the same user's here: an event is written to all of them.
    commitToFrameWithIdleOfOneUserMs: { median: round(median(busy), 2), p95: round(percentile(busy, 0.95), 2), n: busy.length },
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const n = Number(process.argv[2] ?? 10_000);
  console.log(JSON.stringify(await measureStreams(n), null, 2));
  process.exit(0);
}
