import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exchangeUrlsOf } from '../config.ts';
import { FakeBinance } from '../testing/fake-binance/server.ts';
import { freePort, ServerProcess } from '../testing/process-support.ts';
import { registerPayloadAt } from '../testing/test-support.ts';

/**
 * The product against a stand-in exchange (EXCHANGE_URLS): a server process started with binance at the
 * fake Binance binds a trader's keys there (checked by a signed call), reads its markets and prices, and
 * runs a live martin bot whose first order the fake fills, the whole way through the real ccxt client.
 * What `npm start` does as a demo of a live exchange (README).
 */
describe('a live exchange at another origin (EXCHANGE_URLS)', () => {
  let fake: FakeBinance;
  let server: ServerProcess;
  beforeAll(async () => {
    fake = await FakeBinance.start();
    server = new ServerProcess(await freePort(), {
      DATABASE_URL: '',
      EXCHANGE_URLS: `binance=${fake.url}`,
      ENGINE_TICK_MS: '200',
      RATE_LIMIT_REGISTER: '1000/1m',
      RATE_LIMIT_PUBLIC: '1000/1m',
    });
    await server.start();
  }, 90_000);
  afterAll(async () => {
    await server?.signal('SIGTERM');
    rmSync(server.dataDir, { recursive: true, force: true });
    await fake?.close();
  });

  it('reads origins by exchange, and refuses what is no origin', () => {
    expect(exchangeUrlsOf('binance=http://127.0.0.1:9300, okx=https://okx.example/')).toEqual({ binance: 'http://127.0.0.1:9300', okx: 'https://okx.example' });
    expect(exchangeUrlsOf(undefined)).toEqual({});
    for (const bad of ['binance', 'binance=ftp://x', 'binance=http://x/api', 'Bin ance=http://x']) expect(() => exchangeUrlsOf(bad), bad).toThrow(/EXCHANGE_URLS/);
  });

  it('binds the keys on it, and a live bot trades there', { timeout: 60_000 }, async () => {
    const base = `http://127.0.0.1:${server.port}`;
    const registered = await (
      await fetch(`${base}/api/login/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(await registerPayloadAt(base)) })
    ).json();
    const auth = { authorization: `Bearer ${registered.data.token as string}`, 'content-type': 'application/json' };
    const call = async (method: 'GET' | 'POST', path: string, body?: object) =>
      (await fetch(`${base}/api${path}`, { method, headers: auth, ...(body ? { body: JSON.stringify(body) } : {}) })).json() as Promise<{ code: number; msg: string; data: Record<string, unknown> }>;
    // A wrong secret: the fake refuses the signed check, nothing is saved.
    expect((await call('POST', '/exchanges/bind', { exchangeId: 2, apiKey: fake.apiKey, secretKey: 'x'.repeat(64) })).code).not.toBe(1);
    expect((await call('POST', '/exchanges/bind', { exchangeId: 2, apiKey: fake.apiKey, secretKey: fake.secret })).code).toBe(1);
    const params = { investment: '1000', firstOrder: '100', multiplier: '2', maxPositions: 3, addTrigger: '2', takeProfit: '1', stopLoss: '', repeat: true };
    const created = await call('POST', '/user/botCreate', { type: 'martin', exchangeId: 2, symbol: 'BTC/USDT', params });
    expect(created.code, created.msg).toBe(1);
    const id = String(created.data.id);
    const started = await call('GET', `/user/botOperation?id=${id}&action=start`);
    expect(started.code, started.msg).toBe(1);
    // The first order reaches the fake and fills there; the bot's books say so, with the fee in the coin bought.
    await expect.poll(() => fake.book.orders.filter((o) => o.status === 'FILLED').length, { timeout: 30_000 }).toBe(1);
    await expect.poll(async () => Number((await call('GET', `/user/botDetail?id=${id}`)).data.amount), { timeout: 15_000 }).toBeGreaterThan(0);
    const detail = (await call('GET', `/user/botDetail?id=${id}`)).data;
    expect([detail.exchange, detail.status]).toEqual(['binance', 'running']);
    // 100 USDT at 65,000 bought 0.00153; the 0.1 % fee in the coin leaves 0.00152847, 0.00152 of it sellable at the step.
    expect(detail.amount).toBe('0.00152');
    expect(detail.priceAt).toBeNull();
    expect(fake.requests.filter((r) => r.method === 'POST' && r.path === '/api/v3/order')).toHaveLength(1);

    // The exchange stops answering its prices: the bot's screen still opens, at the last price read, and says so.
    for (const path of ['/api/v3/ticker/24hr', '/api/v3/ticker/price']) fake.faults.add({ kind: 'serverError', status: 503, body: 'json', forMs: 60_000, match: { method: 'GET', path } });
    await expect
      .poll(async () => (await call('GET', `/user/botDetail?id=${id}`)).data as { price: string; priceAt: string | null } | null, { timeout: 15_000 })
      .toMatchObject({ price: detail.price, priceAt: expect.any(String) });
  });
});
