import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Code } from '../../contract/codes.ts';
import { money } from '../../strategy/money.ts';
import { openTestApp, type Answer, type DataAt, type TestApp, registerPayload } from '../testing/test-support.ts';
import { createTrading, type LiveSide, type Trading } from '../trading.ts';

/** A live exchange as the trading side sees it: prices and rules set by the test (no network here). */
function fakeLive(prices: Map<string, string>): LiveSide {
  const nope = async (): Promise<never> => {
    throw new Error('not in this test');
  };
  return {
    venue: nope,
    balances: nope,
    symbols: nope,
    tickers: nope,
    candles: nope,
    async price(exchange, symbol) {
      const p = prices.get(`${exchange} ${symbol}`);
      if (!p) throw new Error(`no price for ${exchange} ${symbol}`);
      return p;
    },
    async market(exchange, symbol) {
      if (exchange !== 'binance') throw new Error(`no market on ${exchange}`);
      const [base, quote] = symbol.split('/') as [string, string];
      // Binance's own rules and fee, not Paper's.
      return { symbol, base, quote, tickSize: money('0.01'), stepSize: money('0.00001'), minAmount: money('0.00001'), minCost: money('5'), feeRate: money('0.00075') };
    },
  };
}

/**
 * Simulated accounts on a live exchange's prices: opened without keys, filled at the live
 * price with that exchange's rules and fee, a virtual balance of their own beside Paper's, resettable,
 * and counted as simulation, never live.
 */
describe('simulation on a live exchange’s prices', () => {
  let t: TestApp;
  let trading: Trading;
  const prices = new Map([['binance BTC/USDT', '60000']]);
  let auth: Record<string, string>;
  const call = <M extends 'GET' | 'POST', U extends string>(method: M, url: U, payload?: object) =>
    t.app.inject({ method, url, ...(payload ? { payload } : {}), headers: { ...auth, lang: 'en' } }).then((r) => r.json() as Answer<DataAt<M, U>>);

  beforeAll(async () => {
    t = await openTestApp('pglite', { trading: (db) => (trading = createTrading({ db, live: fakeLive(prices) })) });
    const r = await t.app.inject({ method: 'POST', url: '/api/login/register', payload: await registerPayload(t.app) });
    auth = { authorization: `Bearer ${r.json().data.token}` };
  });
  afterAll(async () => {
    await trading.engine.stop();
    await t.close();
  });

  it('opens a simulated Binance account without keys and trades a bot on Binance’s price with Binance’s fee', async () => {
    expect((await call('POST', '/api/exchanges/bind', { exchangeId: 102, apiKey: 'simkey0001', secretKey: 'simsecret0001' })).code).toBe(1);
    expect((await call('POST', '/api/exchanges/bind', { exchangeId: 1, apiKey: 'paperkey01', secretKey: 'papersecret01' })).code).toBe(1);
    const params = { investment: '1000', firstOrder: '120', multiplier: '2', maxPositions: 3, addTrigger: '2', takeProfit: '1', stopLoss: '', repeat: true };
    const bot = await call('POST', '/api/user/botCreate', { type: 'martin', exchangeId: 102, symbol: 'BTC/USDT', params });
    expect(bot.code).toBe(1);
    expect(bot.data.exchange).toBe('binancesim');
    expect((await call('GET', `/api/user/botOperation?id=${bot.data.id}&action=start`)).code).toBe(1);
    await trading.engine.idle();
    // 120 USDT at 60000 = 0.002 BTC, the 0.075% fee taken in BTC.
    const order = await t.db.selectFrom('paper_orders').selectAll().where('exchange_id', '=', 102).executeTakeFirstOrThrow();
    expect([money(order.price!).toFixed(), money(order.filled).toFixed(), money(order.fee!).toFixed()]).toEqual(['60000', '0.002', '0.0000015']);
    const sim = (await call('GET', '/api/user/asset?exchange=binancesim')).data.balances;
    // The bot's two adds left (240 + 480) are reserved of the simulated account, nothing of Paper's.
    expect(sim).toEqual([
      { currency: 'BTC', free: '0.0019985', total: '0.0019985', reserved: '0', available: '0.0019985' },
      { currency: 'USDT', free: '9880', total: '9880', reserved: '720', available: '9160' },
    ]);
    expect((await call('GET', '/api/user/asset?exchange=paper')).data.balances).toEqual([{ currency: 'USDT', free: '10000', total: '10000', reserved: '0', available: '10000' }]);
    // The price moves on Binance: the bot takes profit there.
    prices.set('binance BTC/USDT', '60700');
    await trading.engine.tick();
    await trading.engine.idle();
    expect((await call('GET', `/api/user/botInfo?id=${bot.data.id}`)).data.cycle).toBe(2);
    // Simulation, never live: in the lists and the bill.
    expect((await call('GET', '/api/user/botList?mode=simulation')).data.list.map((b) => b.id)).toContain(bot.data.id);
    expect((await call('GET', '/api/user/botList?mode=live')).data.total).toBe(0);
    expect((await call('GET', '/api/user/bill?mode=live')).data.total).toBe(0);
    expect((await call('GET', '/api/user/bill?mode=simulation')).data.total).toBeGreaterThan(0);
    // Its own reset: refused while the bot runs; then back to 10,000 USDT, Paper untouched.
    expect(await call('POST', '/api/user/paperReset', { exchange: 'binancesim' })).toMatchObject({ code: Code.SimulationBotsActive });
    await call('GET', `/api/user/botOperation?id=${bot.data.id}&action=stop`);
    await trading.engine.idle();
    const state = await t.db.selectFrom('bots').select('state').where('id', '=', bot.data.id).executeTakeFirstOrThrow();
    expect((state.state as { fills: unknown[] }).fills).toEqual([]); // the take profit closed the position
    const reset = await call('POST', '/api/user/paperReset', { exchange: 'binancesim' });
    expect(reset.data.balances).toEqual([{ currency: 'USDT', free: '10000', total: '10000' }]);
    expect((await call('GET', '/api/user/asset?exchange=paper')).data.balances).toEqual([{ currency: 'USDT', free: '10000', total: '10000', reserved: '0', available: '10000' }]);
    expect(await call('POST', '/api/user/paperReset', { exchange: 'binance' })).toMatchObject({ code: Code.ApiExchangeUnsupported });
  });
});
