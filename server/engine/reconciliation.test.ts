import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExchangePort } from '../exchanges/port.ts';
import { ScriptedMarket } from '../testing/scripted.ts';
import { openTestApp, registerPayload, type TestApp } from '../testing/test-support.ts';
import { createTrading, type Trading } from '../trading.ts';
import { money } from '../../strategy/money.ts';
import { findShortfalls } from './reconciliation.ts';
import { pairStale } from './pair-health.ts';

/**
 * The reconciliation round's balance check on Paper, through the engine: a coin gone from the account
 * (by hand, on the exchange) pauses the bots whose books hold it, with a warning that says how much; a
 * coin that is there pauses nothing, and another trader's bots are not touched.
 */
const STALE_MS = 300;

describe('a reconciliation round finds a coin the account no longer holds', () => {
  let t: TestApp;
  let trading: Trading;
  const market = new ScriptedMarket();
  const step = async (price: string) => {
    market.set('BTC/USDT', price);
    await trading.engine.tick();
    await trading.engine.idle();
  };

  beforeAll(async () => {
    t = await openTestApp('pglite', { trading: (db) => (trading = createTrading({ db, feed: market, stalePriceMs: STALE_MS })) });
    market.set('BTC/USDT', '50000');
  });
  afterAll(async () => {
    await trading.engine.stop();
    await t.close();
  });

  const trader = async () => {
    const r = await t.app.inject({ method: 'POST', url: '/api/login/register', payload: await registerPayload(t.app) });
    const token = r.json().data.token as string;
    const auth = { authorization: `Bearer ${token}` };
    const call = (method: 'GET' | 'POST', url: string, payload?: object) => t.app.inject({ method, url, headers: auth, ...(payload ? { payload } : {}) }).then((x) => x.json());
    await call('POST', '/api/exchanges/bind', { exchangeId: 1, apiKey: 'paperkey03', secretKey: 'papersecret03' });
    const params = { investment: '1000', firstOrder: '100', multiplier: '1', maxPositions: 3, addTrigger: '2', takeProfit: '5', repeat: true };
    const bot = String((await call('POST', '/api/user/botCreate', { type: 'martin', exchangeId: 1, symbol: 'BTC/USDT', params, name: 'Books' })).data.id);
    await call('GET', `/api/user/botOperation?id=${bot}&action=start`);
    const owner = await t.db.selectFrom('bots').select('user_id').where('id', '=', bot).executeTakeFirstOrThrow();
    return { call, bot, userId: String(owner.user_id) };
  };
  /** A and B, made once for the tests that follow each other (A's bot is paused by the first). */
  let made: Promise<Awaited<ReturnType<typeof trader>>[]> | undefined;
  const tradersOnce = () => (made ??= (async () => [await trader(), await trader()])());
  const status = async (id: string) => (await t.db.selectFrom('bots').select(['status', 'error']).where('id', '=', id).executeTakeFirstOrThrow()) as { status: string; error: string | null };

  it('pauses the bot holding it, with its warning, and nobody else', async () => {
    const [a, b] = (await tradersOnce()) as [Awaited<ReturnType<typeof trader>>, Awaited<ReturnType<typeof trader>>];
    await step('50000');
    const sync = async (who: typeof a) => (await who.call('GET', `/api/user/botDetail?id=${who.bot}`)).data.sync as { at: string | null; problem: string | null; unreachableSince: string | null };
    expect(await sync(a)).toEqual({ at: null, problem: null, unreachableSince: null });
    // Both bought: the books and the accounts agree, and a round pauses nothing; the bots' screens say when it checked.
    await trading.engine.reconcileAccounts();
    expect([(await status(a.bot)).status, (await status(b.bot)).status]).toEqual(['running', 'running']);
    const checked = await sync(a);
    expect(checked.problem).toBeNull();
    expect(Date.now() - Date.parse(checked.at!)).toBeLessThan(60_000);
    // A's coin gone by hand.
    await t.db.updateTable('paper_balances').set({ amount: '0' }).where('user_id', '=', a.userId).where('currency', '=', 'BTC').execute();
    await trading.engine.reconcileAccounts();
    expect(await status(a.bot)).toEqual({ status: 'paused', error: 'balance_short' });
    expect((await status(b.bot)).status).toBe('running');
    const warnings = (await a.call('GET', '/api/notice/list?kind=warning')).data.list.filter((n: { code: string }) => n.code === 'balance_short');
    expect(warnings).toMatchObject([{ detail: { bot: a.bot, name: 'Books', coin: 'BTC', balance: '0' } }]);
    expect(Number(warnings[0].detail.held)).toBeGreaterThan(0);
    expect((await b.call('GET', '/api/notice/list?kind=warning')).data.list.filter((n: { code: string }) => n.code === 'balance_short')).toEqual([]);
    // The engine holds it paused: no more orders from it; its screen says what differs, B's that it agrees.
    expect(trading.engine.statusOf(a.bot)).toBe('paused');
    expect(await sync(a)).toEqual({ at: checked.at, problem: 'balance_short', unreachableSince: null });
    expect((await sync(b)).problem).toBeNull();
  });

  it('pauses a bot loaded to act (a restart, a takeover) whose coin is gone, before it acts', async () => {
    const c = await trader();
    await step('50000');
    expect((await status(c.bot)).status).toBe('running');
    await t.db.updateTable('paper_balances').set({ amount: '0' }).where('user_id', '=', c.userId).where('currency', '=', 'BTC').execute();
    // Loaded again, as a restarted process or a new owner loads it: checked before it is on the book.
    await trading.engine.serial(c.bot, () => trading.engine.refresh(c.bot));
    expect(await status(c.bot)).toEqual({ status: 'paused', error: 'balance_short' });
    expect(trading.engine.statusOf(c.bot)).toBe('paused');
  });

  it('holds back the adds of a pair without a fresh price until its price is back and a round has passed; its screen says so, its traders are told', async () => {
    const [a, b] = (await tradersOnce()) as [Awaited<ReturnType<typeof trader>>, Awaited<ReturnType<typeof trader>>];
    const d = await trader();
    await step('50000');
    const orders = async () => (await t.db.selectFrom('bot_orders').select('client_order_id').where('bot_id', '=', d.bot).execute()).length;
    // What the bot's screen is told (the detail itself needs the price: read while it is there).
    const problem = async () => (await d.call('GET', `/api/user/botDetail?id=${d.bot}`)).data.sync.problem as string | null;
    const stored = async () => (await t.db.selectFrom('bots').select('sync_problem').where('id', '=', d.bot).executeTakeFirstOrThrow()).sync_problem;
    const bought = await orders();
    expect(bought).toBe(1);
    // The exchange stops answering the pair's price: stale once STALE_PRICE_MS has gone by without one.
    market.silence('BTC/USDT');
    await trading.engine.tick();
    expect(await stored()).toBeNull();
    await new Promise((r) => setTimeout(r, STALE_MS + 50));
    await trading.engine.tick();
    expect(await stored()).toBe('no_price');
    // Its traders with running bots on the pair are warned once (B's bot runs on it; A's is paused); a
    // second stale finding of the same episode (another process's) tells nobody again.
    const said = async (who: { call: typeof d.call }, kind: 'warning' | 'notice', code: string) =>
      ((await who.call('GET', `/api/notice/list?kind=${kind}`)).data.list as { code: string; detail: Record<string, string> }[]).filter((n) => n.code === code);
    expect(await said(d, 'warning', 'price_stale')).toMatchObject([{ detail: { exchange: 'paper', symbol: 'BTC/USDT', since: expect.any(String) } }]);
    expect(await said(b, 'warning', 'price_stale')).toHaveLength(1);
    expect(await said(a, 'warning', 'price_stale')).toEqual([]);
    expect(await pairStale(t.db, { exchange: 'paper', symbol: 'BTC/USDT', since: new Date() })).toBe(0);
    expect(await said(d, 'warning', 'price_stale')).toHaveLength(1);
    // Back 4 % lower: the add (2 % below the entry) is held back, round after round.
    market.speak('BTC/USDT');
    await step('48000');
    await step('48000');
    expect(await orders()).toBe(bought);
    expect(await problem()).toBe('no_price');
    // A reconciliation round that began after the price came back: the screen agrees again, and the add goes.
    await trading.engine.reconcileAccounts();
    expect(await problem()).toBeNull();
    expect(await said(d, 'notice', 'price_back')).toMatchObject([{ detail: { symbol: 'BTC/USDT' } }]);
    await step('48000');
    expect(await orders()).toBe(bought + 1);
  });
});

describe('a balance read while its bot trades', () => {
  const bot = { id: '7', symbol: 'BTC/USDT', status: 'running', held: money('0.01'), pending: null };
  // The account sold the coin while its balance was on its way: the bot took profit meanwhile.
  const port = { balance: async () => money(0) } as unknown as ExchangePort;

  it('is no shortfall when the bot decided meanwhile, and one when it did not', async () => {
    let decided = true;
    expect((await findShortfalls(port, [bot], undefined, () => decided)).short).toEqual([]);
    decided = false;
    expect((await findShortfalls(port, [bot], undefined, () => decided)).short).toMatchObject([{ coin: 'BTC', holders: ['7'] }]);
  });
});
