// `node bench/heavy-attack.ts [--postgres]`: heavy work thrown at the real server by traders with ordinary
// accounts, while another trader's bots trade and their calls are timed. The attack: 4 backtests of a
// custom bot with ten 500-period indicators over 90 days at once, and 100 starts of such bots (25 traders,
// 4 each: the most the indicator budget lets one trader run), plus one trader trying 30 on their own.
// On the request thread, 4 such backtests once stopped the engine's rounds for 18 s and every other
// call waited behind them. Targets: the engine still starts a round every tick (the longest interval
// between two rounds at most 2 x ENGINE_TICK_MS, read from /metrics), and the other trader's p99 < 100 ms.
import { measureOthers, postgresSchema } from './flood.ts';
import { measureServerReady, registerBenchUser, WIDE_RATE_LIMITS } from './server-ready.ts';
import { median, round } from './stats.ts';

const ATTACKERS = 25;
const BOTS_EACH = 4;
const BACKTESTS = 4;
const SOLO_STARTS = 30;

/** Ten long indicators: five on hourly candles in the buy rule, five on 4-hour candles in the sell rule (24,982 of the budget's 100,000). */
const long = (timeframe: string) => [
  { kind: 'rsi', period: 500, timeframe },
  { kind: 'ema', period: 500, timeframe },
  { kind: 'macd', line: 'signal', fast: 12, slow: 500, signal: 9, timeframe },
  { kind: 'sma', period: 500, timeframe },
  { kind: 'bb', band: 'upper', period: 490, deviation: '2', timeframe },
];
const heavy = {
  investment: '200',
  size: { kind: 'fixed', quote: '20' },
  entry: { join: 'and', conditions: long('1h').map((left) => ({ left, op: '<', right: { kind: 'price' } })) },
  exit: { join: 'or', conditions: long('4h').map((left) => ({ left, op: '>', right: { kind: 'price' } })) },
  takeProfit: '3',
  stopLoss: '',
  repeat: true,
};

type Answer = { code: number; data?: { id?: string | number } };

