import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScriptedMarket } from '../testing/scripted.ts';
import { dbKinds, openTestApp, type Answer, type DataAt, type TestApp, registerPayload } from '../testing/test-support.ts';
import { createTrading, type Trading } from '../trading.ts';

const params = { investment: '1000', firstOrder: '100', multiplier: '2', maxPositions: 3, addTrigger: '2', takeProfit: '1', repeat: true };

/**
 * The strategy rank: a trader sees other traders' bots by ROI with their
 * type, pair, figures and (when their owners share them) parameters to copy, never whose they are (no nickname, UID, avatar, bot name
 * or id anywhere in the answer), and their own bots marked as theirs.
 */
describe.each(dbKinds)('the strategy rank (%s)', (kind) => {
  let t: TestApp;
  let trading: Trading;
  const market = new ScriptedMarket();
  const register = async () => {
    const payload = await registerPayload(t.app);
    const r = await t.app.inject({ method: 'POST', url: '/api/login/register', payload });
    return { auth: { authorization: `Bearer ${r.json().data.token}` }, account: payload.account as string, sn: r.json().data.sn as string };
  };
  const call = <M extends 'GET' | 'POST', U extends string>(auth: Record<string, string>, method: M, url: U, payload?: object) =>
    t.app.inject({ method, url, ...(payload ? { payload } : {}), headers: { ...auth, lang: 'en' } }).then((r) => r.json() as Answer<DataAt<M, U>>);
  const step = async (price: string) => {
    market.set('BTC/USDT', price);
    await trading.engine.tick();
    await trading.engine.idle();
  };

  beforeAll(async () => {
    t = await openTestApp(kind, { trading: (db) => (trading = createTrading({ db, feed: market })) });
    market.set('BTC/USDT', '50000');
  });
  afterAll(async () => {
    await trading.engine.stop();
    await t.close();
  });

  it('lists bots by ROI with what a copy needs, and nothing of their owners', async () => {
    const alice = await register();
    const bob = await register();
    expect((await call(alice.auth, 'POST', '/api/exchanges/bind', { exchangeId: 1, apiKey: 'paperkey01', secretKey: 'papersecret01' })).code).toBe(1);
    market.set('BTC/USDT', '50000');
    const created = await call(alice.auth, 'POST', '/api/user/botCreate', { type: 'martin', exchangeId: 1, symbol: 'BTC/USDT', name: 'Alice secret bot', params });
    const id = created.data.id;
    await call(alice.auth, 'GET', `/api/user/botOperation?id=${id}&action=start`);
    await step('49000'); // an add
    await step('49900'); // take profit at its price 49822.24: 2.1985758032 USDT on 1,000 (server/http/bots.test.ts)
    const rank = await call(bob.auth, 'GET', '/api/market/botRank?mode=simulation&period=all&page=1&limit=50');
    expect(rank.code).toBe(1);
    const entry = rank.data.list.find((e) => e.profit === '2.1985758' && e.symbol === 'BTC/USDT');
    // Its figures only, until its owner shares its parameters (bot-rank-share.test.ts).
    expect(entry).toMatchObject({ type: 'martin', exchange: 'paper', roiPct: '0.22', totalPnl: '2.1985758', totalRoiPct: '0.22', maxDrawdownPct: '0', cycles: 1, mine: false, params: null });
    expect((await call(alice.auth, 'POST', '/api/user/botShare', { id, shareRules: true })).code).toBe(1);
    const shared = (await call(bob.auth, 'GET', '/api/market/botRank?mode=simulation&period=all&page=1&limit=50')).data.list.find((e) => e.profit === '2.1985758');
    expect(shared?.params).toEqual({ ...params, stopLoss: '' });
    expect(entry!.runtime).toBeGreaterThanOrEqual(0);
    // Nothing that says whose it is.
    const text = JSON.stringify(shared);
    for (const secret of [alice.account, alice.sn, 'Alice secret bot']) expect(text).not.toContain(secret);
    expect(text).not.toMatch(/"(id|botId|userId|name|nickname|uid|avatar)":/);
    expect(Object.keys(shared!).sort()).toEqual(['cycles', 'exchange', 'maxDrawdownPct', 'mine', 'params', 'profit', 'rank', 'roiPct', 'runtime', 'symbol', 'totalPnl', 'totalRoiPct', 'type']);
    // Its owner sees it as theirs; live bots are ranked apart; a deleted bot leaves the rank.
    const own = await call(alice.auth, 'GET', '/api/market/botRank?mode=simulation&period=all&page=1&limit=50');
    expect(own.data.list.find((e) => e.profit === '2.1985758')?.mine).toBe(true);
    expect((await call(bob.auth, 'GET', '/api/market/botRank?mode=live&period=all')).data.list.some((e) => e.profit === '2.1985758')).toBe(false);
    await call(alice.auth, 'GET', `/api/user/botOperation?id=${id}&action=stop`);
    await call(alice.auth, 'GET', `/api/user/botOperation?id=${id}&action=delete`);
    const after = await call(bob.auth, 'GET', '/api/market/botRank?mode=simulation&period=all&page=1&limit=50');
    expect(after.data.list.some((e) => e.profit === '2.1985758')).toBe(false);
  });

  it('ranks by total ROI with the floating PnL: a bot under water shows its loss and its fall, not its realised 0', async () => {
    const carol = await register();
    const dave = await register();
    for (const who of [carol, dave]) expect((await call(who.auth, 'POST', '/api/exchanges/bind', { exchangeId: 1, apiKey: 'paperkey01', secretKey: 'papersecret01' })).code).toBe(1);
    market.set('BTC/USDT', '50000');
    const start = async (who: { auth: Record<string, string> }) => {
      const id = (await call(who.auth, 'POST', '/api/user/botCreate', { type: 'martin', exchangeId: 1, symbol: 'BTC/USDT', params })).data.id;
      expect((await call(who.auth, 'GET', `/api/user/botOperation?id=${id}&action=start`)).code).toBe(1);
      return id;
    };
    const under = await start(carol); // opens at 50,000
    await step('49500'); // 1 % down, above its add at 49,000: no cycle closed, a floating loss
    const rank = (await call(dave.auth, 'GET', '/api/market/botRank?mode=simulation&period=all&page=1&limit=50')).data;
    const entry = rank.list.find((e) => e.symbol === 'BTC/USDT' && Number(e.totalPnl) < 0)!;
    expect(entry).toMatchObject({ profit: '0', roiPct: '0', cycles: 0 });
    // 100 USDT bought 0.002 BTC (0.001998 after the fee), worth 0.001998 x 49,500 x 0.999 = 98.80 now: -1.20 USDT.
    expect(Number(entry.totalPnl)).toBeCloseTo(-1.2, 1);
    expect(entry.totalRoiPct).toBe('-0.12');
    expect(entry.maxDrawdownPct).toBe('0.12');
    // Below every bot with a positive total.
    const places = rank.list.map((e) => Number(e.totalRoiPct));
    expect([...places].sort((a, b) => b - a)).toEqual(places);
    expect((await call(carol.auth, 'GET', `/api/user/botOperation?id=${under}&action=stop`)).code).toBe(1);
  });
});
