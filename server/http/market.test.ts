import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestApp, type TestApp, registerPayload } from '../testing/test-support.ts';
import { tradableTypes } from '../../strategy/kit.ts';

type Answer = { code: number; msg: string; data: unknown };

describe('market data and strategy types', () => {
  let t: TestApp;
  let auth: Record<string, string>;
  beforeAll(async () => {
    t = await openTestApp('pglite');
    const r = await t.app.inject({ method: 'POST', url: '/api/login/register', payload: await registerPayload(t.app) });
    auth = { authorization: `Bearer ${r.json().data.token}` };
  });
  afterAll(() => t.close());
  const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ url, headers: { ...auth, ...headers } }).then((r) => r.json() as Answer);

  it("answers prices of the asked symbols as exact decimal strings with the tick's decimals", async () => {
    const { code, data } = await get('/api/market/price?symbols=BTC/USDT,ETH/USDT');
    expect(code).toBe(1);
    const list = data as { symbol: string; price: string; change24h: string }[];
    expect(list.map((x) => x.symbol)).toEqual(['BTC/USDT', 'ETH/USDT']);
    for (const x of list) {
      expect(x.price).toMatch(/^\d+\.\d{2}$/);
      expect(x.change24h).toMatch(/^-?\d+\.\d{2}$/);
    }
    expect((await get('/api/market/price?symbols=FOO/USDT')).code).toBe(3005);
    expect((await get('/api/market/price?symbols=btc')).code).toBe(1005);
  });

  it('lists the symbols, with history on demand', async () => {
    const plain = (await get('/api/market/symbols')).data as { symbol: string; history?: unknown[] }[];
    expect(plain.map((s) => s.symbol)).toContain('DOGE/USDT');
    expect(plain[0]!.history).toBeUndefined();
    const withHistory = (await get('/api/market/symbols?history=1&timeframe=15m')).data as { history: { time: number }[] }[];
    expect(withHistory[0]!.history).toHaveLength(100);
    expect(withHistory[0]!.history[1]!.time - withHistory[0]!.history[0]!.time).toBe(900_000);
    expect((await get('/api/market/symbols?exchange=binance')).code).toBe(2205);
    // One pair with its trading rules: what a bot's orders must meet.
    const one = (await get('/api/market/symbols?symbol=ETH%2FUSDT&history=1&timeframe=1m')).data as { symbol: string; tickSize: string; minCost: string; feeRate: string; history: unknown[] }[];
    expect(one.map((s) => s.symbol)).toEqual(['ETH/USDT']);
    expect(one[0]).toMatchObject({ tickSize: '0.01', minCost: '5', feeRate: '0.001', makerFeeRate: '0.0008' });
    expect(one[0]!.history).toHaveLength(100);
    expect((await get('/api/market/symbols?symbol=NOPE%2FUSDT')).code).not.toBe(1);
  });

  it('adds the last day’s hourly closes for sparklines and an indicator over the history', async () => {
    const list = (await get('/api/market/symbols?latest=1')).data as { symbol: string; price: string; spark: number[] }[];
    expect(list.length).toBeGreaterThan(3);
    for (const s of list) expect(s.spark).toHaveLength(24);
    const one = (
      (await get('/api/market/symbols?symbol=BTC%2FUSDT&history=1&timeframe=1h&indicator=ma20')).data as { history: { close: string }[]; indicator: { name: string; values: (number | null)[] } }[]
    )[0]! as { history: { close: string }[]; indicator: { name: string; values: (number | null)[] } };
    expect(one.indicator.name).toBe('ma20');
    expect(one.indicator.values).toHaveLength(one.history.length);
    expect(one.indicator.values.slice(0, 19).every((v) => v === null)).toBe(true);
    const closes = one.history.slice(0, 20).map((c) => Number(c.close));
    expect(one.indicator.values[19]).toBeCloseTo(closes.reduce((a, b) => a + b, 0) / 20, 2);
    expect((await get('/api/market/symbols?indicator=macd')).code).toBe(1005);
  });

  it('has no futures on Paper, and refuses an unknown exchange', async () => {
    expect((await get('/api/market/futures?exchange=paper')).data).toEqual({ exchange: 'paper', supported: false, list: [] });
    expect((await get('/api/market/futures?exchange=nowhere')).code).toBe(2205);
  });

  it('lists the strategy types in the request language, and pages their templates', async () => {
    const zh = (await get('/api/market/botTypes')).data as { code: string; name: string; available: boolean }[];
    // The specification's types first, in its order; then ours (buy the dip), each one a type the engine trades.
    const spec = ['martin', 'ai', 'grid', 'dca', 'arbitrage', 'custom'];
    expect(zh.map((x) => x.code).slice(0, spec.length)).toEqual(spec);
    expect(zh.slice(spec.length).filter((x) => !tradableTypes.includes(x.code))).toEqual([]);
    // What the engine trades is available: DCA, custom and ours too (arbitrage comes with futures).
    expect(zh.filter((x) => x.available).map((x) => x.code)).toEqual(zh.map((x) => x.code).filter((code) => code !== 'arbitrage'));
    expect(zh[0]).toMatchObject({ name: '马丁格尔策略', available: true });
    // Whether a type's orders rest on the exchange is this server's RESTING_ORDERS (none here); the
    // types with no bots of their own say nothing of it.
    const resting = (await get('/api/market/botTypes')).data as { code: string; resting?: boolean }[];
    expect(resting.filter((x) => x.resting !== undefined).map((x) => `${x.code} ${x.resting}`)).toEqual(tradableTypes.filter((c) => resting.some((x) => x.code === c)).map((c) => `${c} false`));
    expect(resting.filter((x) => x.resting === undefined).map((x) => x.code)).toEqual(['ai', 'arbitrage']);
    expect(((await get('/api/market/botTypes', { lang: 'en' })).data as { name: string }[])[0]!.name).toBe('Martingale');
    const page1 = (await get('/api/market/typeBots?type_id=1')).data as { list: { typeId: number }[]; total: number; page_size: number };
    expect(page1).toMatchObject({ total: 12, page: 1, page_size: 10 });
    expect(page1.list).toHaveLength(10);
    const page2 = (await get('/api/market/typeBots?type_id=1&page=2&page_size=10')).data as { list: unknown[] };
    expect(page2.list).toHaveLength(2);
    expect(((await get('/api/market/typeBots?type_id=3')).data as { total: number }).total).toBe(0);
    expect((await get('/api/market/typeBots?page_size=1000')).code).toBe(1005);
  });
});
