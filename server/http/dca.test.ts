import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Code } from '../../contract/codes.ts';
import { backtestReport } from '../../strategy/backtest-report.ts';
import { dcaKit } from '../../strategy/kit.ts';
import { CustomFeed, warmUpCandles, type Candle } from '../../strategy/custom/feed.ts';
import type { Rule } from '../../strategy/custom/rules.ts';
import { money } from '../../strategy/money.ts';
import { paperHistory, warmUpCustom } from '../market/custom-history.ts';
import { ScriptedMarket } from '../testing/scripted.ts';
import { SimulatedMarket } from '../market/simulated.ts';
import { openTestApp, registerPayload, type TestApp } from '../testing/test-support.ts';
import { createTrading, type Trading } from '../trading.ts';

/** The README's example (strategy/dca/README.md): 320 USDT a deal, at BTC 60,000. */
const params = {
  investment: '320',
  baseOrder: '20',
  safetyOrder: '20',
  maxSafetyOrders: 4,
  deviation: '1.5',
  stepScale: '1.5',
  volumeScale: '2',
  takeProfit: '1.5',
  stopLoss: '15',
  cooldown: 0,
  start: { kind: 'now' },
};

/** The DCA bot through the API: created, checked field by field, listed, detailed, traded on Paper, backtested. */
describe('DCA bots on the API', () => {
  let t: TestApp;
  let trading: Trading;
  const market = new ScriptedMarket();
  let auth: Record<string, string>;
  const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object, lang = 'en') =>
    t.app.inject({ method, url, ...(payload ? { payload } : {}), headers: { ...auth, lang } }).then((r) => r.json());
  const create = (p: object, lang = 'en') => call('POST', '/api/user/botCreate', { type: 'dca', exchangeId: 1, symbol: 'BTC/USDT', params: { ...params, ...p } }, lang);
  const step = async (price: string) => {
    market.set('BTC/USDT', price);
    for (let i = 0; i < 3; i++) {
      await trading.engine.tick();
      await trading.engine.idle();
    }
  };

  beforeAll(async () => {
    t = await openTestApp('pglite', { trading: (db) => (trading = createTrading({ db, feed: market })) });
    const r = await t.app.inject({ method: 'POST', url: '/api/login/register', payload: await registerPayload(t.app) });
    auth = { authorization: `Bearer ${r.json().data.token}` };
    expect((await call('POST', '/api/exchanges/bind', { exchangeId: 1, apiKey: 'paperkey01', secretKey: 'papersecret01' })).code).toBe(1);
    market.set('BTC/USDT', '60000');
  });
  afterAll(async () => {
    await trading.engine.stop();
    await t.close();
  });

  it('is an available strategy type', async () => {
    const types = (await call('GET', '/api/market/botTypes')).data as { code: string; available: boolean; category: string; name: string }[];
    expect(types.find((x) => x.code === 'dca')).toMatchObject({ available: true, category: 'dca', name: 'DCA' });
  });

  it('refuses bad parameters with the field and a clear code, never a 500', async () => {
    const cases: [object, number, string][] = [
      [{ investment: '319.99' }, Code.StrategyInvalidInvestment, 'Invalid investment: it must cover the first order and every add'],
      [{ baseOrder: '4' }, Code.StrategyOrderBelowMinimum, 'Each order must be at least the market minimum size'],
      [{ stopLoss: '12' }, Code.StrategyInvalidParams, 'Invalid strategy parameters: stop loss'],
      [{ deviation: '10', stepScale: '2' }, Code.StrategyInvalidParams, 'Invalid strategy parameters: price deviation'],
      [{ maxSafetyOrders: 51 }, Code.StrategyInvalidParams, 'Invalid strategy parameters: safety orders'],
      [{ start: { kind: 'schedule', every: 'day', time: '25:00', utcOffset: 0 } }, Code.StrategyInvalidParams, 'Invalid strategy parameters: deal start'],
      [{ takeProfit: undefined }, Code.RequiredFieldMissing, 'A required field is missing: take profit'],
    ];
    for (const [p, code, msg] of cases) expect(await create(p), JSON.stringify(p)).toMatchObject({ code, msg });
    expect(await create({ start: { kind: 'later' } })).toMatchObject({ code: Code.ValidationError });
    expect((await create({ investment: '319.99' }, 'zh')).msg).not.toMatch(/[a-z]{4}/);
    // A martin body under the dca type is refused: the DCA fields are missing.
    expect(await call('POST', '/api/user/botCreate', { type: 'dca', exchangeId: 1, symbol: 'BTC/USDT', params: { investment: '100' } })).toMatchObject({ code: Code.RequiredFieldMissing });
  });

  it('trades a deal on Paper: base order, safety orders at their prices, take profit; listed and detailed as dca', async () => {
    const created = await create({ stopLoss: '' });
    expect(created, JSON.stringify(created)).toMatchObject({ code: 1 });
    const id = created.data.id as string;
    expect(created.data).toMatchObject({ type: 'dca', maxPositions: 5, params: { ...params, stopLoss: '' } });
    expect(created.data.name).toBe('BTC/USDT DCA');
    expect((await call('GET', `/api/user/botOperation?id=${id}&action=start`)).code).toBe(1);
    await trading.engine.idle();
    for (const price of ['60000', '59100', '57750', '58000']) await step(price);
    const detail = (await call('GET', `/api/user/botDetail?id=${id}`)).data;
    // Planned from the base fill 60000: the README's table.
    expect(detail.levels.map((l: { price: string; quote: string }) => `${l.price} ${l.quote}`)).toEqual(['60000 20', '59100 20', '57750 40', '55725 80', '52687.5 160']);
    expect(detail).toMatchObject({ type: 'dca', positions: 3, takeProfitPrice: '59509.45', nextAddPrice: '55725', stopLossPrice: null });
    await step('59509.45');
    const positions = (await call('GET', `/api/user/botPositions?id=${id}`)).data.list;
    expect(positions.find((p: { status: string }) => p.status === 'closed')).toMatchObject({ cycle: 1, entries: 3, closePrice: '59509.45' });
    const list = (await call('GET', '/api/user/botList')).data.list;
    expect(list.find((b: { id: string }) => b.id === id)).toMatchObject({ type: 'dca', cycle: 2 });
    expect((await call('GET', `/api/user/botOperation?id=${id}&action=pause`)).code).toBe(1);
    // Edited while paused: a schedule and a cooldown.
    const updated = await call('PUT', `/api/user/botUpdate?id=${id}`, { params: { ...params, cooldown: 600, start: { kind: 'schedule', every: 'week', weekday: 1, time: '08:00', utcOffset: 480 } } });
    expect(updated.code).toBe(1);
    expect((await call('GET', `/api/user/botInfo?id=${id}`)).data.params).toMatchObject({ cooldown: 600, start: { kind: 'schedule', weekday: 1 } });
  });

  it('goes through the batch operations, the bill and the positions list like every bot', async () => {
    market.set('BTC/USDT', '60000');
    const a = (await create({ stopLoss: '', name: undefined })).data.id as string;
    const b = (await create({ stopLoss: '' })).data.id as string;
    const batch = async (action: string) => {
      const task = (await call('GET', `/api/user/botBatch?action=${action}&ids=${a},${b}`)).data.task_id as string;
      let status: { status: string; results: { id: string; ok: boolean }[] };
      do status = (await call('GET', `/api/user/botBatchStatus?task_id=${task}`)).data;
      while (status.status !== 'done');
      return status.results.map((r) => [r.id, r.ok]);
    };
    const statuses = async () => {
      const list = (await call('GET', '/api/user/botList?page_size=100')).data.list as { id: string; status: string }[];
      return [a, b].map((id) => list.find((x) => x.id === id)?.status);
    };
    expect(await batch('start')).toEqual([
      [a, true],
      [b, true],
    ]);
    expect(await statuses()).toEqual(['running', 'running']);
    await trading.engine.idle();
    // Both hold their base order: the open positions list them.
    await step('60000');
    const open = (await call('GET', '/api/user/positions?page_size=100')).data.list as { botId: string; entries: number }[];
    expect(open.filter((p) => p.botId === a || p.botId === b).map((p) => [p.botId, p.entries])).toEqual(
      expect.arrayContaining([
        [a, 1],
        [b, 1],
      ]),
    );
    // A take profit closes both deals: the bill lists each cycle with its profit.
    await step('60900');
    const bill = (await call('GET', '/api/user/billLogs?page_size=100')).data.list as { botId: string; cycle: number; profit: string }[];
    // A base order alone: 0.00032 of 0.00032967 BTC sold at 60900 for less than its 19.8 USDT (the rest stays the bot's coin).
    for (const id of [a, b]) expect(bill.find((l) => l.botId === id)).toMatchObject({ cycle: 1, profit: expect.stringMatching(/^-?\d+\.\d+$/) });
    expect(await batch('pause')).toEqual([
      [a, true],
      [b, true],
    ]);
    expect(await statuses()).toEqual(['paused', 'paused']);
    // A batch stop may sell what the bots hold first, as one bot's stop does; sell is for stop alone.
    const holding = async () =>
      ((await call('GET', '/api/user/botList?page_size=100')).data.list as { id: string; positions: number }[]).filter((x) => x.id === a || x.id === b).map((x) => x.positions);
    expect(await holding()).toEqual([1, 1]);
    expect((await call('GET', `/api/user/botBatch?action=pause&ids=${a}&sell=1`)).code).toBe(Code.ValidationError);
    expect(await batch('stop&sell=1')).toEqual([
      [a, true],
      [b, true],
    ]);
    expect(await statuses()).toEqual(['stopped', 'stopped']);
    expect(await holding()).toEqual([0, 0]);
    const sold = await t.db
      .selectFrom('bot_orders')
      .select(['bot_id', 'reason'])
      .where('bot_id', 'in', [a, b])
      .where('status', '=', 'filled')
      .where('side', '=', 'sell')
      .orderBy('id', 'desc')
      .execute();
    expect(sold.slice(0, 2).map((o) => o.reason)).toEqual(['manual_close', 'manual_close']);
  });

  it('trails its stop loss on Paper: the detail’s stop moves up with the high, the stop sells there and is logged (README.md example)', async () => {
    market.set('BTC/USDT', '60000');
    const created = await create({ takeProfit: '5', trailingStop: true });
    expect(created, JSON.stringify(created)).toMatchObject({ code: 1, data: { params: { trailingStop: true } } });
    const id = created.data.id as string;
    expect((await call('GET', `/api/user/botOperation?id=${id}&action=start`)).code).toBe(1);
    await trading.engine.idle();
    await step('60000');
    expect((await call('GET', `/api/user/botDetail?id=${id}`)).data).toMatchObject({ stopLossPrice: '51000', takeProfitPrice: '63000' });
    await step('62500');
    // floor(62500 x 0.85): above the 4th safety order (52687.5), which now never fills.
    expect((await call('GET', `/api/user/botDetail?id=${id}`)).data).toMatchObject({ stopLossPrice: '53125' });
    for (const price of ['59100', '57750', '55725', '53125']) await step(price);
    const orders = await t.db.selectFrom('bot_orders').select(['reason', 'price']).where('bot_id', '=', id).where('status', '=', 'filled').orderBy('id').execute();
    // The next deal opens at once (start: now).
    expect(orders.map((o) => `${o.reason} ${Number(o.price)}`)).toEqual(['open 60000', 'add 59100', 'add 57750', 'add 55725', 'stop 53125', 'open 53125']);
    const fired = await t.db.selectFrom('bot_actions').select('detail').where('bot_id', '=', id).where('kind', '=', 'trailing_fired').execute();
    expect(fired.map((a) => a.detail)).toEqual([{ exit: 'stop_loss', high: '62500', price: '53125' }]);
    const closed = (await call('GET', `/api/user/botPositions?id=${id}`)).data.list.find((p: { status: string }) => p.status === 'closed');
    expect(closed).toMatchObject({ cycle: 1, closePrice: '53125', profit: '-11.82815625' });
    expect((await call('GET', `/api/user/botOperation?id=${id}&action=pause`)).code).toBe(1);
  });
});

