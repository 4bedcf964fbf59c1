import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Code } from '../../contract/codes.ts';
import { backtestReport } from '../../strategy/backtest-report.ts';
import { gridKit, martinKit } from '../../strategy/kit.ts';
import { SimulatedMarket } from '../market/simulated.ts';
import { openTestApp, type TestApp, registerPayload } from '../testing/test-support.ts';
import { createTrading } from '../trading.ts';

const params = { investment: '1000', firstOrder: '100', multiplier: '2', maxPositions: 3, addTrigger: '2', takeProfit: '1', stopLoss: '', repeat: true };
const NOW = Date.UTC(2026, 10, 1);

/** POST /api/strategy/backtest: the create screen's backtest, before the bot is saved. */
describe('backtest before start', () => {
  let t: TestApp;
  let auth: Record<string, string>;
  const feed = new SimulatedMarket();
  const run = (body: object) =>
    t.app
      .inject({ method: 'POST', url: '/api/strategy/backtest', payload: { type: 'martin', exchangeId: 1, symbol: 'BTC/USDT', params, days: 30, ...body }, headers: { ...auth, lang: 'en' } })
      .then((r) => r.json());

  beforeAll(async () => {
    // Grids' orders rest on the book (RESTING_ORDERS=grid); martin's go at market.
    t = await openTestApp('pglite', { trading: (db) => createTrading({ db, feed, now: () => NOW, restingTypes: ['grid'] }) });
    const r = await t.app.inject({ method: 'POST', url: '/api/login/register', payload: await registerPayload(t.app) });
    auth = { authorization: `Bearer ${r.json().data.token}` };
  });
  afterAll(() => t.close());

  it('replays 30 days of 1-minute Paper candles through the engine’s strategy', async () => {
    const r = await run({});
    expect(r.code).toBe(1);
    expect(r.data).toMatchObject({ exchange: 'paper', symbol: 'BTC/USDT', days: 30, timeframe: '1m', candles: 43_200, investment: '1000' });
    expect(r.data.to - r.data.from).toBe(30 * 86_400_000);
    // The same candles through the same report: the same answer (deterministic), profit exact.
    const m = await createTrading({ db: t.db, feed, now: () => NOW }).market('paper', 'BTC/USDT');
    const again = backtestReport(martinKit.backtest, { params: { ...params, stopLoss: undefined }, market: m }, feed.minuteColumns('BTC/USDT', NOW - 30 * 86_400_000, NOW));
    expect(r.data.realized).toBe(again.realized);
    expect(r.data.cycles).toBe(again.cycles);
    expect(r.data.cycles).toBeGreaterThan(0);
    expect(r.data.maxDrawdownPct).toBeGreaterThan(0);
    expect(r.data.equity.length).toBeGreaterThan(250);
    expect((await run({ days: 7 })).data.candles).toBe(7 * 1440);
  });

  it('fills at the trigger price with the asked slippage, 0.05 % unless told, and names it', async () => {
    const m = await createTrading({ db: t.db, feed, now: () => NOW }).market('paper', 'BTC/USDT');
    const candles = feed.minuteColumns('BTC/USDT', NOW - 7 * 86_400_000, NOW);
    const view = { params: { ...params, stopLoss: undefined }, market: m };
    const usual = await run({ days: 7 });
    expect(usual.data.fill).toEqual({ price: 'trigger', slippage: '0.0005', seconds: true, resting: [] });
    expect(usual.data.realized).toBe(backtestReport(martinKit.backtest, view, candles, { slippage: '0.0005' }).realized);
    const exact = await run({ days: 7, slippage: '0' });
    expect(exact.data.fill).toEqual({ price: 'trigger', slippage: '0', seconds: true, resting: [] });
    expect(exact.data.realized).toBe(backtestReport(martinKit.backtest, view, candles, { slippage: '0' }).realized);
    const dear = await run({ days: 7, slippage: '0.002' });
    expect(dear.data.realized).toBe(backtestReport(martinKit.backtest, view, candles, { slippage: '0.002' }).realized);
    expect(Number(dear.data.realized)).toBeLessThan(Number(exact.data.realized));
    for (const slippage of ['0.06', '1', '-0.001', '5e-4', 0.001]) expect(await run({ slippage })).toMatchObject({ code: Code.ValidationError });
  });

  it('fills a grid whose orders rest as the engine rests them: each level at its price, as the maker, and says so', async () => {
    const m = await createTrading({ db: t.db, feed, now: () => NOW }).market('paper', 'BTC/USDT');
    const candles = feed.minuteColumns('BTC/USDT', NOW - 7 * 86_400_000, NOW);
    const price = candles.open[0]!;
    const grid = { investment: '1000', lower: String(Math.round(price * 0.95)), upper: String(Math.round(price * 1.05)), grids: 10, spacing: 'arithmetic' as const, stopLoss: '', takeProfit: '' };
    const r = await run({ type: 'grid', params: grid, days: 7 });
    expect(r.code).toBe(1);
    expect(r.data.fill).toEqual({ price: 'trigger', slippage: '0.0005', seconds: true, resting: ['grid'] });
    const view = { params: { ...grid, stopLoss: undefined, takeProfit: undefined }, market: m };
    const resting = backtestReport(gridKit.backtest, view, candles, { slippage: '0.0005', resting: true });
    expect(r.data.realized).toBe(resting.realized);
    expect(r.data.fees).toBe(resting.fees);
    // At market, every level slipped and paid the taker's fee: less made on the same grids.
    const atMarket = backtestReport(gridKit.backtest, view, candles, { slippage: '0.0005' });
    expect(r.data.cycles).toBeGreaterThan(0);
    expect(Number(atMarket.realized)).toBeLessThan(Number(r.data.realized));
  });

  it('refuses what the create screen refuses, with the field’s code', async () => {
    expect(await run({ params: { ...params, maxPositions: 0 } })).toMatchObject({ code: Code.StrategyInvalidMaxPositions });
    expect(await run({ params: { ...params, investment: '100' } })).toMatchObject({ code: Code.StrategyInvalidInvestment });
    expect(await run({ exchangeId: 99 })).toMatchObject({ code: Code.ApiExchangeUnsupported });
    expect(await run({ symbol: 'NOPE/USDT' })).toMatchObject({ code: Code.OrderInvalidPair });
    expect(await run({ days: 14 })).toMatchObject({ code: Code.ValidationError });
  });
});
