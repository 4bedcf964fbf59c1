import { readFileSync } from 'node:fs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbKinds, openTestApp, type TestApp, registerPayload } from '../testing/test-support.ts';
import type { ClientFactory } from '../exchanges/verify.ts';

// A real ccxt binance instance whose HTTP answers come from the recorded fixture: the verification
// path runs through ccxt's own signing and parsing, with no network.
const binanceFixture = JSON.parse(readFileSync(new URL('../exchanges/fixtures/ccxt/binance.json', import.meta.url), 'utf8')) as {
  methods: { fetchBalance: { httpResponse: unknown }[] };
};
const recordedBinance: ClientFactory = async (exchange, creds) => {
  const ccxt = await import('ccxt');
  const ex = new ccxt.binance({ apiKey: creds.apiKey, secret: creds.secretKey });
  ex.setMarkets([]); // markets "loaded": the only request left is the balance itself
  ex.fetch = (async (url: string) => {
    expect(url).toContain('/api/v3/account');
    if (creds.apiKey === 'rejected-by-exchange') throw new ccxt.AuthenticationError('binance {"code":-2015,"msg":"Invalid API-key"}');
    return binanceFixture.methods.fetchBalance[0]!.httpResponse;
  }) as never;
  expect(exchange.code).toBe('binance');
  return ex;
};

type Answer = { code: number; msg: string; data: unknown };

describe.each(dbKinds)('exchanges and API keys on %s', (kind) => {
  let t: TestApp;
  /** The trader the calls are made as: each test registers its own. */
  let auth: Record<string, string>;
  /** A trader who binds nothing. */
  let other: Record<string, string>;
  const reg = async () => {
    const r = await t.app.inject({ method: 'POST', url: '/api/login/register', payload: await registerPayload(t.app) });
    return { authorization: `Bearer ${r.json().data.token}` };
  };
  beforeAll(async () => {
    t = await openTestApp(kind, { exchangeClient: recordedBinance });
    other = await reg();
  });
  afterAll(() => t.close());

  const call = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object, headers = auth) =>
    t.app.inject({ method, url, ...(payload ? { payload } : {}), headers }).then((r) => r.json() as Answer);

  it('lists the exchanges and the server IPs to whitelist', async () => {
    auth = await reg();
    const { data } = await call('GET', '/api/market/exchanges');
    const d = data as { exchanges: { code: string; passphrase: boolean }[]; ips: string[] };
    expect(d.exchanges.map((e) => e.code)).toEqual(['paper', 'binance', 'okx', 'bybit', 'gate', 'bitget', 'htx', 'binancesim', 'okxsim', 'bybitsim', 'bitgetsim']);
    // Simulated accounts on the live prices of the exchanges that offer simulation.
    expect((d.exchanges as { code: string; simulatedOf?: string }[]).filter((e) => e.simulatedOf).map((e) => `${e.code}:${e.simulatedOf}`)).toEqual([
      'binancesim:binance',
      'okxsim:okx',
      'bybitsim:bybit',
      'bitgetsim:bitget',
    ]);
    expect(d.exchanges.filter((e) => e.passphrase).map((e) => e.code)).toEqual(['okx', 'bitget']);
    expect(d.ips).toEqual(['203.0.113.7']);
  });

  it('binds Paper keys of the right format, masks them, and re-binds as an update', async () => {
    auth = await reg();
    const bad = await call('POST', '/api/exchanges/bind', { exchangeId: 1, apiKey: 'short', secretKey: 'short' }, { ...auth, lang: 'en' });
    expect(bad).toMatchObject({ code: 2206, msg: 'Add failed, please check if the key is correct' });
    const ok = await call('POST', '/api/exchanges/bind', { exchangeId: 1, apiKey: 'paperKey12345678', secretKey: 'paperSecretABCDEFGH' });
    expect(ok.code).toBe(1);
    expect(ok.data).toMatchObject({ exchangeId: 1, exchange: 'paper', apiKey: 'pape****5678' });
    expect(JSON.stringify(ok)).not.toContain('paperSecretABCDEFGH');
    const badUpdate = await call('POST', '/api/exchanges/bind', { exchangeId: 1, apiKey: 'x', secretKey: 'y' });
    expect(badUpdate).toMatchObject({ code: 2207, msg: '更新失败，请检查密钥是否正确' });
    const list = await call('GET', '/api/user/api?exchange=paper');
    expect(list.data).toEqual([expect.objectContaining({ apiKey: 'pape****5678' })]);
    expect((await call('GET', '/api/user/api', undefined, other)).data).toEqual([]);
  });

  it('verifies live keys with the exchange through ccxt before saving them', async () => {
    auth = await reg();
    const rejected = await call('POST', '/api/exchanges/bind', { exchangeId: 2, apiKey: 'rejected-by-exchange', secretKey: 'whatever-secret' });
    expect(rejected.code).toBe(2206);
    const ok = await call('POST', '/api/exchanges/bind', { exchangeId: 2, apiKey: 'binanceKeyAAAA1111', secretKey: 'binanceSecretZZZZ9999' });
    expect(ok).toMatchObject({ code: 1, data: { exchange: 'binance', apiKey: 'bina****1111' } });
    const okx = await call('POST', '/api/exchanges/bind', { exchangeId: 3, apiKey: 'okxKey12345678', secretKey: 'okxSecret12345678' });
    expect(okx.code).toBe(2206); // OKX needs its passphrase
    expect((await call('POST', '/api/exchanges/bind', { exchangeId: 99, apiKey: 'a', secretKey: 'b' })).code).toBe(2205);
    expect((await call('POST', '/api/exchanges/bind', { exchangeId: 1, apiKey: '', secretKey: 'b' })).code).toBe(6001);
  });

  it('keeps no secret in plain text anywhere in the database', async () => {
    auth = await reg();
    expect((await call('POST', '/api/exchanges/bind', { exchangeId: 1, apiKey: 'paperKey12345678', secretKey: 'paperSecretABCDEFGH' })).code).toBe(1);
    expect((await call('POST', '/api/exchanges/bind', { exchangeId: 2, apiKey: 'binanceKeyAAAA1111', secretKey: 'binanceSecretZZZZ9999' })).code).toBe(1);
    const rows = await sql<{ dump: string }>`SELECT string_agg(t::text, '|') AS dump FROM exchange_keys t`.execute(t.db);
    const dump = rows.rows[0]!.dump;
    expect(dump).toContain('v1:');
    for (const secret of ['paperSecretABCDEFGH', 'binanceSecretZZZZ9999', 'paperKey12345678', 'binanceKeyAAAA1111']) expect(dump).not.toContain(secret);
  });

  it("unbinds only the owner's binding", async () => {
    auth = await reg();
    expect((await call('POST', '/api/exchanges/bind', { exchangeId: 1, apiKey: 'paperKey12345678', secretKey: 'paperSecretABCDEFGH' })).code).toBe(1);
    const [paper] = (await call('GET', '/api/user/api?exchange=paper')).data as { id: string }[];
    expect((await call('DELETE', `/api/exchanges/bind/${paper!.id}`, undefined, other)).code).toBe(2204);
    expect((await call('DELETE', `/api/exchanges/bind/${paper!.id}`)).code).toBe(1);
    expect((await call('DELETE', `/api/exchanges/bind/${paper!.id}`)).code).toBe(2204);
    expect((await call('DELETE', '/api/exchanges/bind/abc')).code).toBe(1005);
    expect((await call('GET', '/api/user/api?exchange=paper')).data).toEqual([]);
  });
});
