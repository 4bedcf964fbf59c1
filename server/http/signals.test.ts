import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Code } from '../../contract/codes.ts';
import { ScriptedMarket } from '../testing/scripted.ts';
import { openTestApp, registerPayload, testRateLimits, type TestApp } from '../testing/test-support.ts';
import { createTrading, type Trading } from '../trading.ts';

/** A DCA bot that waits for a daily 12:00 UTC start, on a market clock stopped at 00:00: only a signal opens its deal. */
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

/** Signal bots: the webhook, once per alert id, paused bots, bad bodies, wrong tokens, two traders. */
describe('signal webhooks', () => {
  let t: TestApp;
  let trading: Trading;
  const market = new ScriptedMarket();
  let alice: Record<string, string>;
  let bob: Record<string, string>;
  let botId = '';
  let token = '';
  const call = (who: Record<string, string>, method: 'GET' | 'POST', url: string, payload?: object) =>
    t.app.inject({ method, url, ...(payload ? { payload } : {}), headers: { ...who, lang: 'en' } }).then((r) => r.json());
  /** Sends an alert as TradingView does: its message as the body, JSON or text. */
  const signal = async (tok: string, body: unknown, contentType = 'application/json') => {
    const r = await t.app.inject({ method: 'POST', url: `/api/signal/${tok}`, payload: typeof body === 'string' ? body : JSON.stringify(body), headers: { 'content-type': contentType, lang: 'en' } });
    expect(r.statusCode).toBe(200);
    await trading.engine.idle();
    return r.json() as { code: number; msg: string; data: { signal: string; result: string } | null };
  };
  const orders = async (id = botId) => (await t.db.selectFrom('bot_orders').selectAll().where('bot_id', '=', id).orderBy('id').execute()).map((o) => `${o.side} ${o.reason} ${o.status}`);
  const signals = async (who = alice, id = botId) => call(who, 'GET', `/api/user/botSignals?id=${id}`);
  const actions = async () => (await call(alice, 'GET', `/api/user/botActions?id=${botId}&page_size=100`)).data.list as { kind: string; detail: Record<string, string> }[];
  const register = async () => {
    const r = await t.app.inject({ method: 'POST', url: '/api/login/register', payload: await registerPayload(t.app) });
    const who = { authorization: `Bearer ${r.json().data.token}` };
    expect((await call(who, 'POST', '/api/exchanges/bind', { exchangeId: 1, apiKey: 'paperkey01', secretKey: 'papersecret01' })).code).toBe(1);
    return who;
  };

  beforeAll(async () => {
    // No gap between acting signals here (signal-limits.test.ts tests it): these send them back to back.
    t = await openTestApp('pglite', { trading: (db) => (trading = createTrading({ db, feed: market, now: () => NOW })), config: { signalGapMs: 0 } });
    market.set('BTC/USDT', '60000');
    alice = await register();
    bob = await register();
    const created = await call(alice, 'POST', '/api/user/botCreate', { type: 'dca', exchangeId: 1, symbol: 'BTC/USDT', params });
    expect(created.code, JSON.stringify(created)).toBe(1);
    botId = created.data.id;
    expect((await call(alice, 'GET', `/api/user/botOperation?id=${botId}&action=start`)).code).toBe(1);
    await trading.engine.idle();
    expect(await orders()).toEqual([]); // waiting for its schedule
  });
  afterAll(async () => {
    await trading.engine.stop();
    await t.close();
  });

  it('makes the owner a webhook token of 256 bits, shown once, stored hashed', async () => {
    expect((await call(alice, 'GET', `/api/user/botWebhook?id=${botId}`)).data).toEqual({
      enabled: false,
      createdAt: null,
      token: null,
      path: null,
      refused: 0,
      refusedAt: null,
      refusedReason: null,
    });
    const made = await call(alice, 'POST', '/api/user/botWebhookReset', { id: botId });
    expect(made.code).toBe(1);
    token = made.data.token;
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(made.data.path).toBe(`/api/signal/${token}`);
    const read = (await call(alice, 'GET', `/api/user/botWebhook?id=${botId}`)).data;
    expect(read).toMatchObject({ enabled: true, token: null, path: null });
    const stored = await t.db
      .selectFrom('bot_webhooks' as never)
      .selectAll()
      .execute();
    expect(JSON.stringify(stored)).not.toContain(token);
  });

  it('acts on an alert id once: the same alert twice is one order', async () => {
    const first = await signal(token, { action: 'buy', id: 'alert-1', price: '60000', note: 'RSI < 30' });
    expect(first, first.msg).toMatchObject({ code: 1, data: { result: 'placed' } });
    expect(await orders()).toEqual(['buy open filled']);
    const again = await signal(token, { action: 'buy', id: 'alert-1', price: '60000', note: 'RSI < 30' });
    expect(again).toMatchObject({ code: Code.SignalDuplicate, msg: 'This signal id was received already: it is not acted on again', data: null });
    // A buy while the deal is open: recorded, nothing to do (one deal at a time).
    expect(await signal(token, { action: 'buy', id: 'alert-2' })).toMatchObject({ code: 1, data: { result: 'nothing' } });
    expect(await orders()).toEqual(['buy open filled']);
    // Both at once: one of them acts (the unique index), the other is a duplicate.
    const [a, b] = await Promise.all([signal(token, { action: 'close', id: 'alert-3' }), signal(token, { action: 'close', id: 'alert-3' })]);
    expect([a.code, b.code].sort()).toEqual([1, Code.SignalDuplicate].sort());
    expect(await orders()).toEqual(['buy open filled', 'sell signal_close filled']);
    const list = (await signals()).data;
    expect(list.total).toBe(3);
    expect(list.list.map((s: { signalId: string; status: string }) => `${s.signalId} ${s.status}`)).toEqual(['alert-3 placed', 'alert-2 nothing', 'alert-1 placed']);
    expect(list.list[2]).toMatchObject({ action: 'buy', price: '60000', note: 'RSI < 30' });
    const logged = (await actions()).filter((x) => x.kind === 'signal').map((x) => `${x.detail.id} ${x.detail.result}`);
    expect(logged).toEqual(['alert-3 placed', 'alert-2 nothing', 'alert-1 placed']);
  });

  it('refuses a bad or unreadable body with a clear code and counts it on the bot', async () => {
    // Each answer names what is wrong, in words.
    const bad: [unknown, string, string][] = [
      [{ action: 'hold', id: 'x1' }, 'application/json', 'action must be buy, sell or close'],
      [{ action: 'buy' }, 'application/json', 'id is missing'],
      [{ action: 'buy', id: 'x2', price: 'cheap' }, 'application/json', 'price is not a number'],
      [{ action: 'buy', id: 'x3', qty: 'y' }, 'application/json', 'no such field: qty'],
      ['buy now please', 'text/plain', 'not JSON'],
      ['{"action": "buy", "id": ', 'application/json', 'not JSON'],
      [[1, 2], 'application/json', 'not a JSON object'],
    ];
    for (const [body, type, words] of bad) {
      expect(await signal(token, body, type), JSON.stringify(body)).toEqual({
        code: Code.SignalBodyInvalid,
        msg: `The signal body is not valid (${words}): send a JSON object with action (buy, sell or close) and id`,
        data: null,
      });
    }
    expect(await orders()).toEqual(['buy open filled', 'sell signal_close filled']);
    // Counted on the bot, not stored one by one (a sender of bad bodies fills nothing).
    expect((await signals()).data.list.filter((s: { status: string }) => s.status === 'refused')).toHaveLength(0);
    expect((await call(alice, 'GET', `/api/user/botWebhook?id=${botId}`)).data).toMatchObject({ refused: bad.length, refusedReason: 'object' });
    // An alert as text that is JSON (TradingView's plain message) is read.
    expect(await signal(token, '{"action":"buy","id":"text-1"}', 'text/plain')).toMatchObject({ code: 1, data: { result: 'placed' } });
    expect(await signal(token, { action: 'sell', id: 'text-2' })).toMatchObject({ code: 1, data: { result: 'placed' } });
  });

  it('answers an alert that names no language in the one its owner made the webhook in', async () => {
    const bare = (tok: string) =>
      t.app.inject({ method: 'POST', url: `/api/signal/${tok}`, payload: '{"action":"buy","id":"q1","qty":1}', headers: { 'content-type': 'application/json' } }).then((r) => r.json());
    // Made from an English screen: answered in English.
    expect((await bare(token)).msg).toBe('The signal body is not valid (no such field: qty): send a JSON object with action (buy, sell or close) and id');
    // Made again from a Chinese one: in Chinese.
    const zh = await t.app.inject({ method: 'POST', url: '/api/user/botWebhookReset', payload: { id: botId }, headers: { ...alice, lang: 'zh' } }).then((r) => r.json());
    token = zh.data.token;
    expect((await bare(token)).msg).toBe('信号内容无效（没有这个字段：qty）：需要 JSON 对象，含 action（buy、sell 或 close）和 id');
  });

  it('a signals-only DCA opens no deal by itself over a week of prices, opens on a buy signal, and logs a sell signal as closed by signal', async () => {
    const created = await call(alice, 'POST', '/api/user/botCreate', { type: 'dca', exchangeId: 1, symbol: 'BTC/USDT', params: { ...params, start: { kind: 'signal' } } });
    expect(created.code, JSON.stringify(created)).toBe(1);
    const id: string = created.data.id;
    expect((await call(alice, 'GET', `/api/user/botOperation?id=${id}&action=start`)).code).toBe(1);
    const hook = (await call(alice, 'POST', '/api/user/botWebhookReset', { id })).data.token as string;
    // A week of hourly prices swinging 55,000-65,000: a `now` start would have opened at once and again after each close.
    for (let h = 0; h < 7 * 24; h++) {
      market.set('BTC/USDT', String(60000 + Math.round(5000 * Math.sin(h / 5))));
      await trading.engine.tick();
    }
    await trading.engine.idle();
    expect(await orders(id)).toEqual([]);
    expect(await signal(hook, { action: 'buy', id: 'only-1' })).toMatchObject({ code: 1, data: { result: 'placed' } });
    expect(await signal(hook, { action: 'sell', id: 'only-2' })).toMatchObject({ code: 1, data: { result: 'placed' } });
    expect(await orders(id)).toEqual(['buy open filled', 'sell signal_close filled']);
    const log = (await call(alice, 'GET', `/api/user/botActions?id=${id}&page_size=100`)).data.list as { kind: string; detail: Record<string, string> }[];
    expect(log.find((x) => x.kind === 'close')?.detail.reason).toBe('signal_close');
    expect(log.find((x) => x.kind === 'success')?.detail.how).toBe('signal');
    // Flat again, it waits for the next buy signal.
    for (let h = 0; h < 24; h++) {
      market.set('BTC/USDT', String(60000 + 100 * h));
      await trading.engine.tick();
    }
    await trading.engine.idle();
    expect(await orders(id)).toEqual(['buy open filled', 'sell signal_close filled']);
    market.set('BTC/USDT', '60000');
    expect((await call(alice, 'GET', `/api/user/botOperation?id=${id}&action=stop`)).code).toBe(1);
  });

  it('a signals-only custom bot, its buy rule empty, buys on a buy signal and never by itself', async () => {
    const created = await call(alice, 'POST', '/api/user/botCreate', {
      type: 'custom',
      exchangeId: 1,
      symbol: 'BTC/USDT',
      params: { investment: '100', size: { kind: 'fixed', quote: '50' }, entry: { join: 'and', conditions: [] }, takeProfit: '5', repeat: true, signalsOnly: true },
    });
    expect(created.code, JSON.stringify(created)).toBe(1);
    const id: string = created.data.id;
    expect((await call(alice, 'GET', `/api/user/botInfo?id=${id}`)).data.params).toMatchObject({ signalsOnly: true, entry: { conditions: [] } });
    // Without signals only, an empty buy rule is refused in words.
    const refused = await call(alice, 'POST', '/api/user/botCreate', {
      type: 'custom',
      exchangeId: 1,
      symbol: 'BTC/USDT',
      params: { investment: '100', size: { kind: 'fixed', quote: '50' }, entry: { join: 'and', conditions: [] }, takeProfit: '5', repeat: true },
    });
    expect(refused.code).not.toBe(1);
    expect((await call(alice, 'GET', `/api/user/botOperation?id=${id}&action=start`)).code).toBe(1);
    const hook = (await call(alice, 'POST', '/api/user/botWebhookReset', { id })).data.token as string;
    for (let h = 0; h < 48; h++) {
      market.set('BTC/USDT', String(60000 + Math.round(3000 * Math.sin(h / 4))));
      await trading.engine.tick();
    }
    await trading.engine.idle();
    expect(await orders(id)).toEqual([]);
    expect(await signal(hook, { action: 'buy', id: 'custom-only-1' })).toMatchObject({ code: 1, data: { result: 'placed' } });
    expect(await orders(id)).toEqual(['buy open filled']);
    market.set('BTC/USDT', '60000');
    expect((await call(alice, 'GET', `/api/user/botOperation?id=${id}&action=stop`)).code).toBe(1);
  });

  it('logs and ignores a signal for a paused bot: no order', async () => {
    const before = await orders();
    expect((await call(alice, 'GET', `/api/user/botOperation?id=${botId}&action=pause`)).code).toBe(1);
    expect(await signal(token, { action: 'buy', id: 'paused-1' })).toMatchObject({ code: Code.SignalBotNotRunning, data: null });
    expect(await orders()).toEqual(before);
    expect((await signals()).data.list[0]).toMatchObject({ signalId: 'paused-1', status: 'ignored', reason: 'paused' });
    expect((await actions()).find((x) => x.kind === 'signal')?.detail).toMatchObject({ id: 'paused-1', result: 'ignored' });
    // The same alert after a resume is still a duplicate: an alert id is acted on once, or never.
    expect((await call(alice, 'GET', `/api/user/botOperation?id=${botId}&action=start`)).code).toBe(1);
    await trading.engine.idle();
    expect(await signal(token, { action: 'buy', id: 'paused-1' })).toMatchObject({ code: Code.SignalDuplicate });
    expect(await orders()).toEqual(before);
  });

  it('answers a wrong, malformed, replaced or unknown token the same way, and records nothing', async () => {
    const count = (await signals()).data.total;
    const answers = [];
    for (const tok of [
      'A'.repeat(43),
      `${token.slice(0, 42)}${token.endsWith('A') ? 'B' : 'A'}`,
      'short',
      `${token}x`,
      '%00',
      token.toLowerCase() === token ? token.toUpperCase() : token.toLowerCase(),
    ]) {
      const r = await signal(tok, { action: 'buy', id: `wrong-${answers.length}` });
      answers.push(`${r.code} ${r.msg}`);
    }
    expect(new Set(answers)).toEqual(new Set([`${Code.SignalTokenInvalid} The signal URL is not valid: copy the latest webhook URL from the bot's detail page`]));
    const old = token;
    token = (await call(alice, 'POST', '/api/user/botWebhookReset', { id: botId })).data.token;
    expect(token).not.toBe(old);
    expect(await signal(old, { action: 'buy', id: 'old-1' })).toMatchObject({ code: Code.SignalTokenInvalid });
    expect((await signals()).data.total).toBe(count);
  });

  it('keeps one trader out of another one’s webhook and signals', async () => {
    const mine = (await call(bob, 'POST', '/api/user/botCreate', { type: 'dca', exchangeId: 1, symbol: 'BTC/USDT', params })).data.id as string;
    expect(await call(bob, 'GET', `/api/user/botWebhook?id=${botId}`)).toMatchObject({ code: Code.StrategyNotFound, data: null });
    expect(await call(bob, 'POST', '/api/user/botWebhookReset', { id: botId })).toMatchObject({ code: Code.StrategyNotFound, data: null });
    expect(await signals(bob)).toMatchObject({ code: Code.StrategyNotFound, data: null });
    // Alice's token still works; Bob's own bot and signals are his, and empty.
    expect(await signal(token, { action: 'buy', id: 'after-bob' })).toMatchObject({ code: 1 });
    expect((await signals(bob, mine)).data).toMatchObject({ total: 0, list: [] });
    expect(await call(alice, 'GET', `/api/user/botSignals?id=${mine}`)).toMatchObject({ code: Code.StrategyNotFound });
    // A token of Bob's bot opens his bot only.
    const his = (await call(bob, 'POST', '/api/user/botWebhookReset', { id: mine })).data.token as string;
    expect(await signal(his, { action: 'buy', id: 'after-bob' })).toMatchObject({ code: Code.SignalBotNotRunning }); // never started
    expect((await signals()).data.list[0].signalId).toBe('after-bob');
  });

  it('enters and exits a custom bot on signals: buy when flat, sell when holding', async () => {
    const custom = {
      investment: '1000',
      size: { kind: 'fixed', quote: '100' },
      // Rules that never hold here: only signals trade it.
      entry: { join: 'and', conditions: [{ left: { kind: 'price' }, op: '<', right: { kind: 'value', value: '1' } }] },
      takeProfit: '',
      stopLoss: '5',
      repeat: false,
    };
    const created = await call(alice, 'POST', '/api/user/botCreate', { type: 'custom', exchangeId: 1, symbol: 'BTC/USDT', params: custom });
    expect(created.code, JSON.stringify(created)).toBe(1);
    const id = created.data.id as string;
    expect((await call(alice, 'GET', `/api/user/botOperation?id=${id}&action=start`)).code).toBe(1);
    await trading.engine.idle();
    const hook = (await call(alice, 'POST', '/api/user/botWebhookReset', { id })).data.token as string;
    expect(await signal(hook, { action: 'close', id: 'k-0' })).toMatchObject({ code: 1, data: { result: 'nothing' } });
    expect(await signal(hook, { action: 'buy', id: 'k-1' })).toMatchObject({ code: 1, data: { result: 'placed' } });
    expect(await signal(hook, { action: 'buy', id: 'k-2' })).toMatchObject({ code: 1, data: { result: 'nothing' } });
    expect(await signal(hook, { action: 'sell', id: 'k-3' })).toMatchObject({ code: 1, data: { result: 'placed' } });
    // Done after its exit (no repeat): a buy signal enters again.
    expect(await signal(hook, { action: 'buy', id: 'k-4' })).toMatchObject({ code: 1, data: { result: 'placed' } });
    expect(await orders(id)).toEqual(['buy open filled', 'sell signal_close filled', 'buy open filled']);
    // A token opens its own bot only: the DCA bot's signals are not this one's.
    expect((await signals(alice, id)).data.list.map((x: { signalId: string }) => x.signalId)).toEqual(['k-4', 'k-3', 'k-2', 'k-1', 'k-0']);
  });

  it('refuses a webhook for a martin bot', async () => {
    const martin = { investment: '1000', firstOrder: '100', multiplier: '2', maxPositions: 3, addTrigger: '2', takeProfit: '1', stopLoss: '', repeat: true };
    const id = (await call(alice, 'POST', '/api/user/botCreate', { type: 'martin', exchangeId: 1, symbol: 'BTC/USDT', params: martin })).data.id as string;
    expect(await call(alice, 'POST', '/api/user/botWebhookReset', { id })).toMatchObject({ code: Code.SignalTypeUnsupported });
  });
});

