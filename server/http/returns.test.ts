import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Code } from '../../contract/codes.ts';
import { ScriptedMarket } from '../testing/scripted.ts';
import { money } from '../../strategy/money.ts';
import { dbKinds, newAccount, openTestApp, registerPayload, type Answer, type DataAt, type TestApp } from '../testing/test-support.ts';
import { portfolio } from '../services/portfolio.ts';
import { nextSnapshotAt, prunePnlSnapshots, snapshotPnl } from '../services/pnl.ts';
import { createTrading, type LiveSide, type Trading } from '../trading.ts';

const DAY = 86_400;
const martin = { investment: '1000', firstOrder: '100', multiplier: '2', maxPositions: 3, addTrigger: '2', takeProfit: '1', stopLoss: '', repeat: true };

/**
 * on the real app: the returns of every bot (ROI and APR with the worked numbers of
 * docs/engine.md), PnL over time, the all-bots log with its filters, and the portfolio across accounts
 * with an account that cannot be read.
 */
describe.each(dbKinds)('returns, the all-bots log and the portfolio (%s)', (kind) => {
  let t: TestApp;
  let trading: Trading;
  const market = new ScriptedMarket();
  let auth: Record<string, string> = {};
  let userId = '';
  const call = <U extends string>(url: U, lang = 'en') =>
    t.app.inject({ method: 'GET', url, headers: { ...auth, lang } }).then((r) => {
      expect(r.statusCode).toBe(200);
      return r.json() as Answer<DataAt<'GET', U>>;
    });
  const send = (method: 'GET' | 'POST', url: string, payload?: object) =>
    t.app.inject({ method, url, ...(payload ? { payload } : {}), headers: { ...auth, lang: 'en' } }).then((r) => r.json() as Answer<{ id: string }>);
  const step = async (price: string) => {
    market.set('BTC/USDT', price);
    for (let i = 0; i < 4; i++) {
      await trading.engine.tick();
      await trading.engine.idle();
    }
  };
  const ago = (days: number) => new Date(Date.now() - days * DAY * 1000);
  let flat = '';
  let young = '';
  let holding = '';

  beforeAll(async () => {
    t = await openTestApp(kind, { trading: (db) => (trading = createTrading({ db, feed: market })) });
    market.set('BTC/USDT', '50000');
    const r = await t.app.inject({ method: 'POST', url: '/api/login/register', payload: await registerPayload(t.app, { account: newAccount() }) });
    auth = { authorization: `Bearer ${r.json().data.token}` };
    userId = String((await t.db.selectFrom('users').select('id').where('sn', '=', r.json().data.sn).executeTakeFirstOrThrow()).id);
    expect((await send('POST', '/api/exchanges/bind', { exchangeId: 1, apiKey: 'paperkey01', secretKey: 'papersecret01' })).code).toBe(1);
    const make = async (name: string) => {
      const created = await send('POST', '/api/user/botCreate', { type: 'martin', exchangeId: 1, symbol: 'BTC/USDT', name, params: martin });
      expect(created.code).toBe(1);
      expect((await send('GET', `/api/user/botOperation?id=${created.data.id}&action=start`)).code).toBe(1);
      return created.data.id;
    };
    // The worked bot: started 10 days ago, stopped 5 days ago, 15 USDT realised, holding nothing.
    flat = await make('Flat');
    await trading.engine.idle();
    expect((await send('GET', `/api/user/botOperation?id=${flat}&action=stop`)).code).toBe(1);
    young = await make('Young');
    holding = await make('Holding');
    await trading.engine.idle();
    await step('50000');
    await t.db
      .updateTable('bots')
      .set({ realized: '15', state: sql`jsonb_set(state, '{fills}', '[]'::jsonb)` as never })
      .where('id', '=', flat)
      .execute();
    await sql`update bot_actions set created_at = ${ago(10)} where bot_id = ${flat} and kind = 'start'`.execute(t.db);
    await sql`update bot_actions set created_at = ${ago(5)} where bot_id = ${flat} and kind = 'stop'`.execute(t.db);
    // Its cycles: 10 USDT closed 40 days ago (before a 30-day window), 5 USDT two days ago.
    await t.db
      .insertInto('bot_cycles')
      .values([
        { bot_id: flat, user_id: userId, cycle: 1, entries: 1, amount: '0.002', cost: '100', close_price: '55000', profit: '10', opened_at: null, closed_at: ago(40) },
        { bot_id: flat, user_id: userId, cycle: 2, entries: 1, amount: '0.002', cost: '100', close_price: '52500', profit: '5', opened_at: null, closed_at: ago(2) },
      ] as never)
      .execute();
  });
  afterAll(async () => {
    await trading.engine.stop();
    await t.close();
  });

  it('gives each bot its total PnL, ROI on the investment and APR over its runtime (the worked numbers)', async () => {
    const list = await call('/api/user/botList?page=1&page_size=10');
    const bot = list.data.list.find((b) => b.id === flat)!;
    // 15 realised + 0 floating on 1,000 = 1.5 %; 5 days from the first start to the stop: 1.5 x 365 / 5 = 109.5 %.
    expect(bot).toMatchObject({ profit: '15', unrealized: '0', totalProfit: '15', roi: '1.5', apr: '109.5' });
    expect(Math.abs(bot.runtime - 5 * DAY)).toBeLessThanOrEqual(2);
    expect(bot.startedAt).not.toBeNull();
    const detail = await call(`/api/user/botDetail?id=${flat}`);
    expect(detail.data).toMatchObject({ totalProfit: '15', roi: '1.5', apr: '109.5' });
  });

  it('gives no APR under a day of runtime, and adds the floating PnL of what a bot holds', async () => {
    const list = await call('/api/user/botList?page=1&page_size=10');
    const y = list.data.list.find((b) => b.id === young)!;
    expect(y.runtime).toBeLessThan(DAY);
    expect(y.apr).toBeNull();
    await step('49000'); // every running bot adds; the price is under their average
    const h = (await call(`/api/user/botDetail?id=${holding}`)).data;
    expect(money(h.unrealized).lt(0)).toBe(true);
    expect(h.totalProfit).toBe(money(h.profit).plus(h.unrealized).toFixed());
    expect(h.roi).toBe(money(h.totalProfit).div(1000).mul(100).toDecimalPlaces(4).toFixed());
    const again = (await call('/api/user/botList?page=1&page_size=10')).data.list.find((b) => b.id === holding)!;
    expect(again.unrealized).toBe(h.unrealized);
  });

  it('draws PnL over time for one bot and for the account', async () => {
    const one = (await call(`/api/user/pnl?id=${flat}&days=30`)).data;
    expect(one.points).toHaveLength(30);
    expect(one.points[0]!.cumulative).toBe('10');
    expect(one.points.at(-3)).toMatchObject({ profit: '5', cumulative: '15' });
    expect(one.points.at(-1)!.cumulative).toBe('15');
    expect(one).toMatchObject({ realized: '15', unrealized: '0', total: '15', investment: '1000', roi: '1.5', apr: '109.5', unpriced: 0, days: 30 });

    const all = (await call('/api/user/pnl?mode=simulation&days=7')).data;
    expect(all.points).toHaveLength(7);
    expect(all.investment).toBe('3000');
    const bots = (await call('/api/user/botList?page=1&page_size=10')).data.list;
    const floating = bots.reduce((s, b) => s.plus(b.unrealized ?? '0'), money(0));
    expect(all.unrealized).toBe(floating.toFixed());
    expect(all.total).toBe(money(all.realized).plus(all.unrealized).toFixed());
    // The longest runtime: the young ones have run under a day, the worked bot 5 days.
    expect(Math.abs(all.runtime - 5 * DAY)).toBeLessThanOrEqual(2);

    const none = (await call('/api/user/pnl?mode=live')).data;
    expect(none).toMatchObject({ realized: '0', total: '0', investment: '0', roi: null, apr: null, days: 30 });
    expect((await call('/api/user/pnl?id=999999')).code).toBe(Code.StrategyNotFound);
    expect((await call('/api/user/pnl?days=8')).code).toBe(Code.ValidationError);
  });

  it('lists every bot’s log, newest first, by bot, kind and day, one page at a time', async () => {
    const all = (await call('/api/user/actions?page=1&page_size=50')).data;
    const ids = new Set(all.list.map((a) => a.botId));
    expect([...ids].sort()).toEqual([flat, young, holding].sort());
    expect(all.total).toBe(all.list.length);
    const sorted = [...all.list].sort((x, y) => Number(y.id) - Number(x.id));
    expect(all.list.map((a) => a.id)).toEqual(sorted.map((a) => a.id));
    expect(all.list[0]).toMatchObject({ botName: expect.any(String), exchange: 'paper', symbol: 'BTC/USDT' });

    const page = (await call('/api/user/actions?page=2&page_size=2')).data;
    expect(page.list.map((a) => a.id)).toEqual(all.list.slice(2, 4).map((a) => a.id));
    expect(page.total).toBe(all.total);

    const starts = (await call('/api/user/actions?kind=start')).data;
    expect(starts.total).toBe(3);
    for (const a of starts.list) expect(a.kind).toBe('start');
    const mine = (await call(`/api/user/actions?bot=${flat}`)).data;
    expect(mine.list.length).toBeGreaterThan(0);
    for (const a of mine.list) expect(a.botId).toBe(flat);

    // The worked bot's start was moved 10 days back: only it is in that day.
    const day = (d: number) => ago(d).toISOString().slice(0, 10);
    const then = (await call(`/api/user/actions?from=${day(10)}&to=${day(10)}`)).data;
    expect(then.list.map((a) => [a.botId, a.kind])).toEqual([[flat, 'start']]);
    const today = (await call(`/api/user/actions?from=${day(0)}`)).data;
    expect(today.list.some((a) => a.botId === flat && a.kind === 'start')).toBe(false);

    // Days in the trader's time zone (tz, minutes east of UTC): a zone where that start falls on another
    // day than in UTC finds it on its own day and not on the UTC one.
    const at = new Date(then.list[0]!.at);
    const tz = at.getUTCHours() >= 12 ? 840 : -720;
    const localDay = new Date(at.getTime() + tz * 60_000).toISOString().slice(0, 10);
    expect(localDay).not.toBe(day(10));
    const local = (await call(`/api/user/actions?from=${localDay}&to=${localDay}&tz=${tz}`)).data;
    expect(local.list.map((a) => [a.botId, a.kind])).toEqual([[flat, 'start']]);
    const utcDayThere = (await call(`/api/user/actions?from=${day(10)}&to=${day(10)}&tz=${tz}`)).data;
    expect(utcDayThere.list.some((a) => a.botId === flat && a.kind === 'start')).toBe(false);
  });

  it('refuses bad filters with a clear code and text, never a 500', async () => {
    const backwards = await call('/api/user/actions?from=2026-11-20&to=2026-11-10');
    expect(backwards.code).toBe(Code.InvalidDateRange);
    expect(backwards.msg).toMatch(/date range/i);
    expect((await call('/api/user/actions?from=2026-11-20&to=2026-11-10', 'zh')).msg).toContain('日期范围无效');
    expect((await call('/api/user/actions?from=2026-02-30')).code).toBe(Code.InvalidDateRange);
    expect((await call('/api/user/actions?to=yesterday')).code).toBe(Code.InvalidDateRange);
    expect((await call('/api/user/actions?kind=explode')).code).toBe(Code.ValidationError);
    expect((await call('/api/user/actions?bot=999999')).code).toBe(Code.StrategyNotFound);
    expect((await call('/api/user/actions?page_size=1000')).code).toBe(Code.ValidationError);
    for (const tz of ['841', '-721', '8h', '1.5']) expect((await call(`/api/user/actions?from=2026-11-20&tz=${tz}`)).code, tz).toBe(Code.ValidationError);
  });

  it('values every account in USDT at the price now, and shows one it cannot read as unavailable, not 0', async () => {
    // A bound live exchange (Binance) and a simulated account (Binance 模拟): this app has no live side, so neither balance can be read.
    await t.db
      .insertInto('exchange_keys')
      .values([
        { user_id: userId, exchange_id: 2, api_key_masked: 'bina****1111', sealed: 'x' },
        { user_id: userId, exchange_id: 102, api_key_masked: '', sealed: 'x' },
      ])
      .execute();
    const p = await call('/api/user/portfolio');
    expect(p.code).toBe(1);
    expect(p.data.accounts.map((a) => [a.exchange, a.kind, a.status])).toEqual([
      ['paper', 'paper', 'ok'],
      ['binance', 'live', 'unavailable'],
      ['binancesim', 'simulated', 'unavailable'],
    ]);
    expect(p.data.unavailable).toBe(2);
    const binance = p.data.accounts[1]!;
    expect(binance).toMatchObject({ equity: null, available: null, coins: [] });

    const paper = p.data.accounts[0]!;
    const held = await t.db.selectFrom('paper_balances').select(['currency', 'amount']).where('user_id', '=', userId).where('exchange_id', '=', 1).execute();
    const btc = held.find((h) => h.currency === 'BTC')!;
    const usdt = held.find((h) => h.currency === 'USDT')!;
    // BTC valued at the price now (49,000), USDT at 1; free USDT less what the running bots reserve is what is available.
    expect(paper.coins.find((c) => c.currency === 'BTC')).toMatchObject({ total: money(btc.amount).toFixed(), price: '49000', value: money(btc.amount).mul(49000).toDecimalPlaces(8).toFixed() });
    const asset = (await call('/api/user/asset?exchange=paper')).data.balances.find((b) => b.currency === 'USDT')!;
    expect(paper.available).toBe(money(usdt.amount).minus(asset.reserved).toFixed());
    expect(paper.equity).toBe(money(usdt.amount).plus(money(btc.amount).mul(49000).toDecimalPlaces(8)).toFixed());
    expect(p.data).toMatchObject({ live: '0', simulation: paper.equity, total: paper.equity });
  });
});

