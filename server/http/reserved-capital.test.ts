import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Code } from '../../contract/codes.ts';
import { ScriptedMarket } from '../testing/scripted.ts';
import { dbKinds, openTestApp, registerPayload, type TestApp } from '../testing/test-support.ts';
import { createTrading, type Trading } from '../trading.ts';

/** A martin bot whose worst case is firstOrder x (2^5 - 1): every add of a 5-order cycle at x2. */
const martin = (firstOrder: number) => ({
  investment: String(firstOrder * 31),
  firstOrder: String(firstOrder),
  multiplier: '2',
  maxPositions: 5,
  addTrigger: '2',
  takeProfit: '1.5',
  repeat: true,
});

/**
 * A running bot reserves its unfilled worst case of its account's free balance (a martin: every add it
 * has left), so bots cannot commit the same money twice: a start that does not fit in what is free and
 * not reserved by the trader's other running or paused bots is refused with the figures; the asset
 * answer shows each balance's reserved part and what is left. Another trader's bots reserve nothing of
 * theirs; two starts at once on two processes are counted one after the other.
 */
describe.each(dbKinds)('capital reserved by running bots (%s)', (kind) => {
  let t: TestApp;
  let trading: Trading;
  const market = new ScriptedMarket();
  const NOW = Date.UTC(2026, 5, 1, 8);
  const traders: Record<string, string>[] = [];
  const call = (who: number, method: 'GET' | 'POST', url: string, payload?: object, app = t.app) =>
    app.inject({ method, url, ...(payload ? { payload } : {}), headers: { ...traders[who]!, lang: 'en' } }).then((r) => r.json());
  const create = async (who: number, firstOrder: number) => {
    const r = await call(who, 'POST', '/api/user/botCreate', { type: 'martin', exchangeId: 1, symbol: 'BTC/USDT', params: martin(firstOrder) });
    expect(r.code, JSON.stringify(r)).toBe(1);
    return String(r.data.id);
  };
  const operate = (who: number, id: string, action: string, app = t.app) => call(who, 'GET', `/api/user/botOperation?id=${id}&action=${action}`, undefined, app);
  const usdt = async (who: number) => (await call(who, 'GET', '/api/user/asset?exchange=paper')).data.balances.find((b: { currency: string }) => b.currency === 'USDT');

  beforeAll(async () => {
    market.set('BTC/USDT', '60000');
    t = await openTestApp(kind, { trading: (db) => (trading = createTrading({ db, feed: market, now: () => NOW, tickMs: 3_600_000 })) });
    for (let i = 0; i < 2; i++) {
      const r = await t.app.inject({ method: 'POST', url: '/api/login/register', payload: await registerPayload(t.app) });
      traders.push({ authorization: `Bearer ${r.json().data.token}` });
      expect((await call(i, 'POST', '/api/exchanges/bind', { exchangeId: 1, apiKey: 'paperkey01', secretKey: 'papersecret01' })).code).toBe(1);
    }
  });
  afterAll(async () => {
    await trading.engine.stop();
    await t.close();
  });

  it('refuses a start that only fits in money other bots still need, in words with the figures; a stopped bot gives its share back', async () => {
    const first = await create(0, 100); // worst case 3,100
    const second = await create(0, 150); // 4,650
    const third = await create(0, 100); // 3,100
    expect(await usdt(0)).toEqual({ currency: 'USDT', free: '10000', total: '10000', reserved: '0', available: '10000' });
    expect((await operate(0, first, 'start')).code).toBe(1);
    // Its first order filled on Paper (100 USDT buys 0.00166 BTC at the step: 99.6): 3,000 of adds are left, reserved.
    expect(await usdt(0)).toMatchObject({ free: '9900.4', reserved: '3000', available: '6900.4' });
    expect((await operate(0, second, 'start')).code).toBe(1);
    expect(await usdt(0)).toMatchObject({ free: '9750.4', reserved: '7500', available: '2250.4' });
    // 9,750.4 are free, enough for 3,100 alone, but 7,500 of them are the other bots' adds.
    const refused = await operate(0, third, 'start');
    expect(refused).toMatchObject({ code: Code.StrategyCapitalReserved });
    expect(refused.msg).toBe(
      'The account has 9750.4 USDT free, of which 7500 USDT is reserved by your other running bots: 2250.4 USDT is left, less than the 3100 USDT this bot can need. Lower the investment, stop another bot or add funds first',
    );
    expect((await call(0, 'GET', `/api/user/botInfo?id=${third}`)).data.status).toBe('stopped');
    // A paused bot keeps its reservation (it may be resumed); a stopped one gives it back.
    expect((await operate(0, second, 'pause')).code).toBe(1);
    expect((await operate(0, third, 'start')).code).toBe(Code.StrategyCapitalReserved);
    expect((await operate(0, second, 'stop')).code).toBe(1);
    expect(await usdt(0)).toMatchObject({ free: '9750.4', reserved: '3000', available: '6750.4' });
    expect((await operate(0, third, 'start')).code).toBe(1);
    // Another trader's account is theirs alone: nothing of it is reserved by the first trader's bots.
    expect(await usdt(1)).toMatchObject({ free: '10000', reserved: '0', available: '10000' });
    const theirs = await create(1, 300); // 9,300
    expect((await operate(1, theirs, 'start')).code).toBe(1);
    for (const id of [first, third]) expect((await operate(0, id, 'stop')).code).toBe(1);
    expect((await operate(1, theirs, 'stop')).code).toBe(1);
  });

  it('counts two starts at once on two processes one after the other: the second that does not fit is refused', async () => {
    const other = await t.another();
    // 9,650.8 free after the first test's bots (their first orders spent 99.6, 150, 99.6): each 5,580 fits alone, not both.
    const free = Number((await usdt(0)).free);
    const a = await create(0, 180);
    const b = await create(0, 180);
    expect(free).toBeGreaterThanOrEqual(180 * 31);
    expect(free).toBeLessThan(2 * 180 * 31 - 180);
    const answers = await Promise.all([operate(0, a, 'start'), operate(0, b, 'start', other)]);
    expect(answers.map((r) => r.code).sort()).toEqual([1, Code.StrategyCapitalReserved].sort());
    for (const id of [a, b]) await operate(0, id, 'stop');
  });
});