/** The webhook is limited per bot (its token), and its token never reaches the log. */
describe('the signal webhook in public', () => {
  let t: TestApp;
  let trading: Trading;
  const lines: string[] = [];
  const market = new ScriptedMarket();

  beforeAll(async () => {
    t = await openTestApp('pglite', {
      trading: (db) => (trading = createTrading({ db, feed: market, now: () => NOW })),
      logStream: { write: (line) => void lines.push(line) },
      config: { rateLimits: { ...testRateLimits(), signal: { max: 4, windowMs: 60_000 } } },
    });
    market.set('BTC/USDT', '60000');
  });
  afterAll(async () => {
    await trading.engine.stop();
    await t.close();
  });

  it('refuses a bot over its budget, and logs no token, body or path of it at trace level', async () => {
    const r = await t.app.inject({ method: 'POST', url: '/api/login/register', payload: await registerPayload(t.app) });
    const auth = { authorization: `Bearer ${r.json().data.token}` };
    await t.app.inject({ method: 'POST', url: '/api/exchanges/bind', payload: { exchangeId: 1, apiKey: 'paperkey01', secretKey: 'papersecret01' }, headers: auth });
    const bot = (await t.app.inject({ method: 'POST', url: '/api/user/botCreate', payload: { type: 'dca', exchangeId: 1, symbol: 'BTC/USDT', params }, headers: auth })).json().data.id as string;
    const token = (await t.app.inject({ method: 'POST', url: '/api/user/botWebhookReset', payload: { id: bot }, headers: auth })).json().data.token as string;
    const codes: number[] = [];
    for (let i = 0; i < 6; i++) {
      const a = await t.app.inject({ method: 'POST', url: `/api/signal/${token}`, payload: { action: 'buy', id: `lim-${i}`, note: 'secret-note' } });
      codes.push(a.json().code);
    }
    // Not started: ignored, four times; then the bot's token is refused (1020) for the window.
    expect(codes).toEqual([Code.SignalBotNotRunning, Code.SignalBotNotRunning, Code.SignalBotNotRunning, Code.SignalBotNotRunning, Code.RateLimited, Code.RateLimited]);
    expect(lines.length).toBeGreaterThan(0);
    // A token that opens no bot is refused and logged for the operator, without the token.
    const guess = 'f'.repeat(64);
    await t.app.inject({ method: 'POST', url: `/api/signal/${guess}`, payload: { action: 'buy', id: 'guess' }, remoteAddress: '203.0.113.9' });
    expect(lines.filter((l) => l.includes('a token that opens no bot was refused') && l.includes('203.0.113.9'))).toHaveLength(1);
    expect(lines.join('\n')).not.toContain(guess);
    expect(lines.join('\n')).not.toContain(token);
    expect(lines.join('\n')).not.toContain('/api/signal/');
  });
});
