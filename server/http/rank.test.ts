import { sql } from 'kysely';
import { maskName } from '../services/rank.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Code } from '../../contract/codes.ts';
import { dbKinds, openTestApp, type Answer, type DataAt, type TestApp, registerPayload } from '../testing/test-support.ts';

/** The rank list, the home banners and a bound exchange's balances. */
describe.each(dbKinds)('rank, banners and exchange assets (%s)', (kind) => {
  let t: TestApp;
  const users: { sn: string; id: string; auth: Record<string, string>; nickname: string }[] = [];
  const call = <U extends string>(who: number, url: U, lang = 'en') => t.app.inject({ method: 'GET', url, headers: { ...users[who]!.auth, lang } }).then((r) => r.json() as Answer<DataAt<'GET', U>>);
  /** A closed cycle of `profit` on a new bot of the user on exchange 1 (Paper) or 2 (Binance), `daysAgo` days back. */
  const cycle = async (who: number, exchangeId: number, profit: string, daysAgo = 0) => {
    const bot = await t.db
      .insertInto('bots')
      .values({ user_id: users[who]!.id, exchange_id: exchangeId, symbol: 'BTC/USDT', type: 'martin', name: 'r', status: 'stopped', params: '{}', state: '{}' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const row = await t.db
      .insertInto('bot_cycles')
      .values({ bot_id: bot.id, user_id: users[who]!.id, cycle: 1, entries: 1, amount: '1', cost: '100', close_price: '101', profit, opened_at: new Date() })
      .returning('id')
      .executeTakeFirstOrThrow();
    if (daysAgo) await sql`update bot_cycles set closed_at = now() - make_interval(days => ${daysAgo}) where id = ${row.id}`.execute(t.db);
  };

  beforeAll(async () => {
    t = await openTestApp(kind);
    for (let i = 0; i < 4; i++) {
      const r = await t.app.inject({ method: 'POST', url: '/api/login/register', payload: await registerPayload(t.app) });
      const sn = r.json().data.sn as string;
      const row = await t.db.selectFrom('users').select(['id', 'nickname']).where('sn', '=', sn).executeTakeFirstOrThrow();
      users.push({ sn, id: String(row.id), nickname: row.nickname, auth: { authorization: `Bearer ${r.json().data.token}` } });
    }
    await cycle(0, 2, '4.5');
    await cycle(0, 2, '5.5'); // user 0: 10 live
    await cycle(1, 2, '25'); // user 1: 25 live
    await cycle(2, 1, '40'); // user 2: 40 on Paper (simulation only)
    await cycle(3, 2, '30', 45); // user 3: 30 live, 45 days ago
    await cycle(3, 2, '-2', 3); // and -2 three days ago
  });
  afterAll(() => t.close());

  it('ranks live traders by realised profit in the period, with the asker’s own place', async () => {
    const r = await call(0, '/api/market/userRank');
    expect(r.data).toMatchObject({ period: '30d', mode: 'live', total: 3, page: 1, page_size: 10 });
    expect(r.data.list.map((e) => [e.rank, e.profit, e.cycles, e.me])).toEqual([
      [1, '25', 1, false],
      [2, '10', 2, true],
      [3, '-2', 1, false],
    ]);
    expect(r.data.list[0]).toMatchObject({ nickname: maskName(users[1]!.nickname), uid: `${users[1]!.sn.slice(0, 2)}****${users[1]!.sn.slice(-2)}` });
    expect(r.data.list[1]!.nickname).toBe(users[0]!.nickname); // one's own name unmasked
    expect(r.data.me).toMatchObject({ rank: 2, profit: '10', me: true });
    const page2 = await call(0, '/api/market/userRank?page=2&limit=1');
    expect(page2.data.list.map((e) => e.profit)).toEqual(['10']);
    expect((await call(0, '/api/market/userRank?period=all')).data.list[0]).toMatchObject({ rank: 1, profit: '28' });
    expect((await call(0, '/api/market/userRank?period=1d')).data.list.map((e) => e.profit)).toEqual(['25', '10']);
  });

  it('keeps simulation apart, and answers no place for a trader without cycles', async () => {
    const sim = await call(0, '/api/market/userRank?mode=simulation');
    expect(sim.data.list.map((e) => [e.rank, e.profit])).toEqual([[1, '40']]);
    expect(sim.data.me).toBeNull();
    expect(await call(0, '/api/market/userRank?period=2y')).toMatchObject({ code: Code.ValidationError });
  });

  it('lists and bills live and simulated bots apart when asked', async () => {
    expect((await call(0, '/api/user/botCount?mode=live')).data.total).toBe(2);
    expect((await call(0, '/api/user/botCount?mode=simulation')).data.total).toBe(0);
    expect((await call(2, '/api/user/bill?mode=simulation')).data.total).toBe(40);
    expect((await call(2, '/api/user/bill?mode=live')).data.total).toBe(0);
    expect((await call(2, '/api/user/billLogs?mode=live')).data.total).toBe(0);
    expect((await call(2, '/api/user/billGroup?mode=simulation')).data.byBot).toHaveLength(1);
    expect((await call(2, '/api/user/bill')).data.total).toBe(40); // no mode: both
  });

  it('serves the home banners in the asked language', async () => {
    const zh = await call(0, '/api/index/banners', 'zh');
    const en = await call(0, '/api/index/banners', 'en');
    expect(zh.data.map((b) => b.link)).toEqual(['/simulation', '/referral', '/my/deposit']);
    expect(zh.data[0]!.title).toBe('先模拟，再实盘');
    expect(en.data[0]!.title).toBe('Simulate first, then go live');
  });

  it('shows the balances of a bound exchange, and says when it is not bound', async () => {
    expect(await call(0, '/api/user/asset?exchange=paper')).toMatchObject({ code: Code.ApiNotBound });
    const bind = await t.app.inject({ method: 'POST', url: '/api/exchanges/bind', payload: { exchangeId: 1, apiKey: 'paperkey01', secretKey: 'papersecret01' }, headers: users[0]!.auth });
    expect(bind.json().code).toBe(1);
    const r = await call(0, '/api/user/asset?exchange=paper');
    expect(r.data.exchange).toBe('paper');
    expect(r.data.balances).toContainEqual({ currency: 'USDT', free: '10000', total: '10000', reserved: '0', available: '10000' });
    expect(await call(0, '/api/user/asset?exchange=binance')).toMatchObject({ code: Code.ApiNotBound });
    // The simulation page's reset: refused while a Paper bot is not stopped, then back to 10000 USDT.
    const reset = () => t.app.inject({ method: 'POST', url: '/api/user/paperReset', headers: { ...users[0]!.auth, lang: 'en' } }).then((r) => r.json());
    await t.db.updateTable('paper_balances').set({ amount: '1.5' }).where('user_id', '=', users[0]!.id).execute();
    const running = await t.db
      .insertInto('bots')
      .values({ user_id: users[0]!.id, exchange_id: 1, symbol: 'BTC/USDT', type: 'martin', name: 's', status: 'running', params: '{}', state: '{"fills":[],"pending":null}' })
      .returning('id')
      .executeTakeFirstOrThrow();
    expect(await reset()).toMatchObject({ code: Code.SimulationBotsActive, msg: expect.stringMatching(/Stop every simulated bot/) });
    await t.db.updateTable('bots').set({ status: 'stopped' }).where('id', '=', running.id).execute();
    const done = await reset();
    expect(done.data.balances).toEqual([{ currency: 'USDT', free: '10000', total: '10000' }]);
    expect(await call(0, '/api/user/asset?exchange=nowhere')).toMatchObject({ code: Code.ApiExchangeUnsupported });
  });
});
