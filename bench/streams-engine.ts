// Does serving live streams slow the engine? 100 Paper bots (10 traders, martin) trade on a scripted swing;
// the engine's rounds (engine.tick() and the decisions it caused, to the end: engine.idle()) are timed
// without streams, then with 2,000 streams open (200 per trader, from a child process) that carry every
// event the bots make. `node bench/streams-engine.ts [rounds]` (default 40 each) prints JSON. The target:
// the median round with the streams within 10 % of the one without.
import { openDatabase, migrate } from '../server/db/connect.ts';
import { StreamHub } from '../server/events/hub.ts';
import { ScriptedMarket } from '../server/testing/scripted.ts';
import { registerPayload } from '../server/testing/test-support.ts';
import { createTrading } from '../server/trading.ts';
import { benchApp, idleClients } from './streams.ts';
import { median, percentile, round } from './stats.ts';

const params = { investment: '1000', firstOrder: '10', multiplier: '1', maxPositions: 20, addTrigger: '0.5', takeProfit: '0.5', repeat: true };

export async function measureStreamsBesideBots(rounds = 40, traders = 10, botsEach = 10, streamsEach = 200): Promise<Record<string, unknown>> {
  const db = await openDatabase({});
  await migrate(db);
  const market = new ScriptedMarket();
  market.set('BTC/USDT', '50000');
  const trading = createTrading({ db, feed: market });
  const hub = new StreamHub(db, { maxPerUser: streamsEach + 10 });
  const app = await benchApp(db, hub, trading);
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  const tokens: string[] = [];
  for (let t = 0; t < traders; t++) {
    const r = await app.inject({ method: 'POST', url: '/api/login/register', payload: await registerPayload(app) });
    const token = r.json().data.token as string;
    tokens.push(token);
    const headers = { authorization: `Bearer ${token}` };
    await app.inject({ method: 'POST', url: '/api/exchanges/bind', headers, payload: { exchangeId: 1, apiKey: 'paperkey01', secretKey: 'papersecret01' } });
    for (let b = 0; b < botsEach; b++) {
      const id = (await app.inject({ method: 'POST', url: '/api/user/botCreate', headers, payload: { type: 'martin', exchangeId: 1, symbol: 'BTC/USDT', params } })).json().data.id as string;
      await app.inject({ method: 'GET', url: `/api/user/botOperation?id=${id}&action=start`, headers });
    }
  }
  // A swing of +-1.5 % every 12 rounds: the bots open, add and take profit all along, each a few events.
  let step = 0;
  const roundsOf = async (n: number) => {
    const times: number[] = [];
    for (let i = 0; i < n; i++) {
      market.set('BTC/USDT', (50_000 * (1 + 0.015 * Math.sin((step++ * Math.PI) / 6))).toFixed(2));
      const started = performance.now();
      await trading.engine.tick();
      await trading.engine.idle();
      times.push(performance.now() - started);
    }
    return times;
  };
  const eventsNow = async () =>
    Number(
      (
        await db
          .selectFrom('user_events')
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  await roundsOf(12); // warm-up: every bot opened
  const e0 = await eventsNow();
  const without = await roundsOf(rounds);
  const e1 = await eventsNow();
  const clients = await Promise.all(tokens.map((t) => idleClients(base, t, streamsEach)));
  const open = hub.count();
  const withStreams = await roundsOf(rounds);
  const e2 = await eventsNow();
  for (const c of clients) c.stop();
  await trading.engine.stop();
  await app.close();
  await db.destroy();
  const a = median(without);
  const b = median(withStreams);
  return {
    bots: traders * botsEach,
    streams: open,
    roundMsWithout: { median: round(a, 1), p95: round(percentile(without, 0.95), 1), events: e1 - e0 },
    roundMsWithStreams: { median: round(b, 1), p95: round(percentile(withStreams, 0.95), 1), events: e2 - e1, framesWritten: (e2 - e1) * streamsEach },
    ratio: round(b / a, 3),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(JSON.stringify(await measureStreamsBesideBots(Number(process.argv[2] ?? 40)), null, 2));
  process.exit(0);
}
