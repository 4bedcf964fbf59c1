import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Code } from '../../contract/codes.ts';
import { indicatorCost } from '../../strategy/custom/feed.ts';
import { ScriptedMarket } from '../testing/scripted.ts';
import { dbKinds, openTestApp, registerPayload, type TestApp } from '../testing/test-support.ts';
import { createTrading, type Trading } from '../trading.ts';
import { stopHeavyPool } from '../workers/heavy-pool.ts';

const rsi = (period: number) => ({ kind: 'rsi', period, timeframe: '1h' });
const botWith = (period: number) => ({
  investment: '100',
  size: { kind: 'fixed', quote: '10' },
  entry: { join: 'and', conditions: [{ left: rsi(period), op: '<', right: { kind: 'value', value: '30' } }] },
  takeProfit: '2',
  stopLoss: '',
  repeat: true,
});
/** RSI(n) keeps 11n + 1 closed candles: RSI(90) costs 991, RSI(14) 155. */
const BUDGET = 1_500;

/**
 * Custom bots' indicators cost the engine work for every closed candle and a warm-up at every start: a
 * trader's running bots share a budget of it (INDICATOR_BUDGET). A start past it is refused in words,
 * with what is used and the limit; other traders are not limited by it; a stopped bot frees its share;
 * two starts at once are counted one after the other.
 */
describe.each(dbKinds)('the indicator budget per trader (%s)', (kind) => {
  let t: TestApp;
  let trading: Trading;
  const market = new ScriptedMarket();
  const NOW = Date.UTC(2026, 5, 1, 8);
  const traders: Record<string, string>[] = [];
  const call = (who: number, method: 'GET' | 'POST', url: string, payload?: object) =>
    t.app.inject({ method, url, ...(payload ? { payload } : {}), headers: { ...traders[who]!, lang: 'en' } }).then((r) => r.json());
  const create = async (who: number, period: number) => {
    const r = await call(who, 'POST', '/api/user/botCreate', { type: 'custom', exchangeId: 1, symbol: 'BTC/USDT', params: botWith(period) });
    expect(r.code, JSON.stringify(r)).toBe(1);
    return String(r.data.id);
  };
  const start = (who: number, id: string) => call(who, 'GET', `/api/user/botOperation?id=${id}&action=start`);

  beforeAll(async () => {
    market.set('BTC/USDT', '60000');
    t = await openTestApp(kind, { config: { indicatorBudget: BUDGET }, trading: (db) => (trading = createTrading({ db, feed: market, now: () => NOW, tickMs: 3_600_000 })) });
    for (let i = 0; i < 2; i++) {
      const r = await t.app.inject({ method: 'POST', url: '/api/login/register', payload: await registerPayload(t.app) });
      traders.push({ authorization: `Bearer ${r.json().data.token}` });
      expect((await call(i, 'POST', '/api/exchanges/bind', { exchangeId: 1, apiKey: 'paperkey01', secretKey: 'papersecret01' })).code).toBe(1);
    }
  });
  afterAll(async () => {
    await trading.engine.stop();
    await stopHeavyPool();
    await t.close();
  });

  it('counts each distinct indicator’s closed candles once', () => {
    expect(indicatorCost(botWith(90) as never)).toBe(991);
    const twice = { entry: { join: 'or', conditions: [{ left: rsi(14), op: '<', right: rsi(14) }] }, exit: { join: 'or', conditions: [{ left: rsi(14), op: '>', right: { kind: 'price' } }] } };
    expect(indicatorCost(twice as never)).toBe(155);
  });

  it('refuses a start past the budget in words, spares other traders, and frees a stopped bot’s share', async () => {
    const first = await create(0, 90);
    const second = await create(0, 90);
    const third = await create(0, 14);
    expect((await start(0, first)).code).toBe(1);
    const refused = await start(0, second);
    expect(refused).toMatchObject({ code: Code.IndicatorBudgetExceeded });
    expect(refused.msg).toContain('1982 of 1500');
    expect(refused.msg).toMatch(/shorter indicator periods|fewer timeframes/);
    // Within what is left: 991 + 155.
    expect((await start(0, third)).code).toBe(1);
    // Another trader has a budget of their own.
    const theirs = await create(1, 90);
    expect((await start(1, theirs)).code).toBe(1);
    // Stopping a bot gives its share back.
    expect((await call(0, 'GET', `/api/user/botOperation?id=${first}&action=stop`)).code).toBe(1);
    expect((await start(0, second)).code).toBe(1);
    for (const id of [second, third]) await call(0, 'GET', `/api/user/botOperation?id=${id}&action=stop`);
    await call(1, 'GET', `/api/user/botOperation?id=${theirs}&action=stop`);
  });

  it('counts two starts at once one after the other: one of them is refused', async () => {
    const a = await create(0, 90);
    const b = await create(0, 91);
    const answers = await Promise.all([start(0, a), start(0, b)]);
    expect(answers.map((r) => r.code).sort()).toEqual([1, Code.IndicatorBudgetExceeded].sort());
  });
});