/**
 * with live exchanges: a bound exchange that answers is valued coin by coin (a coin with no
 * USDT pair counts in no sum), one that fails is `unavailable` while the others still answer, and the
 * sums keep real (live) and virtual (Paper) money apart.
 */
describe.each(dbKinds)('the portfolio with live exchanges (%s)', (kind) => {
  let t: TestApp;
  let trading: Trading;
  const market = new ScriptedMarket();
  const live: LiveSide = {
    venue: () => Promise.reject(new Error('no trading here')),
    balances: async (account) => {
      if (account.exchange === 'okx') throw new Error('okx is down');
      return [
        { currency: 'USDT', free: '100.5', total: '120.5' },
        { currency: 'BTC', free: '0.5', total: '0.5' },
        { currency: 'NOPRICE', free: '7', total: '7' },
        { currency: 'DUST', free: '0', total: '0' },
      ];
    },
    price: async (_exchange, symbol) => {
      if (symbol === 'BTC/USDT') return '40000.1';
      throw new Error('no such pair');
    },
    market: () => Promise.reject(new Error('unused')),
    symbols: async () => [],
    tickers: async () => [],
    candles: async () => [],
  };

  beforeAll(async () => {
    t = await openTestApp(kind, { trading: (db) => (trading = createTrading({ db, feed: market, live })) });
  });
  afterAll(async () => {
    await trading.engine.stop();
    await t.close();
  });

  it('values the live accounts it can read, and shows the one it cannot as unavailable', async () => {
    const r = await t.app.inject({ method: 'POST', url: '/api/login/register', payload: await registerPayload(t.app, { account: newAccount() }) });
    const auth = { authorization: `Bearer ${r.json().data.token}` };
    const userId = String((await t.db.selectFrom('users').select('id').where('sn', '=', r.json().data.sn).executeTakeFirstOrThrow()).id);
    expect((await t.app.inject({ method: 'POST', url: '/api/exchanges/bind', payload: { exchangeId: 1, apiKey: 'paperkey01', secretKey: 'papersecret01' }, headers: auth })).json().code).toBe(1);
    await t.db
      .insertInto('exchange_keys')
      .values([
        { user_id: userId, exchange_id: 2, api_key_masked: 'bina****1111', sealed: 'x' },
        { user_id: userId, exchange_id: 3, api_key_masked: 'okxk****2222', sealed: 'x' },
      ])
      .execute();
    const p = (await t.app.inject({ method: 'GET', url: '/api/user/portfolio', headers: { ...auth, lang: 'en' } })).json() as Answer<DataAt<'GET', '/api/user/portfolio'>>;
    expect(p.code).toBe(1);
    const [paper, binance, okx] = p.data.accounts;
    expect(okx).toMatchObject({ exchange: 'okx', kind: 'live', status: 'unavailable', equity: null, available: null });
    // 120.5 USDT + 0.5 BTC x 40,000.1 = 20,120.55; NOPRICE has no value, DUST is not held.
    expect(binance).toMatchObject({ exchange: 'binance', kind: 'live', status: 'ok', equity: '20120.55', available: '100.5', coinCount: 3 });
    expect(binance!.coins.map((c) => [c.currency, c.price, c.value])).toEqual([
      ['BTC', '40000.1', '20000.05'],
      ['USDT', '1', '120.5'],
      ['NOPRICE', null, null],
    ]);
    expect(paper).toMatchObject({ exchange: 'paper', kind: 'paper', status: 'ok', equity: '10000' });
    expect(p.data).toMatchObject({ live: '20120.55', simulation: '10000', total: '30120.55', unavailable: 1 });

    // An exchange that never answers is unavailable after the wait, not a hung answer.
    const hanging = createTrading({ db: t.db, feed: market, live: { ...live, balances: () => new Promise(() => undefined) } });
    const started = Date.now();
    const slow = await portfolio(t.db, hanging, userId, 100);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(slow.accounts.map((a) => [a.exchange, a.status])).toEqual([
      ['paper', 'ok'],
      ['binance', 'unavailable'],
      ['okx', 'unavailable'],
    ]);
  });
});

