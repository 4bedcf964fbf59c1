import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calls } from '../../contract/calls.ts';
import { Code } from '../../contract/codes.ts';
import { backtestReport } from '../../strategy/backtest-report.ts';
import { customKit } from '../../strategy/kit.ts';
import { warmUpCandles } from '../../strategy/custom/feed.ts';
import type { Timeframe } from '../../strategy/custom/rules.ts';
import { paperHistory } from '../market/custom-history.ts';
import { ScriptedMarket } from '../testing/scripted.ts';
import { SimulatedMarket } from '../market/simulated.ts';
import { openTestApp, registerPayload, type TestApp } from '../testing/test-support.ts';
import { createTrading, type Trading } from '../trading.ts';
import type { CustomState } from '../../strategy/custom/strategy.ts';

/**
 * Buys 100 USDT when the price crosses below 59,000 (a cross: the market's history before the script,
 * which the bot's first check reads, is far below), sells over 61,000 or at a 5 % stop loss.
 */
const params = {
  investment: '1000',
  size: { kind: 'fixed', quote: '100' },
  entry: { join: 'and', conditions: [{ left: { kind: 'price' }, op: 'crossesBelow', right: { kind: 'value', value: '59000' } }] },
  exit: { join: 'or', conditions: [{ left: { kind: 'price' }, op: '>', right: { kind: 'value', value: '61000' } }] },
  takeProfit: '',
  stopLoss: '5',
  repeat: true,
};
const rsi = (period: number, timeframe = '1h') => ({ kind: 'rsi', period, timeframe });

