// GET /api/user/botList under load (autocannon, 50 connections) against a bare JSON route of the same
// server (GET /api/health, no database) in the same run: the issue asks for at least 50% of it.
import autocannon from 'autocannon';
import { measureServerReady, WIDE_RATE_LIMITS, WIDE_USER_LIMIT } from './server-ready.ts';
import { solvedChallengeAt } from '../server/security/challenge.ts';
import type { Answer, DataAt } from '../server/testing/test-support.ts';

async function load(url: string, headers: Record<string, string>, seconds: number): Promise<{ rps: number; p99: number; errors: number; non2xx: number }> {
  const r = await autocannon({ url, connections: 50, duration: seconds, headers });
  return { rps: Math.round(r.requests.average), p99: r.latency.p99, errors: r.errors, non2xx: r.non2xx };
}

export async function measureBotListLoad(port: number, seconds = 5) {
  const server = await measureServerReady(port, undefined, { ...WIDE_RATE_LIMITS, ...WIDE_USER_LIMIT });
  const base = `http://127.0.0.1:${port}/api`;
  try {
    const post = <P extends string>(path: P, body: object, token?: string) =>
      fetch(base + path, { method: 'POST', headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: JSON.stringify(body) }).then(
        (r) => r.json() as Promise<Answer<DataAt<'POST', `/api${P}`>>>,
      );
    const reg = await post('/login/register', {
      terminal: 1,
      account: `bench${Date.now().toString(36)}`,
      password: 'Secret2026x',
      confirm: 'Secret2026x',
      challenge: await solvedChallengeAt(`http://127.0.0.1:${port}`),
    });
    const token: string = reg.data.token;
    await post('/exchanges/bind', { exchangeId: 1, apiKey: 'paperkey01', secretKey: 'papersecret01' }, token);
    const params = { investment: '1000', firstOrder: '50', multiplier: '1.5', maxPositions: 5, addTrigger: '1', takeProfit: '1', repeat: true };
    const symbols = ['BTC/USDT', 'ETH/USDT', 'BNB/USDT', 'SOL/USDT', 'XRP/USDT'];
    for (let i = 0; i < 20; i++) {
      const bot = await post('/user/botCreate', { type: 'martin', exchangeId: 1, symbol: symbols[i % symbols.length], params }, token);
      if (i % 2 === 0) await fetch(`${base}/user/botOperation?id=${bot.data.id}&action=start`, { headers: { authorization: `Bearer ${token}` } });
    }
    const auth = { authorization: `Bearer ${token}` };
    await load(`${base}/health`, {}, 1); // warm-up
    await load(`${base}/user/botList`, auth, 1);
    const bare = await load(`${base}/health`, {}, seconds);
    const list = await load(`${base}/user/botList`, auth, seconds);
    return { bareJson: bare, botList: list, ratio: Math.round((list.rps / bare.rps) * 100) / 100, note: '50 connections, 20 bots (10 running), page of 10, PGlite' };
  } finally {
    await server.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(JSON.stringify(await measureBotListLoad(19_600 + Math.floor(Math.random() * 300)), null, 2));
