import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Code } from '../../contract/codes.ts';
import { ScriptedMarket } from '../market/scripted.ts';
import { money } from '../../strategy/money.ts';
import { dbKinds, newAccount, openTestApp, registerPayload, type Answer, type DataAt, type TestApp } from '../test-support.ts';
import { portfolio } from '../services/portfolio.ts';
import { createTrading, type LiveSide, type Trading } from '../trading.ts';

const DAY = 86_400;
const martin = { investment: '1000', firstOrder: '100', multiplier: '2', maxPositions: 3, addTrigger: '2', takeProfit: '1', stopLoss: '', repeat: true };

/**
 * Issue 14 §1, §3, §5 on the real app: the returns of every bot (ROI and APR with the worked numbers of
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
    // BTC valued at the price now (49,000), USDT at 1; free USDT is what is available.
    expect(paper.coins.find((c) => c.currency === 'BTC')).toMatchObject({ total: money(btc.amount).toFixed(), price: '49000', value: money(btc.amount).mul(49000).toDecimalPlaces(8).toFixed() });
    expect(paper.available).toBe(money(usdt.amount).toFixed());
    expect(paper.equity).toBe(money(usdt.amount).plus(money(btc.amount).mul(49000).toDecimalPlaces(8)).toFixed());
    expect(p.data).toMatchObject({ live: '0', simulation: paper.equity, total: paper.equity });
  });
});

/**
 * Issue 14 §3 with live exchanges: a bound exchange that answers is valued coin by coin (a coin with no
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