/**
 * , the PnL chart's total: the maintenance duty's daily snapshot (snapshotPnl) keeps each
 * running or holding bot's realised and floating PnL of the UTC day, one row per bot and day; a past
 * point's total is its snapshot's, today's the live figures; the account counts its deleted bots'
 * realised profit as the bill does. Two traders: neither's snapshots nor PnL ever hold the other's.
 */
describe.each(dbKinds)('PnL snapshots, the day’s total and deleted bots (%s)', (kind) => {
  let t: TestApp;
  let trading: Trading;
  const market = new ScriptedMarket();
  const ago = (days: number) => new Date(Date.now() - days * DAY * 1000);
  const dayAgo = (days: number) => ago(days).toISOString().slice(0, 10);
  interface Trader {
    auth: Record<string, string>;
    userId: string;
    holding: string;
    idle: string;
    gone: string;
  }
  const a: Trader = { auth: {}, userId: '', holding: '', idle: '', gone: '' };
  const b: Trader = { auth: {}, userId: '', holding: '', idle: '', gone: '' };
  const call = <U extends string>(who: Trader, url: U) =>
    t.app.inject({ method: 'GET', url, headers: { ...who.auth, lang: 'en' } }).then((r) => {
      expect(r.statusCode).toBe(200);
      return r.json() as Answer<DataAt<'GET', U>>;
    });
  const send = (who: Trader, method: 'GET' | 'POST', url: string, payload?: object) =>
    t.app.inject({ method, url, ...(payload ? { payload } : {}), headers: { ...who.auth, lang: 'en' } }).then((r) => r.json() as Answer<{ id: string }>);
  const step = async (price: string) => {
    market.set('BTC/USDT', price);
    for (let i = 0; i < 4; i++) {
      await trading.engine.tick();
      await trading.engine.idle();
    }
  };
  const rows = (day: string) =>
    sql<{ bot_id: string; user_id: string; owner: string; realized: string; unrealized: string }>`
      select s.bot_id, s.user_id, b.user_id as owner, s.realized, s.unrealized from bot_pnl_days s join bots b on b.id = s.bot_id
      where s.day = ${day}::date order by s.bot_id`
      .execute(t.db)
      .then((r) =>
        r.rows.map((x) => ({ ...x, bot_id: String(x.bot_id), user_id: String(x.user_id), owner: String(x.owner), realized: money(x.realized).toFixed(), unrealized: money(x.unrealized).toFixed() })),
      );

  async function open(who: Trader, firstOrder: string) {
    const r = await t.app.inject({ method: 'POST', url: '/api/login/register', payload: await registerPayload(t.app, { account: newAccount() }) });
    who.auth = { authorization: `Bearer ${r.json().data.token}` };
    who.userId = String((await t.db.selectFrom('users').select('id').where('sn', '=', r.json().data.sn).executeTakeFirstOrThrow()).id);
    expect((await send(who, 'POST', '/api/exchanges/bind', { exchangeId: 1, apiKey: 'paperkey01', secretKey: 'papersecret01' })).code).toBe(1);
    const make = async (name: string) => {
      const created = await send(who, 'POST', '/api/user/botCreate', { type: 'martin', exchangeId: 1, symbol: 'BTC/USDT', name, params: { ...martin, firstOrder } });
      expect(created.code).toBe(1);
      return created.data.id;
    };
    who.holding = await make('Holding');
    who.idle = await make('Idle'); // never started: stopped, holding nothing
    who.gone = await make('Gone');
    expect((await send(who, 'GET', `/api/user/botOperation?id=${who.holding}&action=start`)).code).toBe(1);
  }

  beforeAll(async () => {
    t = await openTestApp(kind, { trading: (db) => (trading = createTrading({ db, feed: market })) });
    market.set('BTC/USDT', '50000');
    await open(a, '100');
    await open(b, '120');
    await trading.engine.idle();
    await step('50000'); // both holding bots buy their first order
    await step('49500'); // under their average, no add yet (2 %): a floating loss
    // A's holding bot: 5 USDT realised by a partial close two days ago (counted at once), its cycle closed yesterday.
    // A's Gone bot: 12 USDT in a cycle closed three days ago, then deleted. B's Gone bot: 30 USDT, kept.
    await t.db.updateTable('bots').set({ realized: '5' }).where('id', '=', a.holding).execute();
    await t.db.updateTable('bots').set({ realized: '12' }).where('id', '=', a.gone).execute();
    await t.db.updateTable('bots').set({ realized: '30' }).where('id', '=', b.gone).execute();
    const cycle = (bot: string, user: string, profit: string, closed: Date) => ({
      bot_id: bot,
      user_id: user,
      cycle: 1,
      entries: 1,
      amount: '0.002',
      cost: '100',
      close_price: '50000',
      profit,
      opened_at: null,
      closed_at: closed,
    });
    await t.db
      .insertInto('bot_cycles')
      .values([cycle(a.holding, a.userId, '5', ago(1)), cycle(a.gone, a.userId, '12', ago(3)), cycle(b.gone, b.userId, '30', ago(3))] as never)
      .execute();
    expect((await send(a, 'GET', `/api/user/botOperation?id=${a.gone}&action=delete`)).code).toBe(1);
  });
  afterAll(async () => {
    await trading.engine.stop();
    await t.close();
  });

  it('writes one row per running or holding bot and UTC day, however often the duty runs that day', async () => {
    const twoDaysAgo = Date.now() - 2 * DAY * 1000;
    expect(await snapshotPnl(t.db, trading, twoDaysAgo)).toBe(2);
    const first = await rows(dayAgo(2));
    // The holding bots only: not the never-started ones, not the deleted one; each row its owner's.
    expect(first.map((r) => r.bot_id)).toEqual([a.holding, b.holding].sort((x, y) => Number(x) - Number(y)));
    for (const r of first) expect(r.user_id).toBe(r.owner);
    const mine = first.find((r) => r.bot_id === a.holding)!;
    const theirs = first.find((r) => r.bot_id === b.holding)!;
    expect(mine.realized).toBe('5');
    expect(money(mine.unrealized).lt(0)).toBe(true);
    expect(money(theirs.unrealized).lt(mine.unrealized)).toBe(true); // a larger position, a larger loss
    expect(mine.unrealized).toBe((await call(a, `/api/user/botDetail?id=${a.holding}`)).data.unrealized);

    // The same day again, later: still one row per bot, now with the newer figures.
    await step('49600');
    expect(await snapshotPnl(t.db, trading, twoDaysAgo + 1000)).toBe(2);
    const again = await rows(dayAgo(2));
    expect(again.map((r) => r.bot_id)).toEqual(first.map((r) => r.bot_id));
    const newer = again.find((r) => r.bot_id === a.holding)!;
    expect(money(newer.unrealized).gt(mine.unrealized)).toBe(true);
    // A late run of an older moment (another process that took the duty meanwhile) does not undo the newer figures.
    await step('49500');
    await snapshotPnl(t.db, trading, twoDaysAgo);
    expect(await rows(dayAgo(2))).toEqual(again);
    const count = await sql<{ n: string }>`select count(*) as n from bot_pnl_days`.execute(t.db);
    expect(Number(count.rows[0]!.n)).toBe(2);
  });

  it('draws a past day from its snapshot (floating included) and today from the live figures', async () => {
    const snap = (await rows(dayAgo(2))).find((r) => r.bot_id === a.holding)!;
    const one = (await call(a, `/api/user/pnl?id=${a.holding}&days=7`)).data;
    expect(one.points).toHaveLength(7);
    const [d4, d3, d2, d1, d0] = one.points.slice(-5);
    // Before the snapshot: realised only, and no floating known.
    expect(d4).toMatchObject({ day: dayAgo(4), profit: '0', cumulative: '0', unrealized: null, total: '0' });
    expect(d3).toMatchObject({ unrealized: null, total: '0' });
    // Two days ago: the snapshot's realised (the partial close's 5) and its floating loss.
    expect(d2).toMatchObject({ day: dayAgo(2), profit: '0', cumulative: '0', unrealized: snap.unrealized, total: money(snap.realized).plus(snap.unrealized).toFixed() });
    expect(money(d2!.total).lt(5)).toBe(true);
    // Yesterday: no snapshot, its cycle closed: realised only.
    expect(d1).toMatchObject({ day: dayAgo(1), profit: '5', cumulative: '5', unrealized: null, total: '5' });
    // Today: the floating PnL now.
    expect(d0!.day).toBe(dayAgo(0));
    expect(d0!.unrealized).toBe(one.unrealized);
    expect(d0!.total).toBe(one.total);
    expect(money(one.unrealized).lt(0)).toBe(true);
    expect(one.total).toBe(money('5').plus(one.unrealized).toFixed());
  });

  it('counts a deleted bot’s realised profit in the account’s PnL, as the bill does', async () => {
    const pnl = (await call(a, '/api/user/pnl?mode=simulation&days=7')).data;
    const bill = (await call(a, '/api/user/bill?mode=simulation')).data;
    // 5 (the holding bot) + 12 (deleted) = 17: the bill's total too.
    expect(pnl.realized).toBe('17');
    expect(bill.total).toBe(17);
    // The bill's floating and total PnL are the PnL's: one figure, the holding bot under water included.
    expect(bill.unrealized).toBe(Number(money(pnl.unrealized).toDecimalPlaces(8).toFixed()));
    expect(bill.unrealized).toBeLessThan(0);
    expect(bill.totalPnl).toBe(Number(money(pnl.total).toDecimalPlaces(8).toFixed()));
    expect(bill.unpriced).toBe(0);
    // Its investment stays in as a stopped bot's does: 3 bots of 1,000, the deleted one included.
    expect(pnl.investment).toBe('3000');
    expect(pnl.total).toBe(money('17').plus(pnl.unrealized).toFixed());
    const snap = (await rows(dayAgo(2))).find((r) => r.bot_id === a.holding)!;
    const [d4, d3, d2, d1, d0] = pnl.points.slice(-5);
    expect(d4).toMatchObject({ cumulative: '0', total: '0', unrealized: null });
    expect(d3).toMatchObject({ profit: '12', cumulative: '12', total: '12', unrealized: null });
    // Two days ago: the deleted bot's 12 and the holding bot's snapshot, only A's floating.
    expect(d2).toMatchObject({ cumulative: '12', unrealized: snap.unrealized, total: money(12).plus(snap.realized).plus(snap.unrealized).toFixed() });
    expect(d1).toMatchObject({ profit: '5', cumulative: '17', total: '17', unrealized: null });
    expect(d0).toMatchObject({ cumulative: '17', unrealized: pnl.unrealized, total: pnl.total });
    // The deleted bot itself is gone from the one-bot chart.
    expect((await call(a, `/api/user/pnl?id=${a.gone}`)).code).toBe(Code.StrategyNotFound);
    // Its runtime ends at its deletion (it was never stopped): started 10 days ago, deleted 4 days ago, 6 days.
    await t.db.insertInto('bot_actions').values({ bot_id: a.gone, kind: 'start', detail: '{}' }).execute();
    await sql`update bot_actions set created_at = ${ago(10)} where bot_id = ${a.gone} and kind = 'start'`.execute(t.db);
    await sql`update bots set deleted_at = ${ago(4)} where id = ${a.gone}`.execute(t.db);
    const ran = (await call(a, '/api/user/pnl?mode=simulation&days=7')).data;
    expect(Math.abs(ran.runtime - 6 * DAY)).toBeLessThanOrEqual(2);
    expect(ran.apr).toBe(
      money(ran.total)
        .div(3000)
        .mul(100)
        .mul(365 * DAY)
        .div(ran.runtime)
        .toDecimalPlaces(4)
        .toFixed(),
    );
  });

  it('never shows one trader the other’s snapshots or PnL', async () => {
    const snaps = await rows(dayAgo(2));
    const theirs = snaps.find((r) => r.bot_id === b.holding)!;
    const bPnl = (await call(b, '/api/user/pnl?mode=simulation&days=7')).data;
    // B: its own 30 and its own floating, none of A's 17 nor A's snapshot.
    expect(bPnl.realized).toBe('30');
    expect((await call(b, '/api/user/bill?mode=simulation')).data.total).toBe(30);
    expect(bPnl.points.at(-3)).toMatchObject({ cumulative: '30', unrealized: theirs.unrealized, total: money(30).plus(theirs.unrealized).toFixed() });
    expect(bPnl.points.at(-4)).toMatchObject({ cumulative: '30', unrealized: null, total: '30' });
    const aPnl = (await call(a, '/api/user/pnl?mode=simulation&days=7')).data;
    const mine = snaps.find((r) => r.bot_id === a.holding)!;
    expect(aPnl.points.at(-3)!.unrealized).toBe(mine.unrealized);
    expect(mine.unrealized).not.toBe(theirs.unrealized);
    for (const [me, other] of [
      [a, b],
      [b, a],
    ] as const) {
      for (const id of [other.holding, other.gone, other.idle]) expect((await call(me, `/api/user/pnl?id=${id}`)).code).toBe(Code.StrategyNotFound);
      const live = (await call(me, '/api/user/pnl?mode=live&days=7')).data;
      expect(live).toMatchObject({ realized: '0', unrealized: '0', investment: '0' });
      for (const p of live.points.slice(0, -1)) expect(p).toMatchObject({ cumulative: '0', unrealized: null, total: '0' });
    }
  });

  it('prunes snapshots older than any chart reads, and is due next at 23:50 UTC', async () => {
    await sql`insert into bot_pnl_days (bot_id, user_id, day, realized, unrealized, taken_at) values (${a.holding}, ${a.userId}, ${dayAgo(401)}::date, 1, 1, now())`.execute(t.db);
    expect(await prunePnlSnapshots(t.db)).toBe(1);
    expect((await rows(dayAgo(2))).length).toBe(2);
    expect(nextSnapshotAt(Date.parse('2026-11-26T10:00:00Z'))).toBe(Date.parse('2026-11-26T23:50:00Z'));
    expect(nextSnapshotAt(Date.parse('2026-11-26T23:50:00Z'))).toBe(Date.parse('2026-11-27T23:50:00Z'));
  });

  it('dates the daily bars in the trader’s time zone, as the logs are dated', async () => {
    // A cycle of the idle bot closed at 22:00 UTC yesterday: that day in London, the next one in Shanghai (UTC+8).
    const closed = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate()) - 2 * 3_600_000);
    await t.db
      .insertInto('bot_cycles')
      .values({ bot_id: a.idle, user_id: a.userId, cycle: 1, entries: 1, amount: '0.002', cost: '100', close_price: '50000', profit: '3', opened_at: null, closed_at: closed } as never)
      .execute();
    const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
    const bars = async (tz: string) => (await call(a, `/api/user/pnl?id=${a.idle}&days=7&tz=${tz}`)).data.points.filter((p) => p.profit !== '0').map((p) => [p.day, p.profit]);
    expect(await bars('0')).toEqual([[day(closed.getTime()), '3']]);
    expect(await bars('480')).toEqual([[day(closed.getTime() + 8 * 3_600_000), '3']]);
    expect(await bars('-300')).toEqual([[day(closed.getTime() - 5 * 3_600_000), '3']]);
    // The last bar is the trader's today.
    expect((await call(a, `/api/user/pnl?id=${a.idle}&days=7&tz=480`)).data.points.at(-1)!.day).toBe(day(Date.now() + 8 * 3_600_000));
    expect((await call(a, `/api/user/pnl?id=${a.idle}&days=7&tz=900`)).code).toBe(Code.ValidationError);
  });
});
