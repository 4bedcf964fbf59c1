import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Code } from '../../contract/codes.ts';
import { ScriptedMarket } from '../testing/scripted.ts';
import { dbKinds, openTestApp, registerPayload, type Answer, type DataAt, type TestApp } from '../testing/test-support.ts';
import { createTrading, type Trading } from '../trading.ts';

const params = { investment: '1000', firstOrder: '100', multiplier: '2', maxPositions: 3, addTrigger: '2', takeProfit: '1', repeat: false };

/**
 * The simulated account's "convert small balances": the coin a bot's trades leave below the step (its
 * dust, strategy/README.md "Books in the quote") is sold into USDT once no bot trades it any more; a coin
 * a bot still holds or trades is never touched, nor another trader's.
 */
describe.each(dbKinds)('converting small balances on a simulated account (%s)', (kind) => {
  let t: TestApp;
  let trading: Trading;
  const market = new ScriptedMarket();
  const register = async () => {
    const r = await t.app.inject({ method: 'POST', url: '/api/login/register', payload: await registerPayload(t.app) });
    const auth = { authorization: `Bearer ${r.json().data.token}` };
    expect((await call(auth, 'POST', '/api/exchanges/bind', { exchangeId: 1, apiKey: 'paperkey01', secretKey: 'papersecret01' })).code).toBe(1);
    return auth;
  };
  const call = <M extends 'GET' | 'POST', U extends string>(auth: Record<string, string>, method: M, url: U, payload?: object) =>
    t.app.inject({ method, url, ...(payload ? { payload } : {}), headers: { ...auth, lang: 'en' } }).then((r) => r.json() as Answer<DataAt<M, U>>);
  const step = async (price: string) => {
    market.set('BTC/USDT', price);
    await trading.engine.tick();
    await trading.engine.idle();
  };
  const balance = async (auth: Record<string, string>, currency: string) =>
    (await call(auth, 'GET', '/api/user/asset?exchange=paper')).data.balances.find((b) => b.currency === currency)?.total ?? '0';

  beforeAll(async () => {
    t = await openTestApp(kind, { trading: (db) => (trading = createTrading({ db, feed: market })) });
    market.set('BTC/USDT', '50000');
  });
  afterAll(async () => {
    await trading.engine.stop();
    await t.close();
  });

  it('sells the dust a stopped bot left into USDT and clears it from the bot; a coin a bot still trades stays', async () => {
    const alice = await register();
    const bob = await register();
    market.set('BTC/USDT', '50000');
    const mine = (await call(alice, 'POST', '/api/user/botCreate', { type: 'martin', exchangeId: 1, symbol: 'BTC/USDT', name: 'Dusty', params })).data.id;
    const theirs = (await call(bob, 'POST', '/api/user/botCreate', { type: 'martin', exchangeId: 1, symbol: 'BTC/USDT', params })).data.id;
    for (const [auth, id] of [
      [alice, mine],
      [bob, theirs],
    ] as const)
      expect((await call(auth, 'GET', `/api/user/botOperation?id=${id}&action=start`)).code).toBe(1);
    await step('49000'); // an add
    await step('49900'); // the take profit at 49822.24: 0.00607 of 0.00607392 BTC sold (bots.test.ts)
    const detail = (await call(alice, 'GET', `/api/user/botDetail?id=${mine}`)).data;
    expect([detail.positions, detail.dust]).toEqual([0, '0.00000392']);
    expect(await balance(alice, 'BTC')).toBe('0.00000392');

    // The bot is not stopped yet: its coin is its own.
    if (detail.status !== 'stopped') {
      expect((await call(alice, 'POST', '/api/user/paperSweepDust', {})).data.swept).toEqual([]);
      expect((await call(alice, 'GET', `/api/user/botOperation?id=${mine}&action=stop`)).code).toBe(1);
    }
    const usdt = await balance(alice, 'USDT');
    const swept = await call(alice, 'POST', '/api/user/paperSweepDust', {});
    // 0.00000392 x 49900 = 0.195608, less the 0.1 % fee: 0.195412392, to 8 places (down).
    expect(swept.data).toMatchObject({ exchange: 'paper', swept: [{ currency: 'BTC', amount: '0.00000392', quote: '0.19541239', from: ['Dusty'] }], total: '0.19541239' });
    expect(await balance(alice, 'BTC')).toBe('0');
    expect(Number(await balance(alice, 'USDT'))).toBeCloseTo(Number(usdt) + 0.19541239, 8);
    expect((await call(alice, 'GET', `/api/user/botDetail?id=${mine}`)).data.dust).toBe('0');
    // Once only: nothing left to sweep.
    expect((await call(alice, 'POST', '/api/user/paperSweepDust', {})).data.swept).toEqual([]);
    // Bob's account and bot are untouched.
    expect(await balance(bob, 'BTC')).toBe('0.00000392');
    expect((await call(bob, 'GET', `/api/user/botDetail?id=${theirs}`)).data.dust).toBe('0.00000392');
  });

  it('leaves a coin a bot holds, and a balance large enough to sell by an order', async () => {
    const carol = await register();
    market.set('BTC/USDT', '50000');
    const id = (await call(carol, 'POST', '/api/user/botCreate', { type: 'martin', exchangeId: 1, symbol: 'BTC/USDT', params })).data.id;
    expect((await call(carol, 'GET', `/api/user/botOperation?id=${id}&action=start`)).code).toBe(1);
    await step('50000');
    // Holding its first order (0.001998 BTC): the coin is the bot's, running or stopped with it kept.
    expect((await call(carol, 'POST', '/api/user/paperSweepDust', {})).data.swept).toEqual([]);
    expect((await call(carol, 'GET', `/api/user/botOperation?id=${id}&action=stop`)).code).toBe(1);
    expect((await call(carol, 'POST', '/api/user/paperSweepDust', {})).data.swept).toEqual([]);
    // Deleted, the bot's coin is the account's: 0.001998 BTC is about 100 USDT, an order can sell it.
    expect((await call(carol, 'GET', `/api/user/botOperation?id=${id}&action=delete`)).code).toBe(1);
    expect((await call(carol, 'POST', '/api/user/paperSweepDust', {})).data.swept).toEqual([]);
    expect(await balance(carol, 'BTC')).toBe('0.001998');
    // A dust-sized balance of a coin a running bot trades is that bot's too (here written by hand).
    const dave = await register();
    const running = (await call(dave, 'POST', '/api/user/botCreate', { type: 'martin', exchangeId: 1, symbol: 'BTC/USDT', params })).data.id;
    expect((await call(dave, 'GET', `/api/user/botOperation?id=${running}&action=start`)).code).toBe(1);
    await step('50000');
    const daveId = (await t.db.selectFrom('bots').select('user_id').where('id', '=', running).executeTakeFirstOrThrow()).user_id;
    await t.db.updateTable('paper_balances').set({ amount: '0.000001' }).where('user_id', '=', daveId).where('currency', '=', 'BTC').execute();
    expect((await call(dave, 'POST', '/api/user/paperSweepDust', {})).data.swept).toEqual([]);
    expect(await balance(dave, 'BTC')).toBe('0.000001');
    // Only a simulated account can be swept.
    expect((await call(carol, 'POST', '/api/user/paperSweepDust', { exchange: 'binance' })).code).toBe(Code.ApiExchangeUnsupported);
  });
});