describe('the DCA backtest before start', () => {
  const NOW = Date.UTC(2026, 10, 1);
  const feed = new SimulatedMarket();
  let t: TestApp;
  let auth: Record<string, string>;
  beforeAll(async () => {
    t = await openTestApp('pglite', { trading: (db) => createTrading({ db, feed, now: () => NOW }) });
    const r = await t.app.inject({ method: 'POST', url: '/api/login/register', payload: await registerPayload(t.app) });
    auth = { authorization: `Bearer ${r.json().data.token}` };
  });
  afterAll(() => t.close());

  it('replays 7 days of Paper candles through the DCA strategy, with its cooldown on the candles’ times', async () => {
    const body = { ...params, investment: '2000', baseOrder: '100', safetyOrder: '50', deviation: '0.5', takeProfit: '0.5', stopLoss: '', cooldown: 3600 };
    const r = await t.app
      .inject({ method: 'POST', url: '/api/strategy/backtest', payload: { type: 'dca', exchangeId: 1, symbol: 'BTC/USDT', params: body, days: 7 }, headers: { ...auth, lang: 'en' } })
      .then((x) => x.json());
    expect(r.code).toBe(1);
    expect(r.data).toMatchObject({ exchange: 'paper', days: 7, candles: 7 * 1440, investment: '2000' });
    const m = await createTrading({ db: t.db, feed, now: () => NOW }).market('paper', 'BTC/USDT');
    const again = backtestReport(dcaKit.backtest, { params: { ...body, stopLoss: undefined, start: { kind: 'now' } }, market: m }, feed.minuteColumns('BTC/USDT', NOW - 7 * 86_400_000, NOW));
    expect(r.data.realized).toBe(again.realized);
    expect(r.data.cycles).toBe(again.cycles);
    expect(r.data.cycles).toBeGreaterThan(0);
  });

  it('backtests an indicator start on the same minutes, its indicators warmed up from the history before them', async () => {
    const rule = { join: 'and', conditions: [{ left: { kind: 'rsi', period: 14, timeframe: '5m' }, op: '<', right: { kind: 'value', value: '35' } }] } as const;
    const body = { ...params, investment: '2000', baseOrder: '100', safetyOrder: '50', deviation: '0.5', takeProfit: '0.5', stopLoss: '', start: { kind: 'indicator', rule } };
    const r = await t.app
      .inject({ method: 'POST', url: '/api/strategy/backtest', payload: { type: 'dca', exchangeId: 1, symbol: 'BTC/USDT', params: body, days: 7 }, headers: { ...auth, lang: 'en' } })
      .then((x) => x.json());
    expect(r.code, JSON.stringify(r)).toBe(1);
    const m = await createTrading({ db: t.db, feed, now: () => NOW }).market('paper', 'BTC/USDT');
    const minutes = feed.minuteColumns('BTC/USDT', NOW - 7 * 86_400_000, NOW);
    const entry = rule as unknown as Rule;
    const warmUp: Record<string, Candle[]> = {};
    for (const [tf, n] of Object.entries(warmUpCandles({ entry }))) warmUp[tf] = await paperHistory(feed, 'BTC/USDT')(tf as '5m', minutes.time[0]!, n);
    const view = { params: { ...body, stopLoss: undefined, start: { kind: 'indicator' as const, rule: entry } }, market: m };
    const again = backtestReport(dcaKit.backtest, view, minutes, undefined, 300, warmUp);
    expect(r.data.realized).toBe(again.realized);
    expect(r.data.cycles).toBe(again.cycles);
    expect(r.data.cycles).toBeGreaterThan(0);
    // Deals wait for the rule: fewer than with a start at once on the same minutes.
    expect(again.cycles).toBeLessThan(backtestReport(dcaKit.backtest, { ...view, params: { ...view.params, start: { kind: 'now' } } }, minutes).cycles);
  });
});

