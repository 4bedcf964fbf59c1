import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Code } from '../../contract/codes.ts';
import { ScriptedMarket } from '../testing/scripted.ts';
import { dbKinds, openTestApp, registerPayload, testRateLimits, type TestApp } from '../testing/test-support.ts';
import { createTrading, type Trading } from '../trading.ts';

/** A DCA bot that waits for a daily 12:00 UTC start, on a market clock stopped at 00:00: only signals trade it. */
const params = {
  investment: '320',
  baseOrder: '20',
  safetyOrder: '20',
  maxSafetyOrders: 4,
  deviation: '1.5',
  stepScale: '1.5',
  volumeScale: '2',
  takeProfit: '1.5',
  stopLoss: '',
  cooldown: 0,
  start: { kind: 'schedule', every: 'day', time: '12:00', utcOffset: 0 },
};
const NOW = Date.UTC(2026, 10, 1);
/** TradingView sends every customer's alerts from a few shared addresses: here, one. */
const SENDER = '203.0.113.50';

/**
 * The signal webhook's budgets: a valid token is limited per bot, never by the bad tokens of its sender's
 * address; tokens that open no bot are limited per source in a bucket of their own; a running bot acts
 * on one signal per SIGNAL_MIN_GAP_S; refused bodies are counted on the bot, not stored one by one.
 */
