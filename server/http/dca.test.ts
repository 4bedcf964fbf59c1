import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Code } from '../../contract/codes.ts';
import { dcaReport } from '../../strategy/backtest-report.ts';
import { ScriptedMarket } from '../market/scripted.ts';
import { SimulatedMarket } from '../market/simulated.ts';
import { openTestApp, registerPayload, type TestApp } from '../test-support.ts';
import { createTrading, type Trading } from '../trading.ts';

/** The README's example (strategy/dca/README.md): 320 USDT a deal, at BTC 60,000. */
const params = {
  investment: '320',
  baseOrder: '20',
  safetyOrder: '20',
  maxSafetyOrders: 4,
  deviation: '1.5',
  stepScale: '1.5',
  volumeScale: '2',
  takeProfit: '1.5',
  stopLoss: '15',
  cooldown: 0,
  start: { kind: 'now' },
};

/** The DCA bot through the API (issue 16 §2): created, checked field by field, listed, detailed, traded on Paper, backtested. */
describe('DCA bots on the API', () => {
  let t: TestApp;
  let trading: Trading;
  const market = new ScriptedMarket();
  let auth: Record<string, string>;
  const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object, lang = 'en') =>
    t.app.inject({ method, url, ...(payload ? { payload } : {}), headers: { ...auth, lang } }).then((r) => r.json());
  const create = (p: object, lang = 'en') => call('POST', '/api/user/botCreate', { type: 'dca', exchangeId: 1, symbol: 'BTC/USDT', params: { ...params, ...p } }, lang);
  const step = async (price: string) => {
    market.set('BTC/USDT', price);
    for (let i = 0; i < 3; i++) {
      await trading.engine.tick();
      await trading.engine.idle();
    }
  };

  beforeAll(async () => {
    t = await openTestApp('pglite', { trading: (db) => (trading = createTrading({ db, feed: market })) });
    const r = await t.app.inject({ method: 'POST', url: '/api/login/register', payload: await registerPayload(t.app) });
    auth = { authorization: `Bearer ${r.json().data.token}` };
    expect((await call('POST', '/api/exchanges/bind', { exchangeId: 1, apiKey: 'paperkey01', secretKey: 'papersecret01' })).code).toBe(1);
    market.set('BTC/USDT', '60000');
  });
  afterAll(async () => {
    await trading.engine.stop();
    await t.close();
  });

  it('is an available strategy type', async () => {
    const types = (await call('GET', '/api/market/botTypes')).data as { code: string; available: boolean; category: string; name: string }[];
    expect(types.find((x) => x.code === 'dca')).toMatchObject({ available: true, category: 'dca', name: 'DCA' });
  });

  it('refuses bad parameters with the field and a clear code, never a 500', async () => {
    const cases: [object, number, string][] = [
      [{ investment: '319.99' }, Code.StrategyInvalidInvestment, 'Invalid investment: it must cover the first order and every add'],
      [{ baseOrder: '4' }, Code.StrategyOrderBelowMinimum, 'Each order must be at least the market minimum size'],
      [{ stopLoss: '12' }, Code.StrategyInvalidParams, 'Invalid strategy parameters: stop loss'],
      [{ deviation: '10', stepScale: '2' }, Code.StrategyInvalidParams, 'Invalid strategy parameters: price deviation'],
      [{ maxSafetyOrders: 51 }, Code.StrategyInvalidParams, 'Invalid strategy parameters: safety orders'],
      [{ start: { kind: 'schedule', every: 'day', time: '25:00', utcOffset: 0 } }, Code.StrategyInvalidParams, 'Invalid strategy parameters: deal start'],
      [{ takeProfit: undefined }, Code.RequiredFieldMissing, 'A required field is missing: take profit'],
    ];
    for (const [p, code, msg] of cases) expect(await create(p), JSON.stringify(p)).toMatchObject({ code, msg });
    expect(await create({ start: { kind: 'later' } })).toMatchObject({ code: Code.ValidationError });
    expect((await create({ investment: '319.99' }, 'zh')).msg).not.toMatch(/[a-z]{4}/);
    // A martin body under the dca type is refused: the DCA fields are missing.
    expect(await call('POST', '/api/user/botCreate', { type: 'dca', exchangeId: 1, symbol: 'BTC/USDT', params: { investment: '100' } })).toMatchObject({ code: Code.RequiredFieldMissing });
  });

  it('trades a deal on Paper: base order, safety orders at their prices, take profit; listed and detailed as dca', async () => {
    const created = await create({ stopLoss: '' });
    expect(created, JSON.stringify(created)).toMatchObject({ code: 1 });
    const id = created.data.id as string;
    expect(created.data).toMatchObject({ type: 'dca', maxPositions: 5, params: { ...params, stopLoss: '' } });
    expect(created.data.name).toBe('BTC/USDT DCA');
    expect((await call('GET', `/api/user/botOperation?id=${id}&action=start`)).code).toBe(1);
    await trading.engine.idle();
    for (const price of ['60000', '59100', '57750', '58000']) await step(price);
    const detail = (await call('GET', `/api/user/botDetail?id=${id}`)).data;
    // Planned from the base fill 60000: the README's table.
    expect(detail.levels.map((l: { price: string; quote: string }) => `${l.price} ${l.quote}`)).toEqual(['60000 20', '59100 20', '57750 40', '55725 80', '52687.5 160']);
    expect(detail).toMatchObject({ type: 'dca', positions: 3, takeProfitPrice: '59509.45', nextAddPrice: '55725', stopLossPrice: null });
    await step('59509.45');
    const positions = (await call('GET', `/api/user/botPositions?id=${id}`)).data.list;
    expect(positions.find((p: { status: string }) => p.status === 'closed')).toMatchObject({ cycle: 1, entries: 3, closePrice: '59509.45' });
    const list = (await call('GET', '/api/user/botList')).data.list;
    expect(list.find((b: { id: string }) => b.id === id)).toMatchObject({ type: 'dca', cycle: 2 });
    expect((await call('GET', `/api/user/botOperation?id=${id}&action=pause`)).code).toBe(1);
    // Edited while paused: a schedule and a cooldown.
    const updated = await call('PUT', `/api/user/botUpdate?id=${id}`, { params: { ...params, cooldown: 600, start: { kind: 'schedule', every: 'week', weekday: 1, time: '08:00', utcOffset: 480 } } });
    expect(updated.code).toBe(1);
    expect((await call('GET', `/api/user/botInfo?id=${id}`)).data.params).toMatchObject({ cooldown: 600, start: { kind: 'schedule', weekday: 1 } });
  });
});