function client(base: string, token: string) {
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${token}` };
  return {
    get: (path: string) => fetch(base + path, { headers }).then((r) => r.json() as Promise<Answer>),
    post: (path: string, body: object) => fetch(base + path, { method: 'POST', headers, body: JSON.stringify(body) }).then((r) => r.json() as Promise<Answer>),
  };
}

/** The engine's round intervals from /metrics: how many, and how many of them in each bucket. */
async function intervals(base: string): Promise<Map<string, number>> {
  const text = await (await fetch(`${base}/metrics`)).text();
  const out = new Map<string, number>();
  for (const m of text.matchAll(/^quantbot_engine_round_interval_seconds_bucket\{le="([^"]+)"\} (\d+)/gm)) out.set(m[1]!, Number(m[2]));
  return out;
}

/** The event loop's longest delay since the last scrape (prom-client's monitorEventLoopDelay, reset at each scrape), ms. */
async function loopLagMaxMs(base: string): Promise<number> {
  const text = await (await fetch(`${base}/metrics`)).text();
  return round(Number(/^nodejs_eventloop_lag_max_seconds (\S+)/m.exec(text)?.[1] ?? Number.NaN) * 1000, 1);
}

/** Rounds started during the attack, those later than 2 x tick, and the longest interval's bucket. */
function lateness(before: Map<string, number>, after: Map<string, number>) {
  const delta = (le: string) => (after.get(le) ?? 0) - (before.get(le) ?? 0);
  const all = delta('+Inf');
  const within = [...after.keys()].filter((le) => le !== '+Inf' && delta(le) === all).map(Number);
  return { rounds: all, laterThan2Ticks: all - delta('2'), longestIntervalAtMostS: within.length > 0 ? Math.min(...within) : 'over 30' };
}

export async function measureHeavyAttack(port: number, options: { postgres?: boolean } = {}) {
  const pgSchema = options.postgres ? await postgresSchema() : undefined;
  const server = await measureServerReady(port, undefined, {
    ...WIDE_RATE_LIMITS,
    RATE_LIMIT_USER: '100000/1m',
    ENGINE_TICK_MS: '1000',
    ...(process.env.BENCH_THREADS ? { HEAVY_THREADS: process.env.BENCH_THREADS } : {}),
    ...(pgSchema ? { DATABASE_URL: pgSchema.url } : {}),
  });
  const base = `http://127.0.0.1:${port}`;
  try {
    // The trader whose calls are timed, with martin bots running (the engine's rounds price and evaluate them).
    const victim = await registerBenchUser(base, `victim${Date.now().toString(36)}`);
    const v = client(base, victim.token);
    if ((await v.post('/api/exchanges/bind', { exchangeId: 1, apiKey: 'paperkey01', secretKey: 'papersecret01' })).code !== 1) throw new Error('bind failed');
    for (const symbol of ['BTC/USDT', 'ETH/USDT', 'BNB/USDT']) {
      const made = await v.post('/api/user/botCreate', {
        type: 'martin',
        exchangeId: 1,
        symbol,
        params: { investment: '1000', firstOrder: '50', multiplier: '1.5', maxPositions: 5, addTrigger: '1', takeProfit: '1', repeat: true },
      });
      await v.get(`/api/user/botOperation?id=${made.data?.id}&action=start`);
    }
    // The attackers, each with their heavy bots made (stopped) before the attack.
    const attackers: { c: ReturnType<typeof client>; bots: string[] }[] = [];
    for (let i = 0; i < ATTACKERS; i++) {
      const c = client(base, (await registerBenchUser(base, `attacker${i}${Date.now().toString(36)}`)).token);
      await c.post('/api/exchanges/bind', { exchangeId: 1, apiKey: 'paperkey01', secretKey: 'papersecret01' });
      const bots: string[] = [];
      for (let b = 0; b < (i === 0 ? SOLO_STARTS : BOTS_EACH); b++) {
        const made = await c.post('/api/user/botCreate', { type: 'custom', exchangeId: 1, symbol: 'BTC/USDT', params: heavy });
        if (made.code !== 1) throw new Error(`create failed: ${JSON.stringify(made)}`);
        bots.push(String(made.data!.id));
      }
      attackers.push({ c, bots });
    }
    await measureOthers(base, victim.token, new Promise((r) => setTimeout(r, 1000))); // warm-up
    const quietBefore = await intervals(base);
    const quiet = await measureOthers(base, victim.token, new Promise((r) => setTimeout(r, 5000)));
    const quietRounds = lateness(quietBefore, await intervals(base));

    await loopLagMaxMs(base);
    const before = await intervals(base);
    const began = performance.now();
    const codes: Record<string, number> = {};
    const count = (a: Answer) => {
      codes[a.code] = (codes[a.code] ?? 0) + 1;
    };
    const backtestTimes: number[] = [];
    const backtests = attackers.slice(1, 1 + BACKTESTS).map(async ({ c }) => {
      const t = performance.now();
      count(await c.post('/api/strategy/backtest', { type: 'custom', exchangeId: 1, symbol: 'BTC/USDT', params: heavy, days: 90 }));
      backtestTimes.push(performance.now() - t);
    });
    const startTimes: number[] = [];
    const starts = attackers.flatMap(({ c, bots }) =>
      bots.map(async (id) => {
        const t = performance.now();
        count(await c.get(`/api/user/botOperation?id=${id}&action=start`));
        startTimes.push(performance.now() - t);
      }),
    );
    const attack = Promise.all([...backtests, ...starts]);
    const others = await measureOthers(base, victim.token, attack);
    const rounds = lateness(before, await intervals(base));
    const eventLoopLagMaxMs = await loopLagMaxMs(base);
    return {
      database: pgSchema ? 'PostgreSQL' : 'PGlite',
      target: 'round interval <= 2 x tick (2 s); other trader p99 < 100 ms',
      quiet: { others: quiet, rounds: quietRounds },
      attack: {
        seconds: round((performance.now() - began) / 1000, 1),
        answers: codes,
        backtestS: { median: round(median(backtestTimes) / 1000, 2), max: round(Math.max(...backtestTimes) / 1000, 2) },
        startS: { median: round(median(startTimes) / 1000, 2), max: round(Math.max(...startTimes) / 1000, 2) },
        others,
        rounds,
        eventLoopLagMaxMs,
      },
      note: `${BACKTESTS} custom backtests (ten 500-period indicators, 90 days) and ${ATTACKERS - 1} x ${BOTS_EACH} + ${SOLO_STARTS} starts of such bots at once; the other trader: logged-in GETs every 25 ms, 3 martin bots running`,
    };
  } finally {
    await server.stop();
    await pgSchema?.drop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(JSON.stringify(await measureHeavyAttack(19_650 + Math.floor(Math.random() * 100), { postgres: process.argv.includes('--postgres') }), null, 2));
}