/**
 * A DCA bot whose deal starts on an indicator condition (strategy/dca/README.md "Deal
 * start"), on Paper with the market's clock: its feed is warmed up from the market's history when it
 * starts, and its base order goes in at the first price after the 1-minute close where the rule held,
 * not before. The expectation is the custom bot's own feed, warmed up from the same history and told
 * the same prices.
 */
describe('a DCA bot with an indicator start on Paper', () => {
  const SYMBOL = 'BTC/USDT';
  const MIN = 60_000;
  let from = Date.UTC(2026, 2, 5, 9);
  let clock = from;
  const market = new ScriptedMarket();
  let t: TestApp;
  let trading: Trading;
  let auth: Record<string, string>;
  const call = (method: 'GET' | 'POST', url: string, payload?: object, lang = 'en') => t.app.inject({ method, url, ...(payload ? { payload } : {}), headers: { ...auth, lang } }).then((r) => r.json());
  const rule = { join: 'and', conditions: [{ left: { kind: 'rsi', period: 3, timeframe: '1m' }, op: '<', right: { kind: 'value', value: '30' } }] } as const;

  beforeAll(async () => {
    t = await openTestApp('pglite', { trading: (db) => (trading = createTrading({ db, feed: market, now: () => clock, tickMs: 3_600_000 })) });
    const r = await t.app.inject({ method: 'POST', url: '/api/login/register', payload: await registerPayload(t.app) });
    auth = { authorization: `Bearer ${r.json().data.token}` };
    await call('POST', '/api/exchanges/bind', { exchangeId: 1, apiKey: 'paperkey01', secretKey: 'papersecret01' });
  });
  afterAll(async () => {
    await trading.engine.stop();
    await t.close();
  });

  it('refuses a broken rule with the custom bot’s codes, the field in words', async () => {
    market.set(SYMBOL, '60000');
    const bad = { join: 'and', conditions: [{ left: { kind: 'rsi', period: 0, timeframe: '1m' }, op: '<', right: { kind: 'value', value: '30' } }] };
    const created = await call('POST', '/api/user/botCreate', { type: 'dca', exchangeId: 1, symbol: SYMBOL, params: { ...params, start: { kind: 'indicator', rule: bad } } });
    expect(created).toMatchObject({ code: Code.StrategyInvalidParams, msg: 'Invalid strategy parameters: buy rule, condition 1, left side, period' });
    const zh = await call('POST', '/api/user/botCreate', { type: 'dca', exchangeId: 1, symbol: SYMBOL, params: { ...params, start: { kind: 'indicator', rule: bad } } }, 'zh');
    expect(zh.msg).toContain('买入规则 第 1 个条件 左侧 周期数');
    const noStop = await call('POST', '/api/user/botCreate', { type: 'dca', exchangeId: 1, symbol: SYMBOL, params: { ...params, stopLoss: '', trailingStop: true } });
    expect(noStop).toMatchObject({ code: Code.RequiredFieldMissing, msg: 'A required field is missing: stop loss' });
  });

  it('opens its deal at the first price after the close where RSI(3, 1m) < 30, warmed up from history', { timeout: 60_000 }, async () => {
    const warmed = async (at: number) => {
      const feed = new CustomFeed({ entry: rule as unknown as Rule });
      await warmUpCustom(feed, { entry: rule as unknown as Rule }, paperHistory(market, SYMBOL), at);
      return feed;
    };
    // A start whose first check (the market's last minute before it, from history) does not hold.
    for (; ; from += 3_600_000) {
      const probe = await warmed(from);
      if (probe.tick(from, probe.price) && !probe.entryHolds) break;
    }
    // From the market's own price at the start, falling 0.4 % a minute.
    const p0 = (await paperHistory(market, SYMBOL)('1m', from, 1))[0]!.close;
    const minutes = [0.996, 0.992, 0.988, 0.984, 0.98].map((k) => (p0 * k).toFixed(2));
    clock = from;
    market.set(SYMBOL, minutes[0]!);
    const created = await call('POST', '/api/user/botCreate', { type: 'dca', exchangeId: 1, symbol: SYMBOL, params: { ...params, investment: '1000', start: { kind: 'indicator', rule } } });
    expect(created, JSON.stringify(created)).toMatchObject({ code: 1 });
    const id = created.data.id as string;
    expect(created.data.params.start).toEqual({ kind: 'indicator', rule });
    // The expectation: the custom bot's feed, warmed up as the engine does at the start, told the same prices.
    const feed = await warmed(from);
    // A feed without the warm-up: RSI(3) needs 4 closes of its own.
    const cold = new CustomFeed({ entry: rule as unknown as Rule });
    let coldHolds = false;
    let expected: string | null = null;
    const seen: string[] = [];
    expect((await call('GET', `/api/user/botOperation?id=${id}&action=start`)).code).toBe(1);
    await trading.engine.idle();
    for (const [m, price] of minutes.entries()) {
      for (const second of [0, 20, 40]) {
        clock = from + m * MIN + second * 1000;
        market.set(SYMBOL, price);
        // The start's own evaluation asked at `from` already.
        if (!(m === 0 && second === 0)) {
          await trading.engine.tick();
          await trading.engine.idle();
        }
        if (feed.tick(clock, Number(price)) && feed.entryHolds && expected === null) {
          expected = `${m}:${second} ${price}`;
          coldHolds = cold.tick(clock, Number(price)) && cold.entryHolds;
        } else if (expected === null) cold.tick(clock, Number(price));
        const opened = await t.db.selectFrom('bot_orders').select(['price', 'reason']).where('bot_id', '=', id).where('reason', '=', 'open').executeTakeFirst();
        if (opened && seen.length === 0) seen.push(`${m}:${second} ${money(opened.price!).toFixed()}`);
      }
    }
    // The rule held at a minute's first price (not at the start: the market's last minute before it did
    // not hold) within the first minutes, when a feed without the warm-up could not read RSI yet.
    expect(expected).toMatch(/^[1-3]:0 /);
    expect(coldHolds).toBe(false);
    expect(seen).toEqual([expected!.replace(/ (.*)$/, (_, p: string) => ` ${money(p).toFixed()}`)]);
    const detail = (await call('GET', `/api/user/botDetail?id=${id}`)).data;
    expect(detail).toMatchObject({ type: 'dca', positions: 1 });
  });
});