describe('the DCA backtest before start', () => {
  const NOW = Date.UTC(2026, 10, 1);
  const feed = new SimulatedMarket();
  let t: TestApp;
  let auth: Record<string, string>;
  beforeAll(async () => {
    t = await openTestApp('pglite', { trading: (db) => createTrading({ db, feed, now: () => NOW }) });
    const r = await t.app.inject({ method: 'POST', url: '/api/login/register', payload: await registerPayload(t.app) });
    auth = { authorization: `Bearer ${r.json().data.token}` };
  });
  afterAll(() => t.close());

  it('replays 7 days of Paper candles through the DCA strategy, with its cooldown on the candles’ times', async () => {
    const body = { ...params, investment: '2000', baseOrder: '100', safetyOrder: '50', deviation: '0.5', takeProfit: '0.5', stopLoss: '', cooldown: 3600 };
    const r = await t.app
      .inject({ method: 'POST', url: '/api/strategy/backtest', payload: { type: 'dca', exchangeId: 1, symbol: 'BTC/USDT', params: body, days: 7 }, headers: { ...auth, lang: 'en' } })
      .then((x) => x.json());
    expect(r.code).toBe(1);
    expect(r.data).toMatchObject({ exchange: 'paper', days: 7, candles: 7 * 1440, investment: '2000' });
    const m = await createTrading({ db: t.db, feed, now: () => NOW }).market('paper', 'BTC/USDT');
    const again = dcaReport({ params: { ...body, stopLoss: undefined, start: { kind: 'now' } }, market: m }, feed.minuteColumns('BTC/USDT', NOW - 7 * 86_400_000, NOW));
    expect(r.data.realized).toBe(again.realized);
    expect(r.data.cycles).toBe(again.cycles);
    expect(r.data.cycles).toBeGreaterThan(0);
  });
});
