import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Code } from '../../contract/codes.ts';
import { money } from '../../strategy/money.ts';
import { ScriptedMarket } from '../testing/scripted.ts';
import { post } from '../ledger.ts';
import { acceptingKeys, dbKinds, liveOnFeed, openTestApp, type Answer, type DataAt, type TestApp, registerPayload } from '../testing/test-support.ts';
import { createTrading, type Trading } from '../trading.ts';

/** Fuel is paid on live accounts only: these bots trade on a live exchange (Binance's id) kept in the test database. */
const LIVE = 2;
const LIVE_KEYS = { exchangeId: LIVE, apiKey: 'livekey0001', secretKey: 'livesecret0001' };
const params = { investment: '1000', firstOrder: '100', multiplier: '2', maxPositions: 3, addTrigger: '2', takeProfit: '1', stopLoss: '3', repeat: true };

/**
 * Fuel pays for profit: 20% of a live, profitable cycle's realised profit, taken from fuel
 * in the transaction that books the profit; nothing on a loss; no live start without fuel; when fuel
 * runs out, every running live bot of the user pauses and a warning is left. Simulation pays nothing.
 */
describe.each(dbKinds)('fuel, the welcome grant and the profit fee (%s)', (kind) => {
  let t: TestApp;
  let trading: Trading;
  const market = new ScriptedMarket();
  let auth: Record<string, string>;
  let userId = '';
  const call = <M extends 'GET' | 'POST', U extends string>(method: M, url: U, payload?: object) =>
    t.app.inject({ method, url, ...(payload ? { payload } : {}), headers: { ...auth, lang: 'en' } }).then((r) => r.json() as Answer<DataAt<M, U>>);
  const step = async (symbol: string, price: string) => {
    market.set(symbol, price);
    await trading.engine.tick();
    await trading.engine.idle();
  };
  const fuel = async () => (await call('GET', '/api/user/account')).data.fuel as string;
  /** A new trader with live keys bound (on the test's live venue): the one `call` acts as from now on. */
  const newTrader = async () => {
    const r = await t.app.inject({ method: 'POST', url: '/api/login/register', payload: await registerPayload(t.app) });
    auth = { authorization: `Bearer ${r.json().data.token}` };
    userId = String((await t.db.selectFrom('users').select('id').where('sn', '=', r.json().data.sn).executeTakeFirstOrThrow()).id);
    expect((await call('POST', '/api/exchanges/bind', LIVE_KEYS)).code).toBe(1);
  };

  beforeAll(async () => {
    t = await openTestApp(kind, { exchangeClient: acceptingKeys, trading: (db) => (trading = createTrading({ db, feed: market, fuelFeeRate: '0.2', live: liveOnFeed(db, market) })) });
    market.set('BTC/USDT', '50000');
    market.set('ETH/USDT', '3000');
  });
  afterAll(async () => {
    await trading.engine.stop();
    await t.close();
  });

  it('starts a new account with the welcome fuel, logged', async () => {
    await newTrader();
    expect((await call('GET', '/api/user/account')).data).toEqual({ usdt: '0', fuel: '100', points: '0', rewards: '0' });
    const logs = await call('GET', '/api/user/accountLogs');
    expect(logs.data).toMatchObject({ total: 1, page: 1, page_size: 20, list: [{ asset: 'fuel', amount: '100', balance: '100', reason: 'welcome' }] });
  });

  it('takes 20% of a profitable cycle profit from fuel, and nothing on a loss', async () => {
    await newTrader();
    market.set('BTC/USDT', '50000');
    const bot = await call('POST', '/api/user/botCreate', { type: 'martin', exchangeId: LIVE, symbol: 'BTC/USDT', params });
    expect((await call('GET', `/api/user/botOperation?id=${bot.data.id}&action=start`)).code).toBe(1); // buys 0.002 at 50000
    await step('BTC/USDT', '49000'); // adds 0.00408 at 49000
    await step('BTC/USDT', '49900'); // take profit at its price 49822.24: 2.1985758032 USDT (server/http/bots.test.ts works it out)
    // 2.1985758032 x 0.2 = 0.43971516064, rounded up to 8 places: 0.43971517 fuel; 100 - 0.43971517 = 99.56028483
    expect(await fuel()).toBe('99.56028483');
    const fee = (await call('GET', '/api/user/accountLogs?type=fuel')).data.list[0];
    expect(fee).toMatchObject({ amount: '-0.43971517', balance: '99.56028483', reason: 'profit_fee', detail: { bot: bot.data.id, cycle: '1', profit: '2.1985758032', fee: '0.43971517' } });

    await step('BTC/USDT', '50000'); // cycle 2 opens: 0.002 at 50000
    // A fall to 47000 passes the adds waiting at 49000 and 48020 (one a round, each at its price),
    // then the 3% stop under the new average (about 47152.7): sold at the market's 47000, at a loss.
    for (let round = 0; round < 3; round++) await step('BTC/USDT', '47000');
    expect((await call('GET', `/api/user/botPositions?id=${bot.data.id}`)).data.list.find((p) => p.cycle === 2)).toMatchObject({ status: 'closed', profit: expect.stringMatching(/^-/) });
    expect(await fuel()).toBe('99.56028483'); // no fee on a loss
    const ends = (await call('GET', `/api/user/botActions?id=${bot.data.id}&page_size=50`)).data.list.filter((a) => a.kind === 'success');
    expect(ends.map((a) => a.detail.how)).toEqual(['stop_loss', 'take_profit']); // newest first: logged as what happened
    await call('GET', `/api/user/botOperation?id=${bot.data.id}&action=stop`);
  });

  it('pauses every running bot and leaves a warning when fuel runs out; no bot starts without fuel', async () => {
    await newTrader();
    // Fuel nearly gone (an adjustment through the ledger, as support would make it).
    await post(t.db, { userId, asset: 'fuel', amount: money('-99.95'), reason: 'adjust' }); // 0.05 left
    const a = await call('POST', '/api/user/botCreate', { type: 'martin', exchangeId: LIVE, symbol: 'BTC/USDT', params });
    const b = await call('POST', '/api/user/botCreate', { type: 'martin', exchangeId: LIVE, symbol: 'ETH/USDT', params: { ...params, firstOrder: '50', investment: '500' } });
    expect((await call('POST', '/api/exchanges/bind', { exchangeId: 1, apiKey: 'paperkey01', secretKey: 'papersecret01' })).code).toBe(1);
    const sim = await call('POST', '/api/user/botCreate', { type: 'martin', exchangeId: 1, symbol: 'ETH/USDT', params: { ...params, firstOrder: '50', investment: '500' } });
    market.set('BTC/USDT', '50000');
    await call('GET', `/api/user/botOperation?id=${sim.data.id}&action=start`);
    await call('GET', `/api/user/botOperation?id=${a.data.id}&action=start`);
    await call('GET', `/api/user/botOperation?id=${b.data.id}&action=start`);
    await step('BTC/USDT', '51000'); // bot a takes profit at 50500: 0.00199 BTC sold, 0.394505 USDT, fee 0.078901 > 0.05 left
    await trading.engine.idle();
    expect(await fuel()).toBe('0');
    for (const id of [a.data.id, b.data.id]) {
      const info = await call('GET', `/api/user/botInfo?id=${id}`);
      expect(info.data).toMatchObject({ status: 'paused', error: 'fuel' });
      const actions = await call('GET', `/api/user/botActions?id=${id}`);
      expect(actions.data.list.map((x) => [x.kind, x.detail.reason])).toContainEqual(['pause', 'fuel']);
    }
    // Simulation pays no fuel: the Paper bot keeps running, and another one starts with none.
    expect((await call('GET', `/api/user/botInfo?id=${sim.data.id}`)).data.status).toBe('running');
    const sim2 = await call('POST', '/api/user/botCreate', { type: 'martin', exchangeId: 1, symbol: 'BTC/USDT', params });
    expect((await call('GET', `/api/user/botOperation?id=${sim2.data.id}&action=start`)).code).toBe(1);
    for (const id of [sim.data.id, sim2.data.id]) await call('GET', `/api/user/botOperation?id=${id}&action=stop`);
    // The warnings hold the one warning; the whole list also has the closed cycle that paid the last fuel.
    const notices = await call('GET', '/api/notice/list?kind=warning');
    expect(notices.data).toMatchObject({ total: 1, list: [{ kind: 'warning', code: 'fuel_empty', detail: { paused: '2' }, read: false }] });
    const all = await call('GET', '/api/notice/list');
    expect(all.data.list.map((n) => n.code)).toEqual(['fuel_empty', 'cycle_closed']);
    expect(all.data.list[1]).toMatchObject({ kind: 'notice', detail: { how: 'take_profit' } });
    const detail = await call('GET', `/api/notice/detail?id=${notices.data.list[0]!.id}`);
    expect(detail.data).toMatchObject({ code: 'fuel_empty', read: true });
    await call('POST', '/api/notice/read', { all: true });
    expect((await call('GET', '/api/notice/list')).data.unread).toBe(0);
    expect((await call('GET', '/api/notice/detail?id=999999')).code).toBe(Code.NotFound);
    expect((await call('POST', '/api/notice/read', {})).code).toBe(Code.RequiredFieldMissing);
    // Paused bots stay paused on the next prices, and neither resumes nor starts without fuel.
    await step('ETH/USDT', '2000');
    expect((await call('GET', `/api/user/botInfo?id=${b.data.id}`)).data.positions).toBe(1);
    const refused = await call('GET', `/api/user/botOperation?id=${b.data.id}&action=resume`);
    expect([refused.code, refused.msg]).toEqual([Code.InsufficientFuel, expect.stringMatching(/fuel/i)]);
  });

  it('credits referrers with their share of the fee their team pays, two levels up', async () => {
    const reg = async (referrer?: string) => {
      const r = await t.app.inject({ method: 'POST', url: '/api/login/register', payload: await registerPayload(t.app, { ...(referrer ? { referrer } : {}) }) });
      return { auth: { authorization: `Bearer ${r.json().data.token}` }, sn: r.json().data.sn as string };
    };
    const as =
      (who: { auth: Record<string, string> }) =>
      <M extends 'GET' | 'POST', U extends string>(method: M, url: U, payload?: object) =>
        t.app.inject({ method, url, ...(payload ? { payload } : {}), headers: { ...who.auth, lang: 'en' } }).then((r) => r.json() as Answer<DataAt<M, U>>);
    const a = await reg();
    const b = await reg(a.sn);
    const c = await reg(b.sn);
    const callC = as(c);
    expect((await callC('POST', '/api/exchanges/bind', LIVE_KEYS)).code).toBe(1);
    market.set('SOL/USDT', '100');
    const bot = await callC('POST', '/api/user/botCreate', { type: 'martin', exchangeId: LIVE, symbol: 'SOL/USDT', params: { ...params, firstOrder: '100', investment: '700' } });
    expect((await callC('GET', `/api/user/botOperation?id=${bot.data.id}&action=start`)).code).toBe(1); // 1 SOL at 100
    await step('SOL/USDT', '102'); // take profit at 101: sells 0.999 SOL at 102
    const fee = (await callC('GET', '/api/user/accountLogs?type=fuel')).data.list[0]!;
    expect(fee.reason).toBe('profit_fee');
    const paid = money(fee.amount).neg();
    // b (who invited c) earns 10% of the fee, a (who invited b) 5%, rounded down to 8 places.
    const rewardOf = async (who: { auth: Record<string, string> }) => (await as(who)('GET', '/api/user/account')).data.rewards as string;
    expect(await rewardOf(b)).toBe(paid.mul('0.1').toDecimalPlaces(8, 1).toFixed());
    expect(await rewardOf(a)).toBe(paid.mul('0.05').toDecimalPlaces(8, 1).toFixed());
    const rewardLog = (await as(b)('GET', '/api/user/accountLogs?type=rewards')).data.list[0];
    expect(rewardLog).toMatchObject({ reason: 'reward', detail: { from: c.sn, bot: bot.data.id, cycle: '1', fee: paid.toFixed() } });
    // a's team: b (level 1) and c (level 2, running one bot), and what each earned a.
    const team = await as(a)('GET', '/api/user/referrals');
    expect(team.data).toMatchObject({ team: 2, total: 2, rewards: await rewardOf(a) });
    expect(team.data.list.map((m) => [m.sn, m.level, m.running])).toEqual([
      [c.sn, 2, 1],
      [b.sn, 1, 0],
    ]);
    expect(team.data.list[0]!.rewards).toBe(await rewardOf(a));
  });

  it('warns once when a fee takes fuel under 10', async () => {
    const r = await t.app.inject({ method: 'POST', url: '/api/login/register', payload: await registerPayload(t.app) });
    const who = { authorization: `Bearer ${r.json().data.token}`, lang: 'en' };
    const id = String((await t.db.selectFrom('users').select('id').where('sn', '=', r.json().data.sn).executeTakeFirstOrThrow()).id);
    const as = <M extends 'GET' | 'POST', U extends string>(method: M, url: U, payload?: object) =>
      t.app.inject({ method, url, ...(payload ? { payload } : {}), headers: who }).then((x) => x.json() as Answer<DataAt<M, U>>);
    await post(t.db, { userId: id, asset: 'fuel', amount: money('-90'), reason: 'adjust' }); // 10 left
    expect((await as('POST', '/api/exchanges/bind', LIVE_KEYS)).code).toBe(1);
    market.set('LTC/USDT', '100');
    const bot = await as('POST', '/api/user/botCreate', { type: 'martin', exchangeId: LIVE, symbol: 'LTC/USDT', params: { ...params, firstOrder: '100', investment: '700' } });
    expect((await as('GET', `/api/user/botOperation?id=${bot.data.id}&action=start`)).code).toBe(1);
    await step('LTC/USDT', '102'); // a profit of about 1.6: a fee of about 0.32 takes fuel from 10 to about 9.7
    const account = (await as('GET', '/api/user/account')).data;
    expect(money(account.fuel).lt(10) && money(account.fuel).gt(9)).toBe(true);
    const notices = (await as('GET', '/api/notice/list?kind=warning')).data;
    expect(notices.list.map((n) => [n.code, n.detail.fuel])).toEqual([['fuel_low', account.fuel]]);
    expect((await as('GET', `/api/user/botInfo?id=${bot.data.id}`)).data.status).toBe('running'); // low, not out: bots keep running
    await as('GET', `/api/user/botOperation?id=${bot.data.id}&action=stop`);
  });

  it('pays no fuel, no reward and nothing withdrawable for simulated profits: a referral farm earns 0', async () => {
    // The attack: one referrer, many free sign-ups under them, each running simulated bots (Paper and a
    // simulated account on a live exchange's prices) until profits close; then rewards -> USDT -> chain.
    const reg = async (referrer?: string) => {
      const r = await t.app.inject({ method: 'POST', url: '/api/login/register', payload: await registerPayload(t.app, { ...(referrer ? { referrer } : {}) }) });
      const auth = { authorization: `Bearer ${r.json().data.token}`, lang: 'en' };
      const as = <M extends 'GET' | 'POST', U extends string>(method: M, url: U, payload?: object) =>
        t.app.inject({ method, url, ...(payload ? { payload } : {}), headers: auth }).then((x) => x.json() as Answer<DataAt<M, U>>);
      return { sn: r.json().data.sn as string, as };
    };
    const farmer = await reg();
    const members = await Promise.all(Array.from({ length: 4 }, () => reg(farmer.sn)));
    market.set('XRP/USDT', '1');
    const bots: string[] = [];
    for (const m of members) {
      expect((await m.as('POST', '/api/exchanges/bind', { exchangeId: 1, apiKey: 'paperkey01', secretKey: 'papersecret01' })).code).toBe(1);
      const bot = await m.as('POST', '/api/user/botCreate', { type: 'martin', exchangeId: 1, symbol: 'XRP/USDT', params: { ...params, firstOrder: '100', investment: '700' } });
      expect((await m.as('GET', `/api/user/botOperation?id=${bot.data.id}&action=start`)).code).toBe(1);
      bots.push(bot.data.id);
    }
    for (let i = 0; i < 3; i++) {
      await step('XRP/USDT', '1.05'); // take profit on every member's bot
      await step('XRP/USDT', '1'); // the next cycle opens
    }
    for (const [i, m] of members.entries()) {
      const closed = (await m.as('GET', `/api/user/botPositions?id=${bots[i]}`)).data.list.filter((p) => p.status === 'closed');
      expect(closed.length).toBeGreaterThanOrEqual(3);
      for (const c of closed) expect(Number(c.profit)).toBeGreaterThan(0);
      expect((await m.as('GET', '/api/user/account')).data).toEqual({ usdt: '0', fuel: '100', points: '0', rewards: '0' });
      expect((await m.as('GET', '/api/user/accountLogs?type=fuel')).data.list.map((l) => l.reason)).toEqual(['welcome']);
    }
    expect((await farmer.as('GET', '/api/user/account')).data).toEqual({ usdt: '0', fuel: '100', points: '0', rewards: '0' });
    expect((await farmer.as('GET', '/api/user/referrals')).data).toMatchObject({ team: 4, rewards: '0' });
    const fromFarm = await t.db
      .selectFrom('account_logs')
      .select('id')
      .where('reason', 'in', ['reward', 'profit_fee'])
      .where(({ ref }) => sql<boolean>`${ref('detail')}->>'bot' in (${sql.join(bots)})`)
      .execute();
    expect(fromFarm).toHaveLength(0);
    for (const [i, m] of members.entries()) await m.as('GET', `/api/user/botOperation?id=${bots[i]}&action=stop`);
  });
});