describe.each(dbKinds)('signal webhook budgets (%s)', (kind) => {
  let t: TestApp;
  let trading: Trading;
  const market = new ScriptedMarket();
  let alice: Record<string, string>;
  let bob: Record<string, string>;
  const call = (who: Record<string, string>, method: 'GET' | 'POST', url: string, payload?: object) =>
    t.app.inject({ method, url, ...(payload ? { payload } : {}), headers: { ...who, lang: 'en' } }).then((r) => r.json());
  const signal = async (token: string, body: unknown, from = SENDER) => {
    const r = await t.app.inject({
      method: 'POST',
      url: `/api/signal/${token}`,
      payload: typeof body === 'string' ? body : JSON.stringify(body),
      headers: { 'content-type': 'application/json', lang: 'en' },
      remoteAddress: from,
    });
    await trading.engine.idle();
    return { status: r.statusCode, ...(r.json() as { code: number; msg: string; data: unknown }) };
  };
  const orders = async (id: string) => (await t.db.selectFrom('bot_orders').select('id').where('bot_id', '=', id).execute()).length;
  const rows = async (table: 'bot_signals' | 'bot_actions', id: string) =>
    Number((await sql<{ n: number }>`select count(*)::int as n from ${sql.table(table)} where bot_id = ${id}`.execute(t.db)).rows[0]!.n);
  const register = async () => {
    const r = await t.app.inject({ method: 'POST', url: '/api/login/register', payload: await registerPayload(t.app) });
    const who = { authorization: `Bearer ${r.json().data.token}` };
    expect((await call(who, 'POST', '/api/exchanges/bind', { exchangeId: 1, apiKey: 'paperkey01', secretKey: 'papersecret01' })).code).toBe(1);
    return who;
  };
  /** A signal bot of `who` (started when `start`) and its token. */
  const bot = async (who: Record<string, string>, start: boolean) => {
    const id = (await call(who, 'POST', '/api/user/botCreate', { type: 'dca', exchangeId: 1, symbol: 'BTC/USDT', params })).data.id as string;
    if (start) {
      expect((await call(who, 'GET', `/api/user/botOperation?id=${id}&action=start`)).code).toBe(1);
      await trading.engine.idle();
    }
    const token = (await call(who, 'POST', '/api/user/botWebhookReset', { id })).data.token as string;
    return { id, token };
  };

  beforeAll(async () => {
    t = await openTestApp(kind, {
      trading: (db) => (trading = createTrading({ db, feed: market, now: () => NOW })),
      // The public limit is tight too: the webhook once counted in it, so bogus tokens blocked every valid one.
      config: { rateLimits: { ...testRateLimits(), public: { max: 5, windowMs: 60_000 }, signal: { max: 8, windowMs: 60_000 }, signalToken: { max: 5, windowMs: 60_000 } }, signalGapMs: 60_000 },
    });
    market.set('BTC/USDT', '60000');
    alice = await register();
    bob = await register();
  });
  afterAll(async () => {
    await trading.engine.stop();
    await t.close();
  });

  it('never lets bogus tokens from a shared address block a genuine signal from it', async () => {
    const genuine = await bot(alice, true);
    const answers: number[] = [];
    for (let i = 0; i < 30; i++) answers.push((await signal(`${'B'.repeat(40)}${String(i).padStart(3, '0')}`, { action: 'buy', id: `bogus-${i}` })).code);
    expect(answers.slice(0, 5)).toEqual(Array(5).fill(Code.SignalTokenInvalid));
    expect(new Set(answers.slice(5))).toEqual(new Set([Code.RateLimited]));
    const over = await signal('C'.repeat(43), { action: 'buy', id: 'bogus-x' });
    expect(over).toMatchObject({ status: 429, code: Code.RateLimited, data: null });
    // The same address, a valid token: acted on, an exit too.
    expect(await signal(genuine.token, { action: 'buy', id: 'g-1' })).toMatchObject({ code: 1, data: { result: 'placed' } });
    await sql`update bot_webhooks set acted_at = now() - interval '2 minutes' where bot_id = ${genuine.id}`.execute(t.db);
    expect(await signal(genuine.token, { action: 'close', id: 'g-2' })).toMatchObject({ code: 1, data: { result: 'placed' } });
    expect(await orders(genuine.id)).toBe(2);
    // Bogus tokens are counted per source: one row (or key) for the address, none per request.
    if (kind === 'postgres') expect((await sql<{ key: string }>`select key from rate_limits where key like 'signal-token:%'`.execute(t.db)).rows.map((r) => r.key)).toEqual([`signal-token:${SENDER}`]);
  });

  it('gives each bot a budget of its own: one bot over it does not limit another bot', async () => {
    const busy = await bot(alice, false);
    const other = await bot(bob, false);
    const codes: number[] = [];
    for (let i = 0; i < 10; i++) codes.push((await signal(busy.token, { action: 'buy', id: `b-${i}` }, '198.51.100.1')).code);
    expect(codes).toEqual([...Array(8).fill(Code.SignalBotNotRunning), Code.RateLimited, Code.RateLimited]);
    // From the same address, and from another: the other bot's budget is whole.
    expect((await signal(other.token, { action: 'buy', id: 'o-1' }, '198.51.100.1')).code).toBe(Code.SignalBotNotRunning);
    expect((await signal(busy.token, { action: 'buy', id: 'b-x' }, '198.51.100.2')).code).toBe(Code.RateLimited);
  });

  it('acts on one signal per gap: a second within it is told the wait and leaves no row; one that does nothing does not count', async () => {
    const b = await bot(alice, true);
    expect(await signal(b.token, { action: 'buy', id: 'gap-1' })).toMatchObject({ code: 1, data: { result: 'placed' } });
    const soon = await signal(b.token, { action: 'close', id: 'gap-2' });
    expect(soon).toMatchObject({ status: 429, code: Code.RateLimited, data: null });
    expect(soon.msg).toMatch(/^Too many requests, please try again in (59|60) s$/);
    expect(await orders(b.id)).toBe(1);
    expect((await call(alice, 'GET', `/api/user/botSignals?id=${b.id}`)).data.list.map((s: { signalId: string }) => s.signalId)).toEqual(['gap-1']);
    // The gap has passed: a buy while the deal is open does nothing and leaves the turn to the next signal.
    await sql`update bot_webhooks set acted_at = now() - interval '2 minutes' where bot_id = ${b.id}`.execute(t.db);
    expect(await signal(b.token, { action: 'buy', id: 'gap-3' })).toMatchObject({ code: 1, data: { result: 'nothing' } });
    // The refused alert id was never recorded: sent again, it acts.
    expect(await signal(b.token, { action: 'close', id: 'gap-2' })).toMatchObject({ code: 1, data: { result: 'placed' } });
    expect(await orders(b.id)).toBe(2);
  });

  it('counts refused bodies on the bot (the owner reads how many, when and why), storing none of them', async () => {
    const b = await bot(alice, true);
    const before = { signals: await rows('bot_signals', b.id), actions: await rows('bot_actions', b.id) };
    for (let i = 0; i < 6; i++) expect((await signal(b.token, i % 2 ? 'buy now' : { action: 'hold', id: `r-${i}` }, `192.0.2.${i}`)).code).toBe(Code.SignalBodyInvalid);
    expect((await signal(b.token, { action: 'buy', id: 'r-nul', note: 'a\u0000b' })).code).toBe(Code.ValidationError);
    expect({ signals: await rows('bot_signals', b.id), actions: await rows('bot_actions', b.id) }).toEqual(before);
    const hook = (await call(alice, 'GET', `/api/user/botWebhook?id=${b.id}`)).data;
    expect(hook).toMatchObject({ enabled: true, refused: 7, refusedReason: 'note', token: null });
    expect(Date.parse(hook.refusedAt)).toBeGreaterThan(Date.now() - 60_000);
    // Another trader reads none of it.
    expect(await call(bob, 'GET', `/api/user/botWebhook?id=${b.id}`)).toMatchObject({ code: Code.StrategyNotFound, data: null });
  });
});