/**
 * The simulated market's minutes as four prices each (open at second 0, low at 15, high at 30, close from
 * 45): a bot asked every 15 s builds exactly the market's 1-minute candles, so a feed warmed up from
 * the market's history holds what a feed that saw every price holds (as server/engine/custom-warmup.test.ts).
 */
class FourPriceMarket extends SimulatedMarket {
  override priceAt(symbol: string, ms: number): string {
    const minute = ms - (ms % 60_000);
    const c = this.minuteColumns(symbol, minute, minute + 60_000);
    const second = (ms - minute) / 1000;
    return (second < 15 ? c.open[0]! : second < 30 ? c.low[0]! : second < 45 ? c.high[0]! : c.close[0]!).toFixed(2);
  }
}

/**
 * An indicator DCA bot restarted mid-run (its server's engine stopped, a new one started on its database:
 * start-up recovery, as a takeover) is warmed up from the market's history and decides exactly as the
 * same bot on a server that ran through.
 */
describe('a DCA bot with an indicator start restarted mid-run', () => {
  const feed = new FourPriceMarket();
  const from = Date.UTC(2026, 2, 5, 9);
  let clock = from;
  const now = () => clock;
  const apps: TestApp[] = [];
  const engines: Trading[] = [];
  const rsi = { kind: 'rsi', period: 5, timeframe: '5m' };
  const indicatorParams = {
    ...params,
    investment: '1000',
    baseOrder: '100',
    safetyOrder: '100',
    maxSafetyOrders: 2,
    deviation: '0.3',
    stepScale: '1',
    volumeScale: '1',
    takeProfit: '0.2',
    stopLoss: '2',
    trailingStop: true,
    start: { kind: 'indicator', rule: { join: 'and', conditions: [{ left: rsi, op: '<', right: { kind: 'value', value: '50' } }] } },
  };
  const server = async () => {
    let trading: Trading | undefined;
    const t = await openTestApp('pglite', { trading: (db) => (trading = createTrading({ db, feed, now, tickMs: 3_600_000 })) });
    apps.push(t);
    engines.push(trading!);
    const r = await t.app.inject({ method: 'POST', url: '/api/login/register', payload: await registerPayload(t.app) });
    const headers = { authorization: `Bearer ${r.json().data.token}` };
    const call = (method: 'GET' | 'POST', url: string, payload?: object) => t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) }).then((x) => x.json());
    await call('POST', '/api/exchanges/bind', { exchangeId: 1, apiKey: 'paperkey01', secretKey: 'papersecret01' });
    const created = await call('POST', '/api/user/botCreate', { type: 'dca', exchangeId: 1, symbol: 'BTC/USDT', params: indicatorParams });
    expect(created.code, JSON.stringify(created)).toBe(1);
    expect((await call('GET', `/api/user/botOperation?id=${created.data.id}&action=start`)).code).toBe(1);
    // A bot with indicators is answered once started; its warm-up goes on behind the answer.
    await trading!.engine.idle();
    return { t, trading: trading!, id: String(created.data.id) };
  };
  const fills = async (t: TestApp, id: string) =>
    (await t.db.selectFrom('bot_orders').select(['reason', 'side', 'price', 'filled', 'status']).where('bot_id', '=', id).orderBy('id').execute())
      .filter((o) => o.status === 'filled')
      .map((o) => `${o.reason} ${o.side} ${money(o.price!).toFixed()} ${money(o.filled ?? '0').toFixed()}`);
  afterAll(async () => {
    for (const e of engines) await e.engine.stop();
    for (const t of apps) await t.close();
  });

  it('decides the same as a bot that ran through', { timeout: 180_000 }, async () => {
    const through = await server();
    const restarted = await server();
    let live = restarted.trading;
    const RESTART = 50;
    const MINUTES = 160;
    const openedAt: number[] = [];
    for (let k = 1; k < MINUTES * 4; k++) {
      clock = from + k * 15_000;
      if (k === RESTART * 4) {
        await live.engine.stop();
        live = createTrading({ db: restarted.t.db, feed, now, tickMs: 3_600_000 });
        engines.push(live);
        await live.engine.start();
      }
      for (const e of [through.trading, live]) {
        await e.engine.tick();
        await e.engine.idle();
      }
      const opens = (await fills(restarted.t, restarted.id)).filter((f) => f.startsWith('open')).length;
      while (openedAt.length < opens) openedAt.push(Math.floor(k / 4));
    }
    const a = await fills(through.t, through.id);
    const b = await fills(restarted.t, restarted.id);
    expect(b).toEqual(a);
    // Deals opened by the rule before the restart, and after it within the 30 minutes a cold RSI(5, 5m) would have waited.
    expect(openedAt.filter((m) => m < RESTART).length).toBeGreaterThan(0);
    expect(openedAt.filter((m) => m >= RESTART && m < RESTART + 30).length).toBeGreaterThan(0);
    expect(a.length).toBeGreaterThan(8);
    const realized = async (t: TestApp, id: string) => (await t.db.selectFrom('bots').select('realized').where('id', '=', id).executeTakeFirstOrThrow()).realized;
    expect(money(await realized(restarted.t, restarted.id)).toFixed()).toBe(money(await realized(through.t, through.id)).toFixed());
  });
});
