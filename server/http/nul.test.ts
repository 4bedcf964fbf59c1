import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { Code } from '../../contract/codes.ts';
import { dbKinds, openTestApp, PASSWORD, type TestApp, registerPayload, testDcaParams } from '../testing/test-support.ts';

/** A NUL character anywhere in the input is a validation error, never a 500. */
describe.each(dbKinds)('NUL characters in the input (%s)', (kind) => {
  let t: TestApp;
  let auth: Record<string, string>;
  const send = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) => t.app.inject({ method, url, ...(payload ? { payload } : {}), headers: { ...auth, lang: 'en' } });

  beforeAll(async () => {
    t = await openTestApp(kind);
    const r = await t.app.inject({ method: 'POST', url: '/api/login/register', payload: await registerPayload(t.app) });
    auth = { authorization: `Bearer ${r.json().data.token}` };
    await send('POST', '/api/exchanges/bind', { exchangeId: 1, apiKey: 'paperkey01', secretKey: 'papersecret01' });
  });
  afterAll(() => t.close());

  const params = { investment: '1000', firstOrder: '100', multiplier: '2', maxPositions: 3, addTrigger: '2', takeProfit: '1', stopLoss: '', repeat: true };
  const cases: [string, 'GET' | 'POST' | 'PUT', string, object | undefined][] = [
    ['a bot name', 'POST', '/api/user/botCreate', { type: 'martin', exchangeId: 1, symbol: 'BTC/USDT', name: 'a\u0000b', params }],
    ['a nested field', 'POST', '/api/user/botCreate', { type: 'martin', exchangeId: 1, symbol: 'BTC/USDT', params: { ...params, investment: '1\u0000' } }],
    ['an object key', 'POST', '/api/user/setInfo', { field: 'email', value: 'a@b.co', 'x\u0000': 1 }],
    ['setInfo email', 'POST', '/api/user/setInfo', { field: 'email', value: 'a\u0000@b.co' }],
    ['setInfo avatar', 'POST', '/api/user/setInfo', { field: 'avatar', value: 'https://a.example/\u0000.png' }],
    ['setInfo nickname', 'POST', '/api/user/setInfo', { field: 'nickname', value: 'x\u0000' }],
    ['a login account', 'POST', '/api/login/account', { terminal: 1, account: 'ab\u0000cdef', password: PASSWORD }],
    ['a query string', 'GET', '/api/market/symbols?exchange=paper%00', undefined],
  ];
  /** JSON arrays nested `depth` deep: 30,000 deep is 60 kB, under the body limit. */
  const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
  const raw = (url: string, body: string, headers: Record<string, string> = auth) =>
    t.app.inject({ method: 'POST', url, payload: body, headers: { ...headers, 'content-type': 'application/json', lang: 'en' } });
  const dca = testDcaParams;
  /** A DCA bot's webhook path (its token is the signature). */
  const webhook = async () => {
    const id = (await send('POST', '/api/user/botCreate', { type: 'dca', exchangeId: 1, symbol: 'BTC/USDT', params: dca })).json().data.id as string;
    return (await send('POST', '/api/user/botWebhookReset', { id })).json().data.path as string;
  };

  it.each([
    ['a login, before any session', '/api/login/account', {}],
    ['a call behind a token', '/api/user/botCreate', undefined],
    ['a path that is no call (404)', '/api/nowhere', {}],
  ])('refuses JSON nested 30,000 deep (and 100 deep) in %s with the validation code, never a 500', async (_, url, headers) => {
    for (const depth of [30_000, 100]) {
      const r = await raw(url, nested(depth), headers ?? auth);
      expect(r.statusCode, r.body).toBe(200);
      expect(r.json()).toMatchObject({ code: Code.ValidationError, msg: 'Validation failed: request body (nested too deep)', data: null });
    }
  });

  it('refuses a too deep signal to a token that opens no bot as any wrong token, never a 500', async () => {
    const r = await raw(`/api/signal/${'A'.repeat(43)}`, nested(30_000), {});
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json()).toMatchObject({ code: Code.SignalTokenInvalid, data: null });
  });

  it('refuses a too deep body and a NUL in a signal with the validation code, and stores neither', async () => {
    const path = await webhook();
    const before = (await sql`select count(*)::int as n from bot_signals`.execute(t.db)).rows;
    for (const body of [
      nested(30_000),
      JSON.stringify({ action: 'buy', id: 'nul-1', note: 'a\u0000b' }),
      JSON.stringify({ action: 'buy', id: 'nul\u0000' }),
      '{"action":"buy","id":"k","x\\u0000":1}',
    ]) {
      const r = await raw(path, body, {});
      expect(r.statusCode, r.body).toBe(200);
      expect(r.json()).toMatchObject({ code: Code.ValidationError, data: null });
    }
    expect((await sql`select count(*)::int as n from bot_signals`.execute(t.db)).rows).toEqual(before);
  });

  it('takes a body nested as deep as a real call needs', async () => {
    const r = await send('POST', '/api/user/botCreate', { type: 'martin', exchangeId: 1, symbol: 'BTC/USDT', name: 'deep enough', params });
    expect(r.json().code).toBe(1);
  });

  for (const [what, method, url, payload] of cases) {
    it(`refuses a NUL in ${what} with the validation code`, async () => {
      const r = await send(method, url, payload);
      expect(r.statusCode).toBe(200);
      expect(r.json().code).toBe(Code.ValidationError);
      expect(r.json().msg).toMatch(/^Validation/);
    });
  }
});