/** The custom bot through the API: created, checked field by field in words, traded on Paper, listed, detailed, ranked, backtested. */
describe('custom bots on the API', () => {
  let t: TestApp;
  let trading: Trading;
  const market = new ScriptedMarket();
  let auth: Record<string, string>;
  // The market's clock: a minute per step (the rules are checked at each 1-minute close).
  const from = Date.UTC(2026, 5, 1, 8);
  let clock = from;
  const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object, lang = 'en') =>
    t.app.inject({ method, url, ...(payload ? { payload } : {}), headers: { ...auth, lang } }).then((r) => r.json());
  const create = (p: object, lang = 'en') => call('POST', '/api/user/botCreate', { type: 'custom', exchangeId: 1, symbol: 'BTC/USDT', params: { ...params, ...p } }, lang);
  /** The next minute at `price`: its first price closes the minute before (whose check comes first). */
  const minute = async (price: string) => {
    clock += 60_000;
    market.set('BTC/USDT', price);
    for (let i = 0; i < 3; i++) {
      await trading.engine.tick();
      await trading.engine.idle();
    }
  };

  beforeAll(async () => {
    t = await openTestApp('pglite', { trading: (db) => (trading = createTrading({ db, feed: market, now: () => clock })) });
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
    expect(types.find((x) => x.code === 'custom')).toMatchObject({ available: true, category: 'custom', name: 'Custom' });
    const zh = (await call('GET', '/api/market/botTypes', undefined, 'zh')).data as { code: string; name: string }[];
    expect(zh.find((x) => x.code === 'custom')?.name).toBe('自定义');
  });

  it('refuses bad rules with a clear code, the field said in words in zh and en, never a path, never a 500', async () => {
    const entry = (left: object, right: object = { kind: 'value', value: '30' }) => ({ entry: { join: 'and', conditions: [{ left, op: '<', right }] } });
    const cases: [object, number, string][] = [
      [entry(rsi(1)), Code.StrategyInvalidParams, 'Invalid strategy parameters: buy rule, condition 1, left side, period'],
      [entry(rsi(14), rsi(14)), Code.StrategyInvalidParams, 'Invalid strategy parameters: buy rule, condition 1, right side'],
      [entry({ kind: 'value', value: '1' }), Code.StrategyInvalidParams, 'Invalid strategy parameters: buy rule, condition 1'],
      [
        entry({ kind: 'macd', line: 'histogram', fast: 26, slow: 12, signal: 9, timeframe: '1h' }),
        Code.StrategyInvalidParams,
        'Invalid strategy parameters: buy rule, condition 1, left side, fast period',
      ],
      [{ exit: undefined, stopLoss: '' }, Code.RequiredFieldMissing, 'A required field is missing: take profit, stop loss or sell rule (at least one)'],
      [{ size: { kind: 'fixed', quote: '1000.01' } }, Code.StrategyInvalidInvestment, 'Invalid investment: it must cover the first order and every add'],
      [{ size: { kind: 'share', percent: '0.1' } }, Code.StrategyOrderBelowMinimum, 'Each order must be at least the market minimum size'],
      [{ stopLoss: '100' }, Code.StrategyInvalidParams, 'Invalid strategy parameters: stop loss'],
      // Trailing exits (martin's codes): each needs the percentage it trails, the deviation 0.1-20 %.
      [{ trailingDeviation: '0.5' }, Code.RequiredFieldMissing, 'A required field is missing: take profit'],
      [{ trailingStop: true, stopLoss: '' }, Code.RequiredFieldMissing, 'A required field is missing: stop loss'],
      [{ takeProfit: '2', trailingDeviation: '25' }, Code.StrategyInvalidParams, 'Invalid strategy parameters: trailing take profit deviation'],
      [{ takeProfit: '2', trailingDeviation: 'x' }, Code.ValidationError, 'Validation failed: trailing take profit deviation'],
      // The schema's own checks name the field in words too.
      [entry({ kind: 'rsi', period: 14, timeframe: '2m' }), Code.ValidationError, 'Validation failed: buy rule, condition 1, left side, timeframe'],
      [
        { exit: { join: 'or', conditions: Array.from({ length: 6 }, () => ({ left: { kind: 'price' }, op: '>', right: { kind: 'value', value: '1' } })) } },
        Code.ValidationError,
        'Validation failed: sell rule, conditions',
      ],
    ];
    for (const [p, code, msg] of cases) expect(await create(p), JSON.stringify(p)).toMatchObject({ code, msg });
    const zh = await create(entry(rsi(1)), 'zh');
    expect(zh.code).toBe(Code.StrategyInvalidParams);
    expect(zh.msg).toContain('买入规则 第 1 个条件 左侧 周期数');
    expect(zh.msg).not.toMatch(/[a-z]{3}|\./);
    const zhTrailing = await create({ takeProfit: '2', trailingDeviation: '0.05' }, 'zh');
    expect([zhTrailing.code, zhTrailing.msg]).toEqual([Code.StrategyInvalidParams, expect.stringContaining('追踪止盈回调')]);
    expect((await create({ trailingStop: true, stopLoss: '' }, 'zh')).msg).toMatch(/止损$/);
    // Another type's parameters under the custom type are refused.
    expect((await call('POST', '/api/user/botCreate', { type: 'custom', exchangeId: 1, symbol: 'BTC/USDT', params: { investment: '100' } })).code).toBe(Code.RequiredFieldMissing);
  });

  it('trades on Paper at its rules: bought on a fall below 59,000, sold over 61,000; listed, detailed and ranked as custom', async () => {
    const created = await create({});
    expect(created, JSON.stringify(created)).toMatchObject({ code: 1 });
    const id = created.data.id as string;
    // Read back as the form sends it: no take profit ''.
    expect(created.data).toMatchObject({ type: 'custom', maxPositions: 1, positions: 0, params });
    expect(created.data.name).toBe('BTC/USDT Custom');
    expect((await call('GET', `/api/user/botOperation?id=${id}&action=start`)).code).toBe(1);
    await trading.engine.idle();
    await minute('60000');
    await minute('58000');
    // Nothing yet: the minute at 58,000 has not closed.
    expect((await call('GET', `/api/user/botDetail?id=${id}`)).data).toMatchObject({ positions: 0 });
    await minute('58000');
    const detail = (await call('GET', `/api/user/botDetail?id=${id}`)).data;
    // Every answer about a custom bot matches its schema (contract/calls.ts).
    expect(calls.userBotDetail.answer.safeParse(detail).error?.issues ?? []).toEqual([]);
    // 100 / 58000 = 0.0017241.. floored to the step 0.00001; the stop loss floor(58000 x 0.95) to the tick.
    expect(detail).toMatchObject({ type: 'custom', positions: 1, fills: [{ price: '58000', amount: '0.00172' }], stopLossPrice: '55100', takeProfitPrice: null, nextAddPrice: null, levels: [] });
    await minute('61500');
    await minute('61500');
    const positions = (await call('GET', `/api/user/botPositions?id=${id}`)).data.list;
    expect(positions.find((p: { status: string }) => p.status === 'closed')).toMatchObject({ cycle: 1, entries: 1, closePrice: '61500' });
    // The sell rule's sale is logged as such (order reason exit_rule: 按规则卖出 / Sold by rule, not a take profit), and so is the cycle's end.
    const actions = (await call('GET', `/api/user/botActions?id=${id}&page_size=20`)).data;
    expect(calls.userBotActions.answer.safeParse(actions).error?.issues ?? []).toEqual([]);
    const lines = actions.list as { kind: string; detail: Record<string, string> }[];
    expect(lines.find((a) => a.kind === 'close')?.detail).toMatchObject({ reason: 'exit_rule', price: '61500' });
    expect(lines.find((a) => a.kind === 'success')?.detail).toMatchObject({ how: 'exit_rule' });
    const list = (await call('GET', '/api/user/botList?type=custom')).data.list;
    expect(list.map((b: { id: string }) => b.id)).toEqual([id]);
    expect(list[0]).toMatchObject({ type: 'custom', cycle: 2, positions: 0 });
    const bot = (await call('GET', `/api/user/botInfo?id=${id}`)).data;
    expect(calls.userBotInfo.answer.safeParse(bot).error?.issues ?? []).toEqual([]);
    expect(calls.userBotList.answer.safeParse((await call('GET', '/api/user/botList')).data).error?.issues ?? []).toEqual([]);
    expect(calls.userBotPositions.answer.safeParse((await call('GET', `/api/user/botPositions?id=${id}`)).data).error?.issues ?? []).toEqual([]);
    expect(Number(bot.profit)).toBeGreaterThan(0);
    // Its rules on the rank once its owner shares them.
    expect((await call('POST', '/api/user/botShare', { id, shareRules: true })).code).toBe(1);
    const rank = (await call('GET', '/api/market/botRank?mode=simulation')).data;
    expect(calls.marketBotRank.answer.safeParse(rank).error?.issues ?? []).toEqual([]);
    const mine = (rank.list as { type: string; mine: boolean; params: unknown }[]).find((r) => r.mine && r.type === 'custom');
    expect(mine?.params).toEqual(params);
    // A custom bot closes its one position whole: 100 % only.
    expect((await call('GET', `/api/user/botOperation?id=${id}&action=close&share=50`)).code).toBe(Code.StrategyInvalidParams);
    expect((await call('GET', `/api/user/botOperation?id=${id}&action=pause`)).code).toBe(1);
    // Edited while paused: new rules (an RSI on the hour) and a take profit.
    const edited = { ...params, entry: { join: 'and', conditions: [{ left: rsi(14), op: '<', right: { kind: 'value', value: '30' } }] }, takeProfit: '2' };
    expect((await call('PUT', `/api/user/botUpdate?id=${id}`, { params: edited })).code).toBe(1);
    expect((await call('GET', `/api/user/botInfo?id=${id}`)).data.params).toEqual(edited);
  });

  it('trails its take profit and stop on Paper: the armed line in the detail, kept over a restart, sold at the line and logged', async () => {
    // Off ('' and false) is stored as nothing: the bot is exactly one made before trailing existed.
    const off = await create({ trailingDeviation: '', trailingStop: false });
    const stored = async (id: string) => (await t.db.selectFrom('bots').select('params').where('id', '=', id).executeTakeFirstOrThrow()).params as object;
    expect(Object.keys(await stored(off.data.id))).not.toContain('trailingDeviation');
    expect(Object.keys(await stored(off.data.id))).not.toContain('trailingStop');
    await call('GET', `/api/user/botOperation?id=${off.data.id}&action=delete`);

    // Take profit 2 % trailing 0.5 %, stop loss 5 % trailing.
    const trailing = { ...params, takeProfit: '2', trailingDeviation: '0.5', trailingStop: true };
    const created = await create(trailing);
    expect(created, JSON.stringify(created)).toMatchObject({ code: 1, data: { params: trailing } });
    const id = created.data.id as string;
    expect((await call('GET', `/api/user/botOperation?id=${id}&action=start`)).code).toBe(1);
    await trading.engine.idle();
    await minute('60000');
    await minute('58000');
    await minute('58000'); // bought at 58,000: take profit ceil(58000 x 1.02) = 59160, stop 55100
    await minute('59160'); // armed: line floor(59160 x 0.995) = 58864.2
    await minute('60000'); // a new high: line floor(60000 x 0.995) = 59700, stop floor(60000 x 0.95) = 57000
    const detail = (await call('GET', `/api/user/botDetail?id=${id}`)).data;
    expect(calls.userBotDetail.answer.safeParse(detail).error?.issues ?? []).toEqual([]);
    expect(detail).toMatchObject({ positions: 1, takeProfitPrice: '59160', stopLossPrice: '57000', trailing: { high: '60000', price: '59700' } });

    // The server stops; a new one on the same database goes on from the stored highs. Its warm-up reads
    // the market's last minute, here the script's price (the simulation's own history is elsewhere).
    await trading.engine.stop();
    const simulated = market.candles.bind(market);
    market.candles = (symbol, timeframe, end, limit) => simulated(symbol, timeframe, end, limit).map((c) => ({ ...c, open: '60000', high: '60000', low: '60000', close: '60000' }));
    trading = createTrading({ db: t.db, feed: market, now: () => clock });
    await trading.engine.start();
    market.candles = simulated;
    expect(trading.engine.stateOf<CustomState>(id)?.trail?.toFixed()).toBe('60000');
    await minute('59800'); // above the line: nothing (a bot that forgot its high would arm again here)
    expect((await call('GET', `/api/user/botDetail?id=${id}`)).data).toMatchObject({ positions: 1, trailing: { high: '60000', price: '59700' } });
    await minute('59700');
    const actions = (await call('GET', `/api/user/botActions?id=${id}&page_size=20`)).data;
    expect(calls.userBotActions.answer.safeParse(actions).error?.issues ?? []).toEqual([]);
    const lines = actions.list as { kind: string; detail: Record<string, string> }[];
    expect(lines.filter((a) => a.kind.startsWith('trailing_')).reverse()).toEqual([
      expect.objectContaining({ kind: 'trailing_armed', detail: { exit: 'take_profit', high: '59160', price: '58864.2' } }),
      expect.objectContaining({ kind: 'trailing_fired', detail: { exit: 'take_profit', high: '60000', price: '59700' } }),
    ]);
    expect(lines.find((a) => a.kind === 'close')?.detail).toMatchObject({ reason: 'close', price: '59700' });
    const after = (await call('GET', `/api/user/botDetail?id=${id}`)).data;
    expect(after).toMatchObject({ positions: 0, stopLossPrice: null });
    expect(after.trailing).toBeUndefined();
    expect((await call('GET', `/api/user/botOperation?id=${id}&action=pause`)).code).toBe(1);
  });

  it('is refused at start when the account cannot fund its entry', async () => {
    const created = await create({ investment: '20000', size: { kind: 'fixed', quote: '20000' } });
    expect(created.code).toBe(1);
    const started = await call('GET', `/api/user/botOperation?id=${created.data.id}&action=start`);
    // The figures in words; with the other bots' reservations among them when they hold any back.
    const usdt = (await call('GET', '/api/user/asset?exchange=paper')).data.balances.find((b: { currency: string }) => b.currency === 'USDT');
    expect(started.code).toBe(usdt.reserved === '0' ? Code.StrategyInsufficientBalance : Code.StrategyCapitalReserved);
    expect(started.msg).toContain('20000');
  });
});

