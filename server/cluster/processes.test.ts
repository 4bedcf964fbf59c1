import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Code } from '../../contract/codes.ts';
import { PG_URL, registerPayloadAt } from '../testing/test-support.ts';
import { clusterDatabase, clusterEnv, freePort, ServerProcess } from '../testing/process-support.ts';

/**
 * Two real server processes on a fresh PostgreSQL database. The AI search line is the
 * cluster's: one search per trader whichever process is asked, and the same place in line from either.
 * SIGTERM hands a process's bots and duties over at once: even while a slow request is in
 * flight on the process that stops (a manual command waiting 5 s for an owner that never takes it),
 * the other holds every one of its bots' leases within 2 s of the signal, and the request still gets
 * its answer. The AI test runs first: the second one stops process A.
 */
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const MARTIN = { investment: '600', firstOrder: '20', multiplier: '1', maxPositions: 30, addTrigger: '0.2', takeProfit: '0.1', repeat: true };

describe('two server processes on PostgreSQL', () => {
  let cluster: Awaited<ReturnType<typeof clusterDatabase>>;
  let db: pg.Client;
  let a: ServerProcess;
  let b: ServerProcess;

  beforeAll(async () => {
    cluster = await clusterDatabase(PG_URL, 'sigterm');
    // The default TTL (10 s): a handover that waited for it would show. A 10-day AI search takes a
    // second or more: long enough to look at the line while it runs.
    const env = clusterEnv(cluster.url, 10_000, { AI_SEARCH_DAYS: '10,2' });
    a = new ServerProcess(await freePort(), env);
    b = new ServerProcess(await freePort(), env);
    await a.start(); // migrates first
    await b.start();
    db = new pg.Client({ connectionString: cluster.url });
    await db.connect();
  }, 120_000);
  afterAll(async () => {
    for (const p of [a, b]) {
      await p?.signal('SIGKILL');
      if (p) rmSync(p.dataDir, { recursive: true, force: true });
    }
    await db?.end().catch(() => undefined);
    await cluster?.drop();
  });

  const call = async (node: ServerProcess, path: string, body?: object, token?: string) => {
    const headers: Record<string, string> = { ...(body ? { 'content-type': 'application/json' } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) };
    const r = await fetch(node.base + path, { method: body ? 'POST' : 'GET', headers, ...(body ? { body: JSON.stringify(body) } : {}) });
    return (await r.json()) as { code: number; msg: string; data: Record<string, unknown> & { token: string; id: string } };
  };
  const ok = async (node: ServerProcess, path: string, body?: object, token?: string) => {
    const answer = await call(node, path, body, token);
    if (answer.code !== 1) throw new Error(`${path}: ${answer.code} ${answer.msg}`);
    return answer.data;
  };
  const workerOf = async (p: ServerProcess) => String((await db.query<{ id: string }>('select id from workers where pid = $1', [p.pid])).rows[0]!.id);
  const leases = async (ids: string[]) =>
    new Map(
      (await db.query<{ bot_id: string; worker_id: string | null; epoch: string }>('select bot_id, worker_id, epoch from bot_leases where bot_id = any($1::bigint[])', [ids])).rows.map((r) => [
        String(r.bot_id),
        r,
      ]),
    );

  it('keeps one AI search per trader across the processes, and either tells the same place in line', { timeout: 120_000 }, async () => {
    const traders: string[] = [];
    for (const node of [a, a]) {
      const { token } = await ok(node, '/login/register', await registerPayloadAt(node.base.replace(/\/api$/, '')));
      await ok(node, '/exchanges/bind', { exchangeId: 1, apiKey: 'paperkey01', secretKey: 'papersecret01' }, token);
      traders.push(token);
    }
    const [one, two] = traders as [string, string];
    const searchOn = (node: ServerProcess, token: string) => call(node, '/strategy/aiSearch', { exchangeId: 1, symbol: 'ETH/USDT', investment: '1000', risk: 'balanced' }, token);
    const placeThrough = async (node: ServerProcess, token: string) => (await ok(node, '/strategy/aiQueue', undefined, token)) as unknown as { position: number | null; length: number };
    const first = searchOn(a, one);
    // Running on A; B, which runs nothing, tells the same.
    await expect.poll(async () => (await placeThrough(b, one)).position, { timeout: 15_000, interval: 20 }).toBe(0);
    // The trader's second search, through B: refused as one already running.
    expect((await searchOn(b, one)).code).toBe(Code.AiSearchUserBusy);
    // Another trader queued behind on A: second in A's line, through either process.
    const second = searchOn(a, two);
    await expect.poll(async () => (await placeThrough(b, two)).position, { timeout: 15_000, interval: 20 }).toBe(1);
    expect((await placeThrough(a, two)).position).toBe(1);
    expect((await first).code).toBe(1);
    expect((await second).code).toBe(1);
    for (const node of [a, b]) for (const token of traders) expect(await placeThrough(node, token)).toMatchObject({ position: null });
  });

  it('frees its bots and duties first: the other process holds them within 2 s, while a 5 s request is still answered', { timeout: 120_000 }, async () => {
    const wa = await workerOf(a);
    const wb = await workerOf(b);
    // Traders with a running martin bot each, until both processes own some (rendezvous hashing on the trader).
    const bots: string[] = [];
    let first: { token: string; node: ServerProcess } | undefined;
    for (let t = 0; t < 16; t++) {
      const node = t % 2 === 0 ? a : b;
      const { token } = await ok(node, '/login/register', await registerPayloadAt(node.base.replace(/\/api$/, '')));
      first ??= { token, node };
      await ok(node, '/exchanges/bind', { exchangeId: 1, apiKey: 'paperkey01', secretKey: 'papersecret01' }, token);
      const { id } = await ok(node, '/user/botCreate', { type: 'martin', exchangeId: 1, symbol: 'BTC/USDT', params: MARTIN }, token);
      await ok(node, `/user/botOperation?id=${id}&action=start`, undefined, token);
      bots.push(String(id));
      await expect.poll(async () => [...(await leases(bots)).values()].every((l) => l.worker_id !== null), { timeout: 15_000 }).toBe(true);
      const holders = [...(await leases(bots)).values()].map((l) => l.worker_id);
      if (t >= 3 && holders.filter((w) => w === wa).length >= 2 && holders.includes(wb)) break;
    }
    const before = await leases(bots);
    const ofA = bots.filter((id) => before.get(id)?.worker_id === wa);
    expect(ofA.length).toBeGreaterThanOrEqual(2);

    // The slow request: a manual add through A for a bot whose lease a live process holds that never
    // takes commands (a worker row of this test's, draining so it wins no bots, its heartbeat kept fresh).
    const fake = randomUUID();
    await db.query(`insert into workers (id, host, pid, draining) values ($1, 'test', 0, true)`, [fake]);
    const beat = setInterval(() => void db.query('update workers set heartbeat_at = now() where id = $1', [fake]).catch(() => undefined), 500);
    try {
      const { id: slowBot } = await ok(first!.node, '/user/botCreate', { type: 'martin', exchangeId: 1, symbol: 'BTC/USDT', params: MARTIN }, first!.token);
      await db.query('insert into bot_leases (bot_id, worker_id, epoch, granted_at) values ($1, $2, 1, now())', [slowBot, fake]);
      await ok(first!.node, `/user/botOperation?id=${slowBot}&action=start`, undefined, first!.token);
      const slow = call(a, `/user/botOperation?id=${slowBot}&action=add`, undefined, first!.token);
      await expect.poll(async () => (await db.query('select 1 from bot_commands where bot_id = $1', [slowBot])).rows.length, { timeout: 10_000 }).toBe(1);
      const duties = (await db.query<{ name: string }>('select name from singleton_leases where worker_id = $1', [wa])).rows.map((r) => r.name);

      const exited = new Promise<number | null>((r) => a.child!.once('exit', (code) => r(code)));
      const signalled = performance.now();
      a.child!.kill('SIGTERM');
      let botsMs = Number.NaN;
      let dutiesMs = duties.length === 0 ? 0 : Number.NaN;
      while (performance.now() - signalled < 15_000 && (Number.isNaN(botsMs) || Number.isNaN(dutiesMs))) {
        const now = await leases(ofA);
        if (Number.isNaN(botsMs) && ofA.every((id) => now.get(id)?.worker_id === wb && BigInt(now.get(id)!.epoch) > BigInt(before.get(id)!.epoch))) botsMs = performance.now() - signalled;
        if (Number.isNaN(dutiesMs)) {
          const { rows } = await db.query<{ name: string }>('select name from singleton_leases where worker_id = $1 and name = any($2::text[])', [wb, duties]);
          if (rows.length === duties.length) dutiesMs = performance.now() - signalled;
        }
        await sleep(20);
      }
      const answer = await slow;
      const code = await exited;
      console.info(
        `SIGTERM handover: ${ofA.length} bots leased by the other process after ${botsMs.toFixed(0)} ms, duties [${duties.join(', ')}] after ${dutiesMs.toFixed(0)} ms; the 5 s request answered ${answer.code}`,
      );
      expect(botsMs, 'every bot of the stopped process leased by the other (ms)').toBeLessThan(2000);
      expect(dutiesMs, 'its duties held by the other (ms)').toBeLessThan(2000);
      // The request in flight ran to its end (the command expired untaken) and the process exited cleanly.
      expect(answer.code).toBe(Code.Timeout);
      expect(code).toBe(0);
    } finally {
      clearInterval(beat);
    }
  });
});
