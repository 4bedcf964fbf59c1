import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScriptedMarket } from '../testing/scripted.ts';
import { openTestApp, registerPayload, type TestApp } from '../testing/test-support.ts';
import { createTrading, type Trading } from '../trading.ts';

describe('trade events become notices', () => {
  let t: TestApp;
  let trading: Trading;
  const market = new ScriptedMarket();
  const step = async (price: string) => {
    market.set('BTC/USDT', price);
    await trading.engine.tick();
    await trading.engine.idle();
  };

  beforeAll(async () => {
    t = await openTestApp('pglite', { trading: (db) => (trading = createTrading({ db, feed: market })) });
    market.set('BTC/USDT', '50000');
  });
  afterAll(async () => {
    await trading.engine.stop();
    await t.close();
  });

  it("warns when a cycle's last add fills, and tells the cycle's close with its profit and how", async () => {
    const r = await t.app.inject({ method: 'POST', url: '/api/login/register', payload: await registerPayload(t.app) });
    const auth = { authorization: `Bearer ${r.json().data.token as string}` };
    const call = (method: 'GET' | 'POST', url: string, payload?: object) => t.app.inject({ method, url, headers: auth, ...(payload ? { payload } : {}) }).then((x) => x.json());
    await call('POST', '/api/exchanges/bind', { exchangeId: 1, apiKey: 'paperkey01', secretKey: 'papersecret01' });
    const params = { investment: '1000', firstOrder: '100', multiplier: '1', maxPositions: 2, addTrigger: '2', takeProfit: '1', repeat: true };
    const bot = String((await call('POST', '/api/user/botCreate', { type: 'martin', exchangeId: 1, symbol: 'BTC/USDT', params, name: 'Last add' })).data.id);
    await call('GET', `/api/user/botOperation?id=${bot}&action=start`);
    await step('50000');
    // One add below: the cycle's second and last entry.
    expect((await call('GET', '/api/notice/list?kind=warning')).data.list.filter((n: { code: string }) => n.code === 'last_add_filled')).toHaveLength(0);
    await step('48900');
    const warnings = (await call('GET', '/api/notice/list?kind=warning')).data.list;
    expect(warnings.find((n: { code: string }) => n.code === 'last_add_filled')).toMatchObject({ detail: { bot, name: 'Last add', entries: '2' } });
    // Back up past the take profit: the cycle closes, and the notice says so with its profit.
    await step('50500');
    await step('50500');
    const all = (await call('GET', '/api/notice/list')).data.list;
    const closed = all.find((n: { code: string }) => n.code === 'cycle_closed');
    expect(closed).toMatchObject({ kind: 'notice', detail: { bot, name: 'Last add', cycle: '1', how: 'take_profit' } });
    expect(Number(closed.detail.profit)).toBeGreaterThan(0);
  });

  it('warns once when a grid fills its last buy level at the bottom of its range, and tells no one else', async () => {
    const login = async () => {
      const r = await t.app.inject({ method: 'POST', url: '/api/login/register', payload: await registerPayload(t.app) });
      const auth = { authorization: `Bearer ${r.json().data.token as string}` };
      return (method: 'GET' | 'POST', url: string, payload?: object) => t.app.inject({ method, url, headers: auth, ...(payload ? { payload } : {}) }).then((x) => x.json());
    };
    const call = await login();
    const other = await login();
    await call('POST', '/api/exchanges/bind', { exchangeId: 1, apiKey: 'paperkey02', secretKey: 'papersecret02' });
    market.set('ETH/USDT', '3000');
    const params = { investment: '1000', lower: '2800', upper: '3200', grids: 4, spacing: 'arithmetic' };
    const bot = String((await call('POST', '/api/user/botCreate', { type: 'grid', exchangeId: 1, symbol: 'ETH/USDT', params, name: 'Range' })).data.id);
    await call('GET', `/api/user/botOperation?id=${bot}&action=start`);
    const edges = async (as = call) => (await as('GET', '/api/notice/list?kind=warning')).data.list.filter((n: { code: string }) => n.code === 'range_edge');
    const tick = async (price: string) => {
      market.set('ETH/USDT', price);
      await trading.engine.tick();
      await trading.engine.idle();
    };
    await tick('3000');
    // Down through the buy levels at 2900 and 2800: the second leaves none below.
    await tick('2900');
    expect(await edges()).toHaveLength(0);
    await tick('2800');
    await tick('2750');
    expect(await edges()).toMatchObject([{ kind: 'warning', detail: { bot, name: 'Range', side: 'low', price: '2800' } }]);
    // Wavering at the bottom (a sell a level up, the buy at 2800 again): no second warning.
    await tick('2900');
    await tick('2800');
    expect(await edges()).toHaveLength(1);
    expect(await edges(other)).toHaveLength(0);
  });
});
