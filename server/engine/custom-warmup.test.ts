import { afterAll, describe, expect, it } from 'vitest';
import { SimulatedMarket } from '../market/simulated.ts';
import { openTestApp, registerPayload, type TestApp } from '../testing/test-support.ts';
import { createTrading, type Trading } from '../trading.ts';
import { money } from '../../strategy/money.ts';

/**
 * The simulated market's minutes as four prices each: its open at second 0, its low at 15, its high at
 * 30 and its close from 45 on. A bot asked every 15 s builds exactly the market's 1-minute candles
 * (and the next minute opens at this one's close), so a feed warmed up from the market's history holds
 * the very numbers a feed that saw every price holds.
 */
class FourPriceMarket extends SimulatedMarket {
  override priceAt(symbol: string, ms: number): string {
    const minute = ms - (ms % 60_000);
    const c = this.minuteColumns(symbol, minute, minute + 60_000);
    const second = (ms - minute) / 1000;
    const price = second < 15 ? c.open[0]! : second < 30 ? c.low[0]! : second < 45 ? c.high[0]! : c.close[0]!;
    return price.toFixed(2);
  }
}

const SYMBOL = 'BTC/USDT';
/** RSI(5) on 5-minute candles: 6 closed candles (30 minutes) before its first value; a few trades an hour on this market. */
const rsi = { kind: 'rsi', period: 5, timeframe: '5m' };
const params = {
  investment: '1000',
  size: { kind: 'fixed', quote: '100' },
  entry: { join: 'and', conditions: [{ left: rsi, op: '<', right: { kind: 'value', value: '45' } }] },
  exit: { join: 'or', conditions: [{ left: rsi, op: '>', right: { kind: 'value', value: '55' } }] },
  takeProfit: '',
  stopLoss: '',
  repeat: true,
};

/**
 * Warm-up (strategy/custom/README.md "Registering"): a custom bot's candles and indicators
 * are not stored; a process that starts (or takes a bot over) rebuilds them from the market's history
 * before the bot trades. Two servers trade the same bot on the same market, each on its own database;
 * one is stopped at minute 152 and a new engine starts on its database: its bot decides exactly as the
 * one that ran through, also within the 30 minutes its RSI would otherwise have needed to start again.
 */
describe('a custom bot restarted mid-run', () => {
  const feed = new FourPriceMarket();
  const from = Date.UTC(2026, 2, 5, 9);
  let clock = from;
  const now = () => clock;
  const apps: TestApp[] = [];
  const engines: Trading[] = [];

  /** A server with one trader and one custom bot started at `from`: its app, its trading and the bot's id. */
  const server = async () => {
    let trading: Trading | undefined;
    const t = await openTestApp('pglite', { trading: (db) => (trading = createTrading({ db, feed, now, tickMs: 3_600_000 })) });
    apps.push(t);
    engines.push(trading!);
    const r = await t.app.inject({ method: 'POST', url: '/api/login/register', payload: await registerPayload(t.app) });
    const headers = { authorization: `Bearer ${r.json().data.token}` };
    const call = (method: 'GET' | 'POST', url: string, payload?: object) => t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) }).then((x) => x.json());
    await call('POST', '/api/exchanges/bind', { exchangeId: 1, apiKey: 'paperkey01', secretKey: 'papersecret01' });
    const created = await call('POST', '/api/user/botCreate', { type: 'custom', exchangeId: 1, symbol: SYMBOL, params });
    expect(created.code, JSON.stringify(created)).toBe(1);
    expect((await call('GET', `/api/user/botOperation?id=${created.data.id}&action=start`)).code).toBe(1);
    // A bot with indicators is answered once started; its warm-up goes on behind the answer.
    await trading!.engine.idle();
    return { t, trading: trading!, id: String(created.data.id) };
  };
  const fills = async (t: TestApp, id: string) =>
    (await t.db.selectFrom('bot_orders').select(['side', 'price', 'filled', 'status', 'updated_at']).where('bot_id', '=', id).orderBy('id').execute())
      .filter((o) => o.status === 'filled')
      .map((o) => `${o.side} ${money(o.price!).toFixed()} ${money(o.filled ?? '0').toFixed()}`);

  afterAll(async () => {
    for (const e of engines) await e.engine.stop();
    for (const t of apps) await t.close();
  });

  it('decides the same as a bot that ran through', { timeout: 120_000 }, async () => {
    const through = await server();
    const restarted = await server();
    let live = restarted.trading;
    const RESTART = 152;
    const MINUTES = 240;
    /** Minute of each fill of the restarted bot (by the market clock when it filled). */
    const filledAt: number[] = [];
    let before = 0;
    for (let k = 1; k < MINUTES * 4; k++) {
      clock = from + k * 15_000;
      if (k === RESTART * 4) {
        // The restarted server: its engine stops, a new one starts on its database (start-up recovery).
        await live.engine.stop();
        live = createTrading({ db: restarted.t.db, feed, now, tickMs: 3_600_000 });
        engines.push(live);
        await live.engine.start();
      }
      for (const e of [through.trading, live]) {
        await e.engine.tick();
        await e.engine.idle();
      }
      const n = (await fills(restarted.t, restarted.id)).length;
      for (; before < n; before++) filledAt.push(Math.floor(k / 4));
    }
    const a = await fills(through.t, through.id);
    const b = await fills(restarted.t, restarted.id);
    expect(a.length).toBeGreaterThan(4);
    expect(b).toEqual(a);
    // Traded after the restart, and within the 30 minutes a cold RSI(5, 5m) would have waited.
    expect(filledAt.filter((m) => m >= RESTART && m < RESTART + 30).length).toBeGreaterThan(0);
    const realized = async (t: TestApp, id: string) => (await t.db.selectFrom('bots').select('realized').where('id', '=', id).executeTakeFirstOrThrow()).realized;
    expect(money(await realized(restarted.t, restarted.id)).toFixed()).toBe(money(await realized(through.t, through.id)).toFixed());
  });
});
