import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Code } from '../../contract/codes.ts';
import { dbKinds, openTestApp, type TestApp, registerPayload } from '../testing/test-support.ts';

/**
 * , the smaller gaps: API answers are never cached, the browser's powerful features
 * are off, HSTS over https, a slow request is cut off, and a trader cannot create bots without end.
 */
describe('answer headers and slow requests', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await openTestApp('pglite', { config: { trustProxy: 1, bodyTimeoutMs: 400 } });
  });
  afterAll(() => t.close());

  it('marks every /api answer no-store (the login answer carries the token) and sends a Permissions-Policy', async () => {
    const login = await t.app.inject({ method: 'POST', url: '/api/login/register', payload: await registerPayload(t.app) });
    expect(login.json().code).toBe(1);
    for (const r of [login, await t.app.inject({ url: '/api/market/exchanges' }), await t.app.inject({ url: '/api/nowhere' })]) {
      expect(r.headers['cache-control']).toBe('no-store');
      expect(r.headers['permissions-policy']).toMatch(/camera=\(\)/);
      expect(r.headers['strict-transport-security']).toBeUndefined(); // plain http
    }
  });

  it('sends HSTS when served over https (behind a proxy that says so)', async () => {
    const r = await t.app.inject({ url: '/api/health', headers: { 'x-forwarded-proto': 'https' } });
    expect(r.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
  });

  it('cuts off a request whose body never finishes arriving', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as { port: number };
    const started = Date.now();
    const answer = await new Promise<string>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => {
        // Headers promise 100 bytes; only 10 ever come.
        socket.write('POST /api/login/account HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"account"');
      });
      let text = '';
      socket.on('data', (d) => (text += d.toString()));
      socket.on('close', () => resolve(text));
      setTimeout(() => socket.destroy(), 8000);
    });
    const waited = Date.now() - started;
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
    expect(waited).toBeLessThan(5000);
  });
});

describe.each(dbKinds)('the number of bots a trader may keep (%s)', (kind) => {
  let t: TestApp;
  let auth: Record<string, string>;
  const call = (method: 'GET' | 'POST', url: string, payload?: object) => t.app.inject({ method, url, ...(payload ? { payload } : {}), headers: { ...auth, lang: 'en' } }).then((r) => r.json());
  beforeAll(async () => {
    t = await openTestApp(kind, { config: { maxBotsPerUser: 3 } });
    const r = await t.app.inject({ method: 'POST', url: '/api/login/register', payload: await registerPayload(t.app) });
    auth = { authorization: `Bearer ${r.json().data.token}` };
    await call('POST', '/api/exchanges/bind', { exchangeId: 1, apiKey: 'paperkey01', secretKey: 'papersecret01' });
  });
  afterAll(() => t.close());

  it('refuses a bot past the limit, also when many are created at once, and counts deleted ones out', async () => {
    const params = { investment: '1000', firstOrder: '100', multiplier: '2', maxPositions: 3, addTrigger: '2', takeProfit: '1', stopLoss: '', repeat: true };
    const create = () => call('POST', '/api/user/botCreate', { type: 'martin', exchangeId: 1, symbol: 'BTC/USDT', params });
    const answers = await Promise.all(Array.from({ length: 8 }, create));
    expect(answers.filter((a) => a.code === 1)).toHaveLength(3);
    const refused = answers.find((a) => a.code !== 1);
    expect(refused).toMatchObject({ code: Code.StrategyLimitReached, msg: 'You have reached the limit of 3 bots: delete the ones you no longer use first' });
    const one = answers.find((a) => a.code === 1).data.id;
    expect((await call('GET', `/api/user/botOperation?id=${one}&action=delete`)).code).toBe(1);
    expect((await create()).code).toBe(1);
    expect((await create()).code).toBe(Code.StrategyLimitReached);
  });
});
