// GET /api/user/botList requests per second with 1 and with 2 server processes on one
// PostgreSQL database (a fresh one, quantbot_bench_list_<random>, created and dropped here), one
// SECRET_KEY for both. A trader with Paper bound and 20 bots (10 running), as bench/bot-list-load.ts;
// autocannon from this process, 50 connections in all: 50 to the one process, then 25 to each of the
// two (each process answers from its own cached page, invalidated across processes by NOTIFY). A bare
// GET /api/health (no database) is measured the same way for the ceiling of the machine.
// `node bench/bot-list-cluster.ts` (Node 24); in `npm run bench`. Needs the machine's PostgreSQL.
import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import autocannon from 'autocannon';
import pg from 'pg';
import { PG_URL } from '../server/testing/test-support.ts';
import { measureServerReady, registerBenchUser, WIDE_RATE_LIMITS, WIDE_USER_LIMIT } from './server-ready.ts';
import { median } from './stats.ts';

interface Load {
  rps: number;
  p99: number;
  errors: number;
  non2xx: number;
}

function load(url: string, connections: number, seconds: number, headers: Record<string, string> = {}): Promise<Load> {
  return autocannon({ url, connections, duration: seconds, headers }).then((r) => ({ rps: Math.round(r.requests.average), p99: r.latency.p99, errors: r.errors, non2xx: r.non2xx }));
}

/** The same load spread over the processes at once; requests per second summed, the worst p99. */
async function spread(bases: string[], path: string, seconds: number, headers: Record<string, string> = {}) {
  const each = await Promise.all(bases.map((b) => load(b + path, Math.round(50 / bases.length), seconds, headers)));
  return {
    rps: each.reduce((s, l) => s + l.rps, 0),
    perProcess: each.map((l) => l.rps),
    p99: Math.max(...each.map((l) => l.p99)),
    errors: each.reduce((s, l) => s + l.errors + l.non2xx, 0),
  };
}

export async function measureBotListCluster(port: number, seconds = 5, runs = 3) {
  const name = `quantbot_bench_list_${randomBytes(3).toString('hex')}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const env = { ...WIDE_RATE_LIMITS, ...WIDE_USER_LIMIT, DATABASE_URL: Object.assign(new URL(PG_URL), { pathname: `/${name}` }).toString(), SECRET_KEY: randomBytes(32).toString('base64') };
  const servers: { stop: () => Promise<void> }[] = [];
  try {
    servers.push(await measureServerReady(port, undefined, env));
    const one = `http://127.0.0.1:${port}`;
    const { token } = await registerBenchUser(one, `list${Date.now().toString(36)}`);
    const auth = { authorization: `Bearer ${token}` };
    const call = (path: string, body?: object) =>
      fetch(`${one}/api${path}`, {
        method: body ? 'POST' : 'GET',
        headers: { ...auth, ...(body ? { 'content-type': 'application/json' } : {}) },
        ...(body ? { body: JSON.stringify(body) } : {}),
      }).then((r) => r.json() as Promise<{ code: number; data: { id: string } }>);
    await call('/exchanges/bind', { exchangeId: 1, apiKey: 'paperkey01', secretKey: 'papersecret01' });
    const params = { investment: '1000', firstOrder: '50', multiplier: '1.5', maxPositions: 5, addTrigger: '1', takeProfit: '1', repeat: true };
    const symbols = ['BTC/USDT', 'ETH/USDT', 'BNB/USDT', 'SOL/USDT', 'XRP/USDT'];
    for (let i = 0; i < 20; i++) {
      const bot = await call('/user/botCreate', { type: 'martin', exchangeId: 1, symbol: symbols[i % symbols.length], params });
      if (bot.code !== 1) throw new Error(`botCreate: ${JSON.stringify(bot)}`);
      if (i % 2 === 0) await call(`/user/botOperation?id=${bot.data.id}&action=start`);
    }
    const list = '/api/user/botList';
    const measure = async (bases: string[]) => {
      await spread(bases, '/api/health', 1); // warm-up
      await spread(bases, list, 1, auth);
      return { health: await spread(bases, '/api/health', seconds), botList: await spread(bases, list, seconds, auth) };
    };
    // Interleaved: one process, then a second one started beside it, then stopped again; `runs` times.
    const single: Awaited<ReturnType<typeof measure>>[] = [];
    const double: Awaited<ReturnType<typeof measure>>[] = [];
    for (let r = 0; r < runs; r++) {
      single.push(await measure([one]));
      const second = await measureServerReady(port + 1, undefined, env);
      servers.push(second);
      double.push(await measure([one, `http://127.0.0.1:${port + 1}`]));
      await second.stop();
      servers.pop();
    }
    const med = (list: number[]) => median(list);
    const summary = (all: typeof single) => ({
      botListRps: med(all.map((m) => m.botList.rps)),
      botListRuns: all.map((m) => m.botList.rps),
      botListPerProcess: all.map((m) => m.botList.perProcess),
      botListP99Ms: med(all.map((m) => m.botList.p99)),
      healthRps: med(all.map((m) => m.health.rps)),
      errors: all.reduce((s, m) => s + m.botList.errors + m.health.errors, 0),
    });
    const a = summary(single);
    const b = summary(double);
    return {
      oneProcess: a,
      twoProcesses: b,
      botListRatio: Math.round((b.botListRps / a.botListRps) * 100) / 100,
      loadAverage: loadavg().map((l) => Math.round(l * 10) / 10),
      note: `medians of ${runs} interleaved runs, ${seconds} s each after a 1 s warm-up, 50 connections in all from one autocannon process; 20 bots (10 running), page of 10; PostgreSQL, a fresh database; 2 cores for the servers, autocannon and PostgreSQL`,
    };
  } finally {
    for (const s of servers) await s.stop();
    await admin.query(`drop database if exists ${name} with (force)`).catch(() => undefined);
    await admin.end();
  }
}

if (import.meta.main) console.log(JSON.stringify(await measureBotListCluster(19_700 + Math.floor(Math.random() * 200)), null, 2));
