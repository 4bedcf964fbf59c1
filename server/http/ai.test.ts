import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Code } from '../../contract/codes.ts';
import { stopSearchWorker } from '../engine/ai/search-pool.ts';
import { SimulatedMarket } from '../market/simulated.ts';
import { retuneAiBots } from '../services/ai-retune.ts';
import { openTestApp, TEST_SEARCH_WINDOW, type Answer, type DataAt, type TestApp, registerPayload } from '../testing/test-support.ts';
import { createTrading, type Trading } from '../trading.ts';

const NOW = Date.UTC(2026, 10, 1);
const DAY = 86_400_000;
/** The tests' search (every test app's): every candidate and rule on 2 days of candles, not 30. */
const WINDOW = TEST_SEARCH_WINDOW;

/**
 * The AI bot: the parameter search, an AI bot started from a proposal, its re-tuning. Each
 * test has its own trader and runs its own searches: any one runs alone and in any order.
 */
// Measured on this 2-core machine while others loaded it: 2.4-5.5 s a test at load average 8, and up to
// 18 s at load 10 for the test whose search starts the search worker (the full-size searches took
// 9-47 s a test at load 9); 90 s a test is 5x the slowest of these.
describe('the AI bot', { timeout: 90_000 }, () => {
  let t: TestApp;
  let trading: Trading;

  /** A new trader with Paper bound, and how they call the API. */
  const newTrader = async () => {
    const r = await t.app.inject({ method: 'POST', url: '/api/login/register', payload: await registerPayload(t.app) });
    const auth = { authorization: `Bearer ${r.json().data.token}` };
    const call = <M extends 'GET' | 'POST', U extends string>(method: M, url: U, payload?: object) =>
      t.app.inject({ method, url, ...(payload ? { payload } : {}), headers: { ...auth, lang: 'en' } }).then((res) => res.json() as Answer<DataAt<M, U>>);
    const searchFor = (risk: string) => call('POST', '/api/strategy/aiSearch', { exchangeId: 1, symbol: 'ETH/USDT', investment: '1000', risk });
    expect((await call('POST', '/api/exchanges/bind', { exchangeId: 1, apiKey: 'paperkey01', secretKey: 'papersecret01' })).code).toBe(1);
    return { call, searchFor };
  };

  beforeAll(async () => {
    t = await openTestApp('pglite', { trading: (db) => (trading = createTrading({ db, feed: new SimulatedMarket(), now: () => NOW })) });
  });
  afterAll(async () => {
    await trading.engine.stop();
    await stopSearchWorker();
    await t.close();
  });

  it('runs one search per trader at a time and tells the trader their place while it waits', async () => {
    const me = await newTrader();
    const other = await newTrader();
    const queue = (who: typeof me) => who.call('GET', '/api/strategy/aiQueue').then((r) => r.data);
    expect(await queue(me)).toEqual({ position: null, length: 0, progress: null });
    // The searches are held at their first step (the market's rules) until the test lets them go: they
    // are surely in the line while it looks, however fast or slow the machine.
    const market = trading.market;
    let release = () => {};
    const held = new Promise<void>((r) => (release = r));
    trading.market = async (exchange, symbol) => {
      await held;
      return market(exchange, symbol);
    };
    try {
      const first = me.searchFor('balanced');
      await expect.poll(() => queue(me)).toEqual({ position: 0, length: 1, progress: null });
      expect(await me.searchFor('aggressive')).toMatchObject({ code: Code.AiSearchUserBusy, msg: 'One of your AI searches is still running: wait for it to finish' });
      const second = other.searchFor('balanced');
      await expect.poll(() => queue(other)).toEqual({ position: 1, length: 2, progress: null });
      release();
      expect((await first).code).toBe(1);
      expect((await second).code).toBe(1);
    } finally {
      release();
      trading.market = market;
    }
    expect(await queue(me)).toEqual({ position: null, length: 0, progress: null });
  });

  it('backtests at least 500 candidates on its history and proposes the best few within the risk level’s drawdown limit, the same every time', async () => {
    const { call, searchFor } = await newTrader();
    const r = await searchFor('conservative');
    expect(r.code).toBe(1);
    expect(r.data).toMatchObject({ exchange: 'paper', symbol: 'ETH/USDT', risk: 'conservative', limit: 5, timeframe: '1m' });
    // Its backtests fill at the trigger with 0.05 % slippage unless asked otherwise; a slippage is checked.
    expect(r.data.fill).toEqual({ price: 'trigger', slippage: '0.0005', seconds: true, resting: [] });
    expect(await call('POST', '/api/strategy/aiSearch', { exchangeId: 1, symbol: 'ETH/USDT', investment: '1000', risk: 'balanced', slippage: '0.5' })).toMatchObject({ code: Code.ValidationError });
    expect(r.data.tried).toBeGreaterThanOrEqual(500);
    expect(r.data.kept).toBeLessThan(r.data.tried); // the limit dropped some
    expect(r.data.proposals.length).toBeGreaterThan(0);
    expect(r.data.proposals.length).toBeLessThanOrEqual(3);
    for (const p of r.data.proposals) {
      expect(p.d30.maxDrawdownPct).toBeLessThanOrEqual(5);
      expect(p.equity.length).toBeGreaterThan(100);
      // The curve covers the configured history (the last candle opens a minute before now).
      expect(p.equity.at(-1)!.time - p.equity[0]!.time).toBe(WINDOW.days * DAY - 60_000);
    }
    const scores = r.data.proposals.map((p) => p.score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    const again = await searchFor('conservative');
    expect(again.data.proposals.map((p) => [p.type, p.params, p.score])).toEqual(r.data.proposals.map((p) => [p.type, p.params, p.score]));
    // The slippage reaches the search's backtests (the worker answers what it ran with).
    const exact = await call('POST', '/api/strategy/aiSearch', { exchangeId: 1, symbol: 'ETH/USDT', investment: '1000', risk: 'conservative', slippage: '0' });
    expect(exact.data.fill).toEqual({ price: 'trigger', slippage: '0', seconds: true, resting: [] });
    const aggressive = await searchFor('aggressive');
    expect(aggressive.data.limit).toBe(25);
    expect(aggressive.data.kept).toBeGreaterThan(r.data.kept);
    // Every proposal is one botCreate accepts at the price now: none is refused on create.
    for (const p of [...r.data.proposals, ...aggressive.data.proposals]) {
      const created = await call('POST', '/api/user/botCreate', { type: p.type, exchangeId: 1, symbol: 'ETH/USDT', params: p.params });
      expect(created.code, JSON.stringify(p.params)).toBe(1);
      await call('GET', `/api/user/botOperation?id=${created.data.id}&action=delete`);
    }
    expect(await call('POST', '/api/strategy/aiSearch', { exchangeId: 1, symbol: 'ETH/USDT', investment: '1000', risk: 'reckless' })).toMatchObject({ code: Code.ValidationError });
  });

  it('starts an AI bot from a proposal and re-tunes it when it is flat, logging the change', async () => {
    const { call, searchFor } = await newTrader();
    const best = (await searchFor('conservative')).data.proposals[0]!;
    // Created with other parameters of the same type than the search would choose, as if tuned long ago.
    const worse = 'grids' in best.params ? { ...best.params, grids: best.params.grids === 4 ? 6 : 4 } : { ...best.params, takeProfit: best.params.takeProfit === '0.8' ? '1' : '0.8' };
    const bot = await call('POST', '/api/user/botCreate', { type: best.type, exchangeId: 1, symbol: 'ETH/USDT', name: 'AI ETH', params: worse, ai: { risk: 'conservative' } });
    expect(bot.code).toBe(1);
    expect(bot.data.ai).toMatchObject({ risk: 'conservative' });
    const id = bot.data.id;
    // Paused while flat, last tuned two days ago: due. The re-tuning searches the same history as the call.
    const retune = () => retuneAiBots({ db: t.db, trading, window: WINDOW }, DAY);
    await t.db.updateTable('bots').set({ status: 'paused' }).where('id', '=', id).execute();
    await sql`update ai_bots set tuned_at = now() - interval '2 days' where bot_id = ${id}`.execute(t.db);
    expect(await retune()).toEqual({ checked: 1, retuned: [id] });
    const info = (await call('GET', `/api/user/botInfo?id=${id}`)).data;
    expect(info.params).toEqual(best.params);
    const log = (await call('GET', `/api/user/botActions?id=${id}`)).data.list[0];
    expect(log).toMatchObject({ kind: 'update', detail: { ai: 'retune', risk: 'conservative' } });
    // The trader is told in the notices.
    const notices = (await call('GET', '/api/notice/list')).data.list;
    expect(notices.find((n) => n.code === 'bot_retuned')).toMatchObject({ kind: 'notice', detail: { bot: id, risk: 'conservative' } });
    // Just tuned: not due again; and a bot holding a position is left alone.
    expect(await retune()).toEqual({ checked: 0, retuned: [] });
    await sql`update ai_bots set tuned_at = now() - interval '2 days' where bot_id = ${id}`.execute(t.db);
    await sql`update bots set state = jsonb_set(state, '{pending}', '{"id":"x-1-1","reason":"open","level":0}'::jsonb) where id = ${id}`.execute(t.db);
    expect(await retune()).toEqual({ checked: 1, retuned: [] });
  });
});