describe('the custom backtest before start', () => {
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

  it('replays 7 days of Paper minutes through the custom strategy, its indicators warmed up before the first', async () => {
    const body = {
      investment: '1000',
      size: { kind: 'share', percent: '50' },
      entry: { join: 'and', conditions: [{ left: rsi(14, '15m'), op: '<', right: { kind: 'value', value: '35' } }] },
      exit: { join: 'or', conditions: [{ left: rsi(14, '15m'), op: '>', right: { kind: 'value', value: '65' } }] },
      takeProfit: '',
      stopLoss: '3',
      repeat: true,
    };
    const r = await t.app
      .inject({ method: 'POST', url: '/api/strategy/backtest', payload: { type: 'custom', exchangeId: 1, symbol: 'BTC/USDT', params: body, days: 7 }, headers: { ...auth, lang: 'en' } })
      .then((x) => x.json());
    expect(r.code, JSON.stringify(r)).toBe(1);
    expect(r.data).toMatchObject({ exchange: 'paper', days: 7, timeframe: '1m', candles: 7 * 1440, investment: '1000' });
    expect(calls.strategyBacktest.answer.safeParse(r.data).error?.issues ?? []).toEqual([]);
    const m = await createTrading({ db: t.db, feed, now: () => NOW }).market('paper', 'BTC/USDT');
    const candles = feed.minuteColumns('BTC/USDT', NOW - 7 * 86_400_000, NOW);
    const history = paperHistory(feed, 'BTC/USDT');
    const warmUp: Partial<Record<Timeframe, { time: number }[]>> = {};
    for (const [tf, n] of Object.entries(warmUpCandles(body as never)) as [Timeframe, number][]) warmUp[tf] = await history(tf, candles.time[0]!, n);
    // RSI(14) on 15 minutes: 11 x 14 + 1 closed candles, the last one closed by the first minute.
    expect(warmUp['15m']!.length).toBe(155);
    expect(warmUp['15m']!.at(-1)!.time + 15 * 60_000).toBeLessThanOrEqual(candles.time[0]!);
    const again = backtestReport(customKit.backtest, { params: { ...body, takeProfit: undefined } as never, market: m }, candles, undefined, undefined, warmUp as never);
    expect(r.data.realized).toBe(again.realized);
    expect(r.data.cycles).toBe(again.cycles);
    expect(r.data.cycles).toBeGreaterThan(0);
  });
});
