// `node bench/signal-latency.ts [n]`: a signal from the webhook to the order sent on Paper (target:
// < 50 ms median). The app on an in-memory PGlite over real loopback HTTP, its engine on a
// scripted market; a DCA bot waiting for its schedule takes `n` alerts (default 40), buy and close in
// turn, each a new id. Timed from the request's send to its answer, which the server gives only after
// the order was sent to Paper, filled and recorded (an upper bound of "to the order sent"). Prints
// {median, p95, n} in ms as JSON.
import { randomBytes } from 'node:crypto';
import { readConfig } from '../server/config.ts';
import { migrate, openDatabase } from '../server/db/connect.ts';
import { buildApp } from '../server/http/app.ts';
import { ScriptedMarket } from '../server/testing/scripted.ts';
import { SecretBox } from '../server/security/secret-box.ts';
import { solvedChallengeAt } from '../server/security/challenge.ts';
import { createTrading } from '../server/trading.ts';
import { median, percentile, round } from './stats.ts';

const WARM_UP = 6;

/** Times `n` signals against a fresh app; the milliseconds of each round trip after the warm-up. */
export async function measureSignals(count = 40): Promise<number[]> {
  const db = await openDatabase();
  await migrate(db);
  const defaults = readConfig({});
  // The latency of one signal, not the webhook's budgets: no gap between acting signals, and room for all of them in the bot's budget.
  const config = { ...defaults, logLevel: 'silent', staticDir: '/nonexistent', signalGapMs: 0, rateLimits: { ...defaults.rateLimits, signal: { max: 10_000, windowMs: 60_000 } } };
  const market = new ScriptedMarket();
  market.set('BTC/USDT', '60000');
  const trading = createTrading({ db, feed: market, now: () => Date.UTC(2026, 10, 1) });
  const app = await buildApp({ db, config, box: new SecretBox(randomBytes(32)), trading });
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  try {
    const post = async (path: string, body: unknown, token?: string) => {
      const r = await fetch(`${base}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify(body),
      });
      return (await r.json()) as { code: number; msg: string; data: Record<string, string> };
    };
    const get = async (path: string, token: string) =>
      (await (await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${token}` } })).json()) as { code: number; data: Record<string, string> };
    const password = 'Bench2026x';
    const reg = await post('/api/login/register', { terminal: 1, account: `sig${Date.now().toString(36)}`, password, confirm: password, challenge: await solvedChallengeAt(base) });
    const token = reg.data.token!;
    await post('/api/exchanges/bind', { exchangeId: 1, apiKey: 'paperkey01', secretKey: 'papersecret01' }, token);
    const params = { investment: '320', baseOrder: '20', safetyOrder: '20', maxSafetyOrders: 4, deviation: '1.5', stepScale: '1.5', volumeScale: '2', takeProfit: '1.5', stopLoss: '', cooldown: 0 };
    const bot = await post(
      '/api/user/botCreate',
      { type: 'dca', exchangeId: 1, symbol: 'BTC/USDT', params: { ...params, start: { kind: 'schedule', every: 'day', time: '12:00', utcOffset: 0 } } },
      token,
    );
    if (bot.code !== 1) throw new Error(`bot not created: ${bot.msg}`);
    await get(`/api/user/botOperation?id=${bot.data.id}&action=start`, token);
    const hook = await post('/api/user/botWebhookReset', { id: bot.data.id }, token);
    const times: number[] = [];
    for (let i = 0; i < count + WARM_UP; i++) {
      const t = performance.now();
      const r = await post(hook.data.path!, { action: i % 2 === 0 ? 'buy' : 'close', id: `bench-${i}` });
      const ms = performance.now() - t;
      if (r.code !== 1 || r.data.result !== 'placed') throw new Error(`signal ${i} not placed: ${JSON.stringify(r)}`);
      if (i >= WARM_UP) times.push(ms);
    }
    return times;
  } finally {
    await app.close();
    await trading.engine.stop();
    await db.destroy();
  }
}

if (import.meta.main) {
  const times = await measureSignals(Number(process.argv[2] ?? 40));
  console.log(JSON.stringify({ signalToOrderMs: { median: round(median(times), 2), p95: round(percentile(times, 0.95), 2), n: times.length } }));
}
