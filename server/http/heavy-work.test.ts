import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Code } from '../../contract/codes.ts';
import { SimulatedMarket } from '../market/simulated.ts';
import { openTestApp, registerPayload, type TestApp } from '../testing/test-support.ts';
import { createTrading, type Trading } from '../trading.ts';
import { configureHeavyPool, defaultHeavyOptions, stopHeavyPool } from '../workers/heavy-pool.ts';

const NOW = Date.UTC(2026, 10, 1);

/** Five long indicators on 1-minute candles, in both rules: within the schema, and seconds of work over 30 days. */
const long = [
  { kind: 'sma', period: 500, timeframe: '1m' },
  { kind: 'bb', band: 'upper', period: 500, deviation: '2', timeframe: '1m' },
  { kind: 'bb', band: 'lower', period: 499, deviation: '2', timeframe: '1m' },
  { kind: 'sma', period: 498, timeframe: '1m' },
  { kind: 'rsi', period: 500, timeframe: '1m' },
];
const heavy = {
  investment: '1000',
  size: { kind: 'fixed', quote: '100' },
  entry: { join: 'or', conditions: long.map((left) => ({ left, op: 'crossesAbove', right: { kind: 'price' } })) },
  exit: { join: 'or', conditions: long.map((left) => ({ left, op: 'crossesBelow', right: { kind: 'price' } })) },
  takeProfit: '',
  stopLoss: '',
  repeat: true,
};

/**
 * A backtest is heavy work (seconds of CPU for a custom bot with long indicators over 30 days): it runs
 * in the heavy-work pool's threads, so while one runs, another trader's calls answer as fast as ever. On
 * the request's thread, every other call waited for it to finish (the engine's rounds too).
 */
describe('heavy work off the event loop', () => {
  let t: TestApp;
  const feed = new SimulatedMarket();
  const users: Record<string, string>[] = [];
  let trading: Trading;

  beforeAll(async () => {
    // One thread, as on a 2-core server: the order of the turns is then the order of the answers.
    await stopHeavyPool();
    configureHeavyPool({ ...defaultHeavyOptions(), threads: 1 });
    t = await openTestApp('pglite', { trading: (db) => (trading = createTrading({ db, feed, now: () => NOW, tickMs: 3_600_000 })) });
    for (let i = 0; i < 2; i++) {
      const r = await t.app.inject({ method: 'POST', url: '/api/login/register', payload: await registerPayload(t.app) });
      users.push({ authorization: `Bearer ${r.json().data.token}` });
    }
  });
  afterAll(async () => {
    await trading.engine.stop();
    await stopHeavyPool();
    await t.close();
  });

  const backtest = (headers: Record<string, string>, days = 30) =>
    t.app.inject({ method: 'POST', url: '/api/strategy/backtest', headers, payload: { type: 'custom', exchangeId: 1, symbol: 'BTC/USDT', params: heavy, days } }).then((r) => r.json());

  // Seconds of work on a quiet machine; on a loaded 2-core one (the whole suite at once) several times that.
  it('another trader’s calls answer while a heavy backtest runs', { timeout: 120_000 }, async () => {
    await backtest(users[0]!, 7); // the thread started and its code loaded: the figure below is the work
    const started = performance.now();
    let finished = 0;
    // 90 days of minutes: a few hundred milliseconds of work at the least, on a fast machine too.
    const running = backtest(users[0]!, 90).then((r) => {
      finished = performance.now();
      return r;
    });
    const waits: number[] = [];
    while (finished === 0) {
      const asked = performance.now();
      const r = await t.app.inject({ method: 'GET', url: '/api/user/botList', headers: users[1]! });
      waits.push(performance.now() - asked);
      expect(r.json().code).toBe(1);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const answer = await running;
    expect(answer.code, JSON.stringify(answer)).toBe(1);
    const took = finished - started;
    // The backtest is real work (on the request's thread it held every call up for all of it) ...
    expect(took).toBeGreaterThan(500);
    expect(waits.length).toBeGreaterThan(5);
    // ... and the other trader's slowest call took a small part of it.
    expect(Math.max(...waits)).toBeLessThan(Math.max(150, took / 4));
  });

  it('a trader’s backtests queue behind their own: a few at a time, more refused at once in words, others served in turn', async () => {
    const finished: string[] = [];
    const noted = (name: string) => (r: { code: number }) => {
      finished.push(name);
      return r;
    };
    const mine = [0, 1, 2].map((i) => backtest(users[0]!).then(noted(`mine ${i}`)));
    await new Promise((resolve) => setTimeout(resolve, 50));
    const refused = await t.app.inject({
      method: 'POST',
      url: '/api/strategy/backtest',
      headers: { ...users[0]!, lang: 'en' },
      payload: { type: 'custom', exchangeId: 1, symbol: 'BTC/USDT', params: heavy, days: 30 },
    });
    expect(refused.json()).toMatchObject({ code: Code.BacktestQueueFull, msg: expect.stringContaining('3 backtests') });
    // Another trader is not refused for it, and their backtest, asked last, runs before the first trader's third.
    const theirs = await backtest(users[1]!, 7).then(noted('theirs'));
    expect(theirs.code).toBe(1);
    for (const r of await Promise.all(mine)) expect(r.code).toBe(1);
    expect(finished.indexOf('theirs')).toBeLessThan(finished.indexOf('mine 2'));
  });

  it('answers a custom bot’s start at once while its warm-up waits its turn, and trades it once warmed up', async () => {
    const owner = users[1]!;
    const post = (url: string, payload: object) => t.app.inject({ method: 'POST', url, headers: owner, payload }).then((r) => r.json());
    expect((await post('/api/exchanges/bind', { exchangeId: 1, apiKey: 'paperkey01', secretKey: 'papersecret01' })).code).toBe(1);
    const id = String((await post('/api/user/botCreate', { type: 'custom', exchangeId: 1, symbol: 'BTC/USDT', params: heavy })).data.id);
    // Another trader's backtest holds the one thread: the warm-up waits behind it.
    let backtestDone = 0;
    const busy = backtest(users[0]!).then((r) => {
      backtestDone = performance.now();
      return r;
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const started = await t.app.inject({ url: `/api/user/botOperation?id=${id}&action=start`, headers: owner }).then((r) => r.json());
    const answeredAt = performance.now();
    expect(started.code).toBe(1);
    expect((await busy).code).toBe(1);
    // Answered while the backtest still held the thread (on the old path the answer waited for the warm-up behind it).
    expect(answeredAt).toBeLessThan(backtestDone);
    await trading.engine.idle();
    // Warmed up: its feed holds indicator values (the 500-period SMA over the minutes before the start).
    const state = trading.engine.stateOf(id) as { feed?: { values: Float64Array } } | undefined;
    expect(state?.feed?.values.some((v, i) => i > 0 && Number.isFinite(v))).toBe(true);
  });
});
