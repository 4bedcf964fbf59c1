import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Code } from '../../contract/codes.ts';
import { dbKinds, openTestApp, PASSWORD, type TestApp, registerPayload } from '../test-support.ts';

/** Issue 12 finding 7: a NUL character anywhere in the input is a validation error, never a 500. */
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
  for (const [what, method, url, payload] of cases) {
    it(`refuses a NUL in ${what} with the validation code`, async () => {
      const r = await send(method, url, payload);
      expect(r.statusCode).toBe(200);
      expect(r.json().code).toBe(Code.ValidationError);
      expect(r.json().msg).toMatch(/^Validation/);
    });
  }
});
