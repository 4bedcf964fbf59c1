import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Code } from '../../contract/codes.ts';
import { stopSearchWorker } from '../engine/ai/search-pool.ts';
import { SimulatedMarket } from '../market/simulated.ts';
import { retuneAiBots } from '../services/ai-retune.ts';
import { openTestApp, type TestApp, registerPayload } from '../test-support.ts';
import { createTrading, type Trading } from '../trading.ts';

type Answer<T = any> = { code: number; msg: string; data: T };
const NOW = Date.UTC(2026, 10, 1);

/** The AI bot (issue 6 §3): the parameter search, an AI bot started from a proposal, its re-tuning. */
// Each test runs the full-size search (629 configurations on 43,200 candles): 3-20 s, more under load.
describe('the AI bot', { timeout: 150_000 }, () => {
  let t: TestApp;
  let trading: Trading;
  let auth: Record<string, string>;
  const call = <T = any>(method: 'GET' | 'POST', url: string, payload?: object) =>
    t.app.inject({ method, url, ...(payload ? { payload } : {}), headers: { ...auth, lang: 'en' } }).then((r) => r.json() as Answer<T>);
  const searchFor = (risk: string) => call('POST', '/api/strategy/aiSearch', { exchangeId: 1, symbol: 'ETH/USDT', investment: '1000', risk });

  beforeAll(async () => {
    t = await openTestApp('pglite', { trading: (db) => (trading = createTrading({ db, feed: new SimulatedMarket(), now: () => NOW })) });
    const r = await t.app.inject({ method: 'POST', url: '/api/login/register', payload: await registerPayload(t.app) });
    auth = { authorization: `Bearer ${r.json().data.token}` };
    expect((await call('POST', '/api/exchanges/bind', { exchangeId: 1, apiKey: 'paperkey01', secretKey: 'papersecret01' })).code).toBe(1);
  });
  afterAll(async () => {
    await trading.engine.stop();
    await stopSearchWorker();
    await t.close();
  });

  it('runs one search per trader at a time and tells the trader their place while it waits (issue 12 finding 8)', async () => {
    expect((await call('GET', '/api/strategy/aiQueue')).data).toEqual({ position: null, length: 0 });
    const first = searchFor('balanced');
    await new Promise((r) => setTimeout(r, 20));
    expect((await call('GET', '/api/strategy/aiQueue')).data).toEqual({ position: 0, length: 1 });
    expect(await searchFor('aggressive')).toMatchObject({ code: Code.AiSearchUserBusy, msg: 'One of your AI searches is still running: wait for it to finish' });
    expect((await first).code).toBe(1);
    expect((await call('GET', '/api/strategy/aiQueue')).data).toEqual({ position: null, length: 0 });
  });

  let proposals: any[] = [];
  it('backtests at least 500 candidates on 30 days and proposes the best few within the risk level’s drawdown limit, the same every time', async () => {
    const r = await searchFor('conservative');
    expect(r.code).toBe(1);
    expect(r.data).toMatchObject({ exchange: 'paper', symbol: 'ETH/USDT', risk: 'conservative', limit: 5, timeframe: '1m' });
    expect(r.data.tried).toBeGreaterThanOrEqual(500);
    expect(r.data.proposals.length).toBeGreaterThan(0);
    expect(r.data.proposals.length).toBeLessThanOrEqual(3);
    for (const p of r.data.proposals) {
      expect(p.d30.maxDrawdownPct).toBeLessThanOrEqual(5);
      expect(p.equity.length).toBeGreaterThan(100);
    }
    const scores = r.data.proposals.map((p: any) => p.score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    const again = await searchFor('conservative');
    expect(again.data.proposals.map((p: any) => [p.type, p.params, p.score])).toEqual(r.data.proposals.map((p: any) => [p.type, p.params, p.score]));
    const aggressive = await searchFor('aggressive');
    expect(aggressive.data.limit).toBe(25);
    expect(aggressive.data.kept).toBeGreaterThanOrEqual(r.data.kept);
    proposals = r.data.proposals;
    // Every proposal is one botCreate accepts at the price now (issue 14 §1): none is refused on create.
    for (const p of [...r.data.proposals, ...aggressive.data.proposals]) {
      const created = await call('POST', '/api/user/botCreate', { type: p.type, exchangeId: 1, symbol: 'ETH/USDT', params: p.params });
      expect(created.code, JSON.stringify(p.params)).toBe(1);
      await call('GET', `/api/user/botOperation?id=${created.data.id}&action=delete`);
    }
    expect(await call('POST', '/api/strategy/aiSearch', { exchangeId: 1, symbol: 'ETH/USDT', investment: '1000', risk: 'reckless' })).toMatchObject({ code: Code.ValidationError });
  });

  it('starts an AI bot from a proposal and re-tunes it when it is flat, logging the change', async () => {
    const best = proposals[0];
    // Created with other parameters of the same type than the search would choose, as if tuned long ago.
    const worse = best.type === 'martin'
      ? { ...best.params, takeProfit: best.params.takeProfit === '0.8' ? '1' : '0.8' }
      : { ...best.params, grids: best.params.grids === 4 ? 6 : 4 };
    const bot = await call('POST', '/api/user/botCreate', { type: best.type, exchangeId: 1, symbol: 'ETH/USDT', name: 'AI ETH', params: worse, ai: { risk: 'conservative' } });
    expect(bot.code).toBe(1);
    expect(bot.data.ai).toMatchObject({ risk: 'conservative' });
    const id = bot.data.id;
    // Paused while flat, last tuned two days ago: due.
    await t.db.updateTable('bots').set({ status: 'paused' }).where('id', '=', id).execute();
    await sql`update ai_bots set tuned_at = now() - interval '2 days' where bot_id = ${id}`.execute(t.db);
    const r = await retuneAiBots({ db: t.db, trading }, 86_400_000);
    expect(r).toEqual({ checked: 1, retuned: [id] });
    const info = (await call('GET', `/api/user/botInfo?id=${id}`)).data;
    expect(info.params).toEqual(best.params);
    const log = (await call('GET', `/api/user/botActions?id=${id}`)).data.list[0];
    expect(log).toMatchObject({ kind: 'update', detail: { ai: 'retune', risk: 'conservative' } });
    // Just tuned: not due again; and a bot holding a position is left alone.
    expect(await retuneAiBots({ db: t.db, trading }, 86_400_000)).toEqual({ checked: 0, retuned: [] });
    await sql`update ai_bots set tuned_at = now() - interval '2 days' where bot_id = ${id}`.execute(t.db);
    await sql`update bots set state = jsonb_set(state, '{pending}', '{"id":"x-1-1","reason":"open","level":0}'::jsonb) where id = ${id}`.execute(t.db);
    expect(await retuneAiBots({ db: t.db, trading }, 86_400_000)).toEqual({ checked: 1, retuned: [] });
  });
});
