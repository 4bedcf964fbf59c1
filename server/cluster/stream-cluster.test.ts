import { rmSync } from 'node:fs';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clusterDatabase, clusterEnv, freePort, ServerProcess } from '../testing/process-support.ts';
import { openTestStream, type TestStream } from '../testing/stream-client.ts';
import { PG_URL, registerPayloadAt } from '../testing/test-support.ts';

const params = { investment: '1000', firstOrder: '10', multiplier: '1', maxPositions: 5, addTrigger: '2', takeProfit: '2', repeat: true };

describe('the live stream across two server processes on PostgreSQL', () => {
  let cluster: Awaited<ReturnType<typeof clusterDatabase>>;
  let db: pg.Client;
  let a: ServerProcess;
  let b: ServerProcess;

  beforeAll(async () => {
    cluster = await clusterDatabase(PG_URL, 'stream');
    const env = clusterEnv(cluster.url, 10_000);
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

  const origin = (p: ServerProcess) => p.base.replace(/\/api$/, '');
  const ok = async (node: ServerProcess, path: string, body?: object, token?: string) => {
    const headers: Record<string, string> = { ...(body ? { 'content-type': 'application/json' } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) };
    const r = await fetch(node.base + path, { method: body ? 'POST' : 'GET', headers, ...(body ? { body: JSON.stringify(body) } : {}) });
    const answer = (await r.json()) as { code: number; msg: string; data: Record<string, unknown> & { token: string; id: string } };
    if (answer.code !== 1) throw new Error(`${path}: ${answer.code} ${answer.msg}`);
    return answer.data;
  };
  const trader = async (node: ServerProcess) => {
    const { token } = await ok(node, '/login/register', await registerPayloadAt(origin(node)));
    await ok(node, '/exchanges/bind', { exchangeId: 1, apiKey: 'paperkey01', secretKey: 'papersecret01' }, token);
    const { id } = await ok(node, '/user/botCreate', { type: 'martin', exchangeId: 1, symbol: 'BTC/USDT', params }, token);
    const userId = String((await db.query<{ user_id: string }>('select user_id from bots where id = $1', [id])).rows[0]!.user_id);
    return { token, bot: String(id), userId };
  };
  const logged = async (userId: string) => (await db.query<{ seq: string }>('select seq from user_events where user_id = $1 order by seq', [userId])).rows.map((r) => String(r.seq));
  const idsOf = (s: TestStream) => s.frames.flatMap((f) => (f.type === 'event' ? [f.id] : []));

  it("carries events committed on either process, survives its process's SIGKILL by resuming on the other, and never mixes traders", { timeout: 120_000 }, async () => {
    const one = await trader(a);
    const two = await trader(b);
    // One's stream on A; Two's on B.
    const first = await openTestStream(origin(a), one.token);
    const twos = await openTestStream(origin(b), two.token);
    await first.until((f) => f.some((x) => x.type === 'ready'), 10_000);
    await twos.until((f) => f.some((x) => x.type === 'ready'), 10_000);
    const head = Number(first.frames[0]!.id);
    // Commands through B: their events (committed on B) reach the stream on A.
    await ok(b, `/user/botOperation?id=${one.bot}&action=start`, undefined, one.token);
    await ok(b, `/user/botOperation?id=${one.bot}&action=pause`, undefined, one.token);
    await first.until((f) => f.filter((x) => x.type === 'event' && x.event.kind === 'bot').length >= 2, 10_000);
    // A dies mid-stream while B goes on committing One's events.
    await a.signal('SIGKILL');
    await first.ended;
    const seen = idsOf(first);
    for (let i = 0; i < 3; i++) {
      await ok(b, `/user/botOperation?id=${one.bot}&action=resume`, undefined, one.token);
      await ok(b, `/user/botOperation?id=${one.bot}&action=pause`, undefined, one.token);
    }
    // The reconnect goes to B with the last id it applied: what was missed comes once, then live ones.
    const second = await openTestStream(origin(b), one.token, seen.at(-1) ?? String(head));
    await second.until((f) => f.some((x) => x.type === 'ready'), 10_000);
    await ok(b, `/user/botOperation?id=${one.bot}&action=resume`, undefined, one.token);
    const all = await logged(one.userId);
    await second.until(() => [...seen, ...idsOf(second)].at(-1) === all.at(-1), 10_000);
    const received = [...seen, ...idsOf(second)];
    // Exactly the events logged after the stream began: none lost, none doubled, in order.
    expect(received).toEqual(all.filter((id) => Number(id) > head));
    expect(new Set(received).size).toBe(received.length);
    // Two heard none of One's events.
    expect(twos.events().filter((e) => 'bot' in e && e.bot === one.bot)).toEqual([]);
    second.close();
    twos.close();
  });
});
