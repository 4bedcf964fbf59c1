import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Exchange } from 'ccxt';
import { Code } from '../../contract/codes.ts';
import { ScriptedMarket } from '../testing/scripted.ts';
import { dbKinds, openTestApp, type Answer, type DataAt, type TestApp, registerPayload } from '../testing/test-support.ts';
import { createTrading, type Trading } from '../trading.ts';
import { entry, fixture, replaying, type Replaying } from '../testing/ccxt-fixtures.ts';
import { createLiveTrading } from './live-trading.ts';
import { readCredentials } from '../services/exchange-keys.ts';
import type { LiveCredentials } from './live.ts';

const http = (exchange: string, method: string, description: string) => entry(fixture(exchange), method, description).httpResponse;

/**
 * A bot on a live exchange, end to end through the server: the owner's keys are decrypted for the
 * venue only, prices and market rules come through ccxt, the order goes out through the adapter and
 * the fill recorded is the exchange's. ccxt runs for real; its HTTP answers are Bitget's and Binance's
 * recorded ones (no network).
 */
describe.each(dbKinds)('live exchanges wired into the server (%s)', (kind) => {
  let t: TestApp;
  let trading: Trading;
  let auth: Record<string, string>;
  const made: { exchange: string; credentials: LiveCredentials | undefined; replay: Replaying }[] = [];
  const answers = (exchange: string, keyed: boolean): unknown[] => {
    // Keyed: the balance read before each of the two starts (the refused one and the funded one), then the order.
    if (exchange === 'bitget')
      return keyed
        ? [
            http('bitget', 'fetchBalance', 'spot balance'),
            http('bitget', 'fetchBalance', 'spot balance'),
            http('bitget', 'createOrder', 'create spot order'),
            http('bitget', 'fetchOrder', 'fetch spot order'),
          ]
        : [http('bitget', 'fetchTicker', 'public spot ticker')];
    if (exchange === 'binance') return [http('binance', 'fetchTicker', 'public spot ticker')];
    return [{}];
  };
  const ccxt = async (exchange: string, credentials?: LiveCredentials) => {
    const replay = replaying(exchange, answers(exchange, credentials !== undefined));
    made.push({ exchange, credentials, replay });
    return replay.ex as unknown as Exchange;
  };
  const call = <M extends 'GET' | 'POST', U extends string>(method: M, url: U, payload?: object) =>
    t.app.inject({ method, url, ...(payload ? { payload } : {}), headers: { ...auth, lang: 'en' } }).then((r) => r.json() as Answer<DataAt<M, U>>);

  beforeAll(async () => {
    t = await openTestApp(kind, {
      exchangeClient: async () => ({ fetchBalance: async () => ({}) }), // the keys "verify" (no network here)
      trading: (db, box) =>
        (trading = createTrading({
          db,
          feed: new ScriptedMarket(),
          live: createLiveTrading({ db, box, ccxt, credentials: (userId, exchangeId) => readCredentials({ db, box }, userId, exchangeId) }),
        })),
    });
    const r = await t.app.inject({ method: 'POST', url: '/api/login/register', payload: await registerPayload(t.app) });
    auth = { authorization: `Bearer ${r.json().data.token}` };
  });
  afterAll(async () => {
    await trading.engine.stop();
    await t.close();
  });

  it('lists a live pair with its price and trading rules from the exchange', async () => {
    const r = await call('GET', '/api/market/symbols?exchange=binance&symbol=BTC%2FUSDT');
    expect(r.code).toBe(1);
    expect(r.data).toEqual([expect.objectContaining({ symbol: 'BTC/USDT', exchange: 'binance', price: '73369.84', tickSize: '0.01', stepSize: '0.000001', minCost: '5', feeRate: '0.001' })]);
    expect((await call('GET', '/api/market/symbols?exchange=binance&symbol=NOPE%2FUSDT')).code).toBe(Code.OrderInvalidPair);
    expect(made.filter((m) => m.exchange === 'binance').every((m) => m.credentials === undefined)).toBe(true); // market data needs no keys
  });

  it("runs a martin bot on Bitget through the adapter with the owner's keys, and records the exchange's fill", async () => {
    const keys = { apiKey: 'bitgetKey0001', secretKey: 'bitgetSecret0001', passphrase: 'bitgetPass01' };
    expect((await call('POST', '/api/exchanges/bind', { exchangeId: 6, ...keys })).code).toBe(1);
    // The recorded account holds 17.85159289 USDT free: the bot's worst case (3 x 5.5) fits, a larger one
    // is refused before it starts.
    const tooBig = await call('POST', '/api/user/botCreate', {
      type: 'martin',
      exchangeId: 6,
      symbol: 'BTC/USDT',
      params: { investment: '1000', firstOrder: '20', multiplier: '2', maxPositions: 3, addTrigger: '2', takeProfit: '1', repeat: true },
    });
    expect(tooBig.code).toBe(1);
    const refused = await call('GET', `/api/user/botOperation?id=${tooBig.data.id}&action=start`);
    expect([refused.code, refused.msg]).toEqual([
      Code.StrategyInsufficientBalance,
      'The account has 17.85 USDT free, less than the 140 USDT this bot can need: lower the investment or add funds first',
    ]);
    const params = { investment: '16.5', firstOrder: '5.5', multiplier: '1', maxPositions: 3, addTrigger: '2', takeProfit: '1', repeat: true };
    const created = await call('POST', '/api/user/botCreate', { type: 'martin', exchangeId: 6, symbol: 'BTC/USDT', params });
    expect(created.code).toBe(1);
    const id: string = created.data.id;
    const started = await call('GET', `/api/user/botOperation?id=${id}&action=start`);
    expect(started.code).toBe(1);
    await trading.engine.idle();

    const keyed = made.filter((m) => m.exchange === 'bitget' && m.credentials);
    expect(keyed).toHaveLength(1);
    expect(keyed[0]!.credentials).toEqual(keys); // decrypted for the venue, and only there
    const [balance, , create, confirm] = keyed[0]!.replay.urls;
    expect(balance).toMatch(/GET .*\/api\/v2\/spot\/account\/assets/);
    expect(create).toMatch(/POST .*\/api\/v2\/spot\/trade\/place-order .*"clientOid":"qb[0-9a-f]{6}[0-9a-y]+z1z1"/);
    expect(confirm).toMatch(/GET .*\/api\/v2\/spot\/trade\/orderInfo/);

    // Bitget's recorded fill, figures as the exchange gave them: 0.0915 at 65.521 for 5.9951715 USDT, fee
    // 0.0000915 in the coin bought (the recording is an LTC order; the wiring passes it through untouched).
    const detail = await call('GET', `/api/user/botDetail?id=${id}`);
    expect(detail.data).toMatchObject({ status: 'running', positions: 1, fills: [{ price: '65.521', amount: '0.0915' }], price: '73369.13' });
    const adds = await call('GET', `/api/user/positionAdds?id=${id}`);
    expect(adds.data).toEqual([expect.objectContaining({ reason: 'open', status: 'filled', price: '65.521', amount: '0.0915', cost: '5.9951715', fee: '0.0000915', feeCurrency: 'LTC' })]);
  });
});
