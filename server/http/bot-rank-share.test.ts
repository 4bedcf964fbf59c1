import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Code } from '../../contract/codes.ts';
import { ScriptedMarket } from '../testing/scripted.ts';
import { dbKinds, openTestApp, registerPayload, type Answer, type DataAt, type TestApp, testDcaParams } from '../testing/test-support.ts';
import { createTrading, type Trading } from '../trading.ts';

const martin = { investment: '1000', firstOrder: '100', multiplier: '2', maxPositions: 3, addTrigger: '2', takeProfit: '1', repeat: true };
/** A DCA bot that opens a deal every Monday at 01:30 in UTC+8: Sunday 17:30 UTC. */
const dca = { ...testDcaParams, start: { kind: 'schedule', every: 'week', weekday: 1, time: '01:30', utcOffset: 480 } };

/**
 * The strategy rank shows a bot's rules only when its owner shares them: by default its figures only
 * (type, pair, ROI, runtime, largest fall); the owner alone turns sharing on or off, while the bot runs,
 * and a shared DCA schedule is told in UTC, not in its owner's time zone.
 */
describe.each(dbKinds)('sharing a bot’s rules on the rank (%s)', (kind) => {
  let t: TestApp;
  let trading: Trading;
  const market = new ScriptedMarket();
  const register = async () => {
    const payload = await registerPayload(t.app);
    const r = await t.app.inject({ method: 'POST', url: '/api/login/register', payload });
    return { authorization: `Bearer ${r.json().data.token}` };
  };
  const call = <M extends 'GET' | 'POST', U extends string>(auth: Record<string, string>, method: M, url: U, payload?: object) =>
    t.app.inject({ method, url, ...(payload ? { payload } : {}), headers: { ...auth, lang: 'en' } }).then((r) => r.json() as Answer<DataAt<M, U>>);
  const step = async (price: string) => {
    market.set('BTC/USDT', price);
    await trading.engine.tick();
    await trading.engine.idle();
  };
  /** A trader with Paper bound. */
  const trader = async () => {
    const auth = await register();
    expect((await call(auth, 'POST', '/api/exchanges/bind', { exchangeId: 1, apiKey: 'paperkey01', secretKey: 'papersecret01' })).code).toBe(1);
    return auth;
  };
  const rankOf = async (auth: Record<string, string>, profit: string) =>
    (await call(auth, 'GET', '/api/market/botRank?mode=simulation&period=all&page=1&limit=50')).data.list.find((e) => e.profit === profit);

  beforeAll(async () => {
    t = await openTestApp(kind, { trading: (db) => (trading = createTrading({ db, feed: market })) });
    market.set('BTC/USDT', '50000');
  });
  afterAll(async () => {
    await trading.engine.stop();
    await t.close();
  });

  it('carries no rules until the owner shares them, and the owner can share or stop sharing while the bot runs', async () => {
    const alice = await trader();
    const bob = await register();
    market.set('BTC/USDT', '50000');
    const id = (await call(alice, 'POST', '/api/user/botCreate', { type: 'martin', exchangeId: 1, symbol: 'BTC/USDT', params: martin })).data.id;
    await call(alice, 'GET', `/api/user/botOperation?id=${id}&action=start`);
    await step('49000');
    await step('49900'); // a cycle closed: 2.1985758 USDT (bot-rank.test.ts)
    const hidden = await rankOf(bob, '2.1985758');
    expect(hidden).toMatchObject({ type: 'martin', symbol: 'BTC/USDT', roiPct: '0.22', maxDrawdownPct: '0', cycles: 1, params: null });
    expect(hidden!.runtime).toBeGreaterThanOrEqual(0);
    expect(await call(alice, 'GET', `/api/user/botShare?id=${id}`)).toMatchObject({ code: 1, data: { id, shareRules: false } });

    // Shared while it runs: the rank carries its rules, and its trading goes on.
    expect(await call(alice, 'POST', '/api/user/botShare', { id, shareRules: true })).toMatchObject({ code: 1, data: { id, shareRules: true } });
    expect((await rankOf(bob, '2.1985758'))?.params).toEqual({ ...martin, stopLoss: '' });
    expect((await call(alice, 'GET', `/api/user/botShare?id=${id}`)).data.shareRules).toBe(true);
    const info = await call(alice, 'GET', `/api/user/botInfo?id=${id}`);
    expect(info.data.status).toBe('running');
    await step('49000');
    expect((await call(alice, 'GET', `/api/user/botActions?id=${id}&page=1&page_size=10`)).data.list.some((a) => a.kind === 'add')).toBe(true);

    // And private again.
    expect((await call(alice, 'POST', '/api/user/botShare', { id, shareRules: false })).data.shareRules).toBe(false);
    expect((await rankOf(bob, '2.1985758'))?.params).toBeNull();
  });

  it('lets only the owner read or change the setting', async () => {
    const alice = await trader();
    const bob = await register();
    const id = (await call(alice, 'POST', '/api/user/botCreate', { type: 'martin', exchangeId: 1, symbol: 'BTC/USDT', params: martin })).data.id;
    expect(await call(bob, 'POST', '/api/user/botShare', { id, shareRules: true })).toMatchObject({ code: Code.StrategyNotFound, data: null });
    expect(await call(bob, 'GET', `/api/user/botShare?id=${id}`)).toMatchObject({ code: Code.StrategyNotFound, data: null });
    expect((await call(alice, 'GET', `/api/user/botShare?id=${id}`)).data.shareRules).toBe(false);
    // A bot that is not there, and input that is not a setting.
    expect((await call(alice, 'POST', '/api/user/botShare', { id: '999999999', shareRules: true })).code).toBe(Code.StrategyNotFound);
    for (const [body, code, msg] of [
      [{ id, shareRules: 'yes' }, Code.ValidationError, 'Validation failed: share the parameters on the rank'],
      [{ id }, Code.RequiredFieldMissing, 'A required field is missing: share the parameters on the rank'],
      [{ id: 'x', shareRules: true }, Code.ValidationError, 'Validation failed: id'],
    ] as const)
      expect(await call(alice, 'POST', '/api/user/botShare', body)).toEqual({ code, msg, data: null });
    expect((await call(alice, 'GET', `/api/user/botShare?id=${id}`)).data.shareRules).toBe(false);
    // A deleted bot's setting is gone with it.
    await call(alice, 'GET', `/api/user/botOperation?id=${id}&action=delete`);
    expect((await call(alice, 'POST', '/api/user/botShare', { id, shareRules: true })).code).toBe(Code.StrategyNotFound);
  });

  it('tells a shared DCA schedule in UTC, never its owner’s time zone', async () => {
    const alice = await trader();
    const bob = await register();
    const id = (await call(alice, 'POST', '/api/user/botCreate', { type: 'dca', exchangeId: 1, symbol: 'BTC/USDT', params: dca })).data.id;
    // A closed deal of 3.14159 USDT, so that it ranks.
    const owner = await t.db.selectFrom('bots').select('user_id').where('id', '=', id).executeTakeFirstOrThrow();
    await t.db
      .insertInto('bot_cycles')
      .values({ bot_id: id, user_id: owner.user_id, cycle: 1, entries: 1, amount: '0.001', cost: '20', close_price: '23.14159', profit: '3.14159', opened_at: new Date() })
      .execute();
    expect((await rankOf(bob, '3.14159'))?.params).toBeNull();
    await call(alice, 'POST', '/api/user/botShare', { id, shareRules: true });
    const shared = await rankOf(bob, '3.14159');
    expect(shared?.params).toEqual({ ...dca, trailingDeviation: '', trailingStop: false, start: { kind: 'schedule', every: 'week', weekday: 7, time: '17:30', utcOffset: 0 } });
    expect(JSON.stringify(shared)).not.toContain('480');
  });
});
