import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Code } from '../../contract/codes.ts';
import { tradableTypes } from '../../strategy/kit.ts';
import { ScriptedMarket } from '../testing/scripted.ts';
import { openTestApp, registerPayload, type Answer, type DataAt, type TestApp } from '../testing/test-support.ts';
import { createTrading, type Trading } from '../trading.ts';

/** Each type's example parameters, from its own folder (strategy/<type>/example.ts). */
const examples = Object.fromEntries(await Promise.all(tradableTypes.map(async (type) => [type, ((await import(`../../strategy/${type}/example.ts`)) as { example: object }).example] as const)));

/**
 * Every bot type, the ones to come too, goes through the same calls on Paper: created, listed, detailed,
 * started, traded through a fall and a rise, its positions and log read, stopped and deleted, and never
 * seen by another trader. The services know a type only through its kit: this holds for all of them.
 */
describe('every bot type through the API', () => {
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

  beforeAll(async () => {
    t = await openTestApp('pglite', { trading: (db) => (trading = createTrading({ db, feed: market })) });
    market.set('BTC/USDT', '60000');
  });
  afterAll(async () => {
    await trading.engine.stop();
    await t.close();
  });

  for (const type of tradableTypes) {
    it(`${type}: created, traded, read and deleted by its owner alone`, async () => {
      const alice = await register();
      const bob = await register();
      market.set('BTC/USDT', '60000');
      const created = await call(alice, 'POST', '/api/user/botCreate', { type, exchangeId: 1, symbol: 'BTC/USDT', params: examples[type] });
      expect(created.code, created.msg).toBe(Code.Success);
      const id = created.data.id;
      const info = await call(alice, 'GET', `/api/user/botInfo?id=${id}`);
      expect(info.data.type).toBe(type);
      // The form's parameters back (the optional ones it left out, as empty).
      expect(info.data.params).toMatchObject(examples[type]!);
      expect((await call(alice, 'GET', `/api/user/botOperation?id=${id}&action=start`)).code).toBe(Code.Success);
      for (const price of ['60000', '57000', '55200', '58000', '66000']) await step(price);
      const detail = await call(alice, 'GET', `/api/user/botDetail?id=${id}`);
      expect(detail.code, detail.msg).toBe(Code.Success);
      expect(detail.data.price).toBe('66000');
      for (const url of [`/api/user/botPositions?id=${id}`, `/api/user/botActions?id=${id}`, `/api/user/positionAdds?id=${id}`, '/api/user/botList', '/api/user/positions'] as const)
        expect((await call(alice, 'GET', url)).code, url).toBe(Code.Success);
      expect((await call(alice, 'GET', '/api/user/botList')).data.list.map((b) => b.id)).toEqual([id]);
      // Another trader sees nothing of it and can do nothing to it.
      expect((await call(bob, 'GET', `/api/user/botDetail?id=${id}`)).code).toBe(Code.StrategyNotFound);
      expect((await call(bob, 'GET', `/api/user/botOperation?id=${id}&action=stop`)).code).toBe(Code.StrategyNotFound);
      expect((await call(bob, 'GET', '/api/user/botList')).data.list).toEqual([]);
      expect((await call(alice, 'GET', `/api/user/botOperation?id=${id}&action=stop`)).code).toBe(Code.Success);
      expect((await call(alice, 'GET', `/api/user/botOperation?id=${id}&action=delete`)).code).toBe(Code.Success);
    });
  }
});