/** The attack that found it: 40 alternating signals on one valid token, as fast as they go. */
describe('a valid token cannot drive orders without end', () => {
  let t: TestApp;
  let trading: Trading;
  const market = new ScriptedMarket();

  beforeAll(async () => {
    // The product's defaults (RATE_LIMIT_SIGNAL 30/1m, SIGNAL_MIN_GAP_S 1).
    t = await openTestApp('pglite', {
      trading: (db) => (trading = createTrading({ db, feed: market, now: () => NOW })),
      config: { rateLimits: { ...testRateLimits(), signal: { max: 30, windowMs: 60_000 } }, signalGapMs: 1000 },
    });
    market.set('BTC/USDT', '60000');
  });
  afterAll(async () => {
    await trading.engine.stop();
    await t.close();
  });

  it('places at most one order per gap (SIGNAL_MIN_GAP_S), telling the others the wait', async () => {
    const r = await t.app.inject({ method: 'POST', url: '/api/login/register', payload: await registerPayload(t.app) });
    const auth = { authorization: `Bearer ${r.json().data.token}` };
    await t.app.inject({ method: 'POST', url: '/api/exchanges/bind', payload: { exchangeId: 1, apiKey: 'paperkey01', secretKey: 'papersecret01' }, headers: auth });
    const id = (await t.app.inject({ method: 'POST', url: '/api/user/botCreate', payload: { type: 'dca', exchangeId: 1, symbol: 'BTC/USDT', params }, headers: auth })).json().data.id as string;
    await t.app.inject({ url: `/api/user/botOperation?id=${id}&action=start`, headers: auth });
    await trading.engine.idle();
    const token = (await t.app.inject({ method: 'POST', url: '/api/user/botWebhookReset', payload: { id }, headers: auth })).json().data.token as string;
    const started = Date.now();
    const codes: number[] = [];
    for (let i = 0; i < 40; i++) {
      const a = await t.app.inject({ method: 'POST', url: `/api/signal/${token}`, payload: { action: i % 2 ? 'close' : 'buy', id: `fast-${i}` } });
      codes.push(a.json().code);
      await trading.engine.idle();
    }
    const seconds = (Date.now() - started) / 1000;
    const placed = (await t.db.selectFrom('bot_orders').select('id').where('bot_id', '=', id).execute()).length;
    console.log(`40 alternating signals in ${seconds.toFixed(2)} s: ${placed} orders; answers ${codes.join(',')}`);
    expect(placed).toBeLessThanOrEqual(Math.ceil(seconds) + 1);
    // Every signal inside the gap is told the wait; one acts per gap that passed (a loaded machine takes more than a gap for 40).
    expect(codes.filter((c) => c !== 1).every((c) => c === Code.RateLimited)).toBe(true);
    expect(codes.filter((c) => c === 1).length).toBeLessThanOrEqual(Math.ceil(seconds) + 1);
    expect(codes.filter((c) => c === Code.RateLimited).length).toBeGreaterThanOrEqual(40 - Math.ceil(seconds) - 1);
  });
});
