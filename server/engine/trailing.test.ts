import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScriptedMarket } from '../testing/scripted.ts';
import { secondsParity, type ParityBot } from '../testing/parity-support.ts';
import { SimulatedMarket } from '../market/simulated.ts';
import { paperMarket } from '../exchanges/paper-fill.ts';
import { engineRound } from '../../strategy/engine-round.test-support.ts';
import { martinKit } from '../../strategy/kit.ts';
import type { MarketRules } from '../../strategy/core/market.ts';
import { initialMartinState } from '../../strategy/martin/strategy.ts';
import { botId } from '../../strategy/types.ts';
import { openTestApp, type TestApp, registerPayload } from '../testing/test-support.ts';
import { createTrading, type Trading } from '../trading.ts';
import { backtestMartin } from '../../strategy/backtest.ts';
import type { MartinParams } from '../../strategy/martin/rules.ts';
import type { MartinState } from '../../strategy/martin/strategy.ts';
import type { StoredMartinState } from '../../strategy/martin/state-codec.ts';
import { money } from '../../strategy/money.ts';
import { Code } from '../../contract/codes.ts';

/**
 * Trailing exits on the live engine: the engine's book asks a bot at every new high while
 * a trailing exit follows it (the runner only asks a strategy when a trigger is crossed), so a Paper bot
 * follows the high, sells on the fall, stores the high at each move (a reload from the database goes on
 * with it) and logs arming and firing; played tick by tick it keeps exactly the books its backtest computes.
 */
const path: string[] = [];
for (let i = 0; i < 240; i++) path.push((2000 + 120 * Math.sin(i / 9) + 40 * Math.sin(i / 2.3) - i * 0.8).toFixed(2));

describe('trailing exits on the live engine (Paper)', () => {
  let t: TestApp;
  let trading: Trading;
  const market = new ScriptedMarket();
  let auth: Record<string, string>;
  const call = (method: 'GET' | 'POST', url: string, payload?: object) => t.app.inject({ method, url, ...(payload ? { payload } : {}), headers: auth }).then((r) => r.json());
  const candles = () => {
    const col = Float64Array.from(path, Number);
    return { open: col, high: col, low: col, close: col };
  };

  beforeAll(async () => {
    t = await openTestApp('pglite', { trading: (db) => (trading = createTrading({ db, feed: market })) });
    const r = await t.app.inject({ method: 'POST', url: '/api/login/register', payload: await registerPayload(t.app) });
    auth = { authorization: `Bearer ${r.json().data.token}` };
    await call('POST', '/api/exchanges/bind', { exchangeId: 1, apiKey: 'paperkey01', secretKey: 'papersecret01' });
  });
  afterAll(async () => {
    await trading.engine.stop();
    await t.close();
  });

  /**
   * Plays the path, several rounds per price; after each price the stored high must be the engine's
   * (every move is written with the state), and every 40 prices the bot is reloaded from the database.
   */
  const playLive = async (params: object) => {
    market.set('ETH/USDT', path[0]!);
    const bot = await call('POST', '/api/user/botCreate', { type: 'martin', exchangeId: 1, symbol: 'ETH/USDT', params });
    expect(bot.code).toBe(1);
    const id = bot.data.id as string;
    await call('GET', `/api/user/botOperation?id=${id}&action=start`);
    await trading.engine.idle();
    let armedSeen = 0;
    let detailLine = false;
    for (const [n, price] of path.entries()) {
      market.set('ETH/USDT', price);
      for (let round = 0; round < 4; round++) {
        await trading.engine.tick();
        await trading.engine.idle();
      }
      const live = trading.engine.stateOf<MartinState>(id)!;
      const row = await t.db.selectFrom('bots').select('state').where('id', '=', id).executeTakeFirstOrThrow();
      const stored = row.state as StoredMartinState;
      expect(stored.trail ?? null).toBe(live.trail?.toFixed() ?? null);
      expect(stored.stopHigh ?? null).toBe(live.stopHigh?.toFixed() ?? null);
      if (live.trail) {
        armedSeen++;
        if (!detailLine) {
          const detail = await call('GET', `/api/user/botDetail?id=${id}`);
          expect(detail.data.trailing.high).toBe(live.trail.toFixed());
          expect(Number(detail.data.trailing.price)).toBeLessThan(Number(detail.data.trailing.high));
          detailLine = true;
        }
      }
      if (n % 40 === 39) await trading.engine.serial(id, () => trading.engine.refresh(id));
    }
    await call('GET', `/api/user/botOperation?id=${id}&action=pause`);
    const orders = await t.db.selectFrom('bot_orders').select(['side', 'price', 'filled', 'status']).where('bot_id', '=', id).orderBy('id').execute();
    const cycles = await t.db.selectFrom('bot_cycles').select('profit').where('bot_id', '=', id).execute();
    const row = await t.db.selectFrom('bots').select('realized').where('id', '=', id).executeTakeFirstOrThrow();
    const actions = await t.db.selectFrom('bot_actions').select(['kind', 'detail']).where('bot_id', '=', id).orderBy('id').execute();
    return {
      fills: orders.filter((o) => o.status === 'filled').map((o) => `${o.side} ${money(o.price!).toFixed()} ${money(o.filled ?? '0').toFixed()}`),
      cycles: cycles.length,
      realized: money(row.realized).toFixed(),
      actions: actions.map((a) => ({ kind: a.kind, detail: (typeof a.detail === 'string' ? JSON.parse(a.detail) : a.detail) as Record<string, string> })),
      armedSeen,
    };
  };

  const base = { investment: '1000', firstOrder: '50', multiplier: '2', maxPositions: 4, addTrigger: '2', takeProfit: '1.5', stopLoss: '', repeat: true };

  it('refuses bad trailing fields with the field named, and stores a bot without them as before', async () => {
    market.set('ETH/USDT', path[0]!);
    const create = (params: object) => call('POST', '/api/user/botCreate', { type: 'martin', exchangeId: 1, symbol: 'ETH/USDT', params: { ...base, ...params } });
    const cases: [object, number, RegExp][] = [
      [{ trailingStop: true }, Code.RequiredFieldMissing, /: 止损$/],
      [{ trailingDeviation: '25' }, Code.StrategyInvalidParams, /: 追踪止盈回调$/],
      [{ trailingDeviation: '0' }, Code.StrategyInvalidParams, /: 追踪止盈回调$/],
      [{ trailingDeviation: 'x' }, Code.ValidationError, /: 追踪止盈回调$/],
    ];
    for (const [params, code, msg] of cases) {
      const r = await create(params);
      expect([r.code, r.msg]).toEqual([code, expect.stringMatching(msg)]);
    }
    // Off ('' and false) is stored as nothing: the bot is exactly one made before trailing existed.
    const off = await create({ trailingDeviation: '', trailingStop: false });
    const on = await create({ trailingDeviation: '0.5', stopLoss: '3', trailingStop: true });
    const stored = async (id: string) => (await t.db.selectFrom('bots').select('params').where('id', '=', id).executeTakeFirstOrThrow()).params as object;
    expect(Object.keys(await stored(off.data.id))).not.toContain('trailingDeviation');
    expect(Object.keys(await stored(off.data.id))).not.toContain('trailingStop');
    expect(await stored(on.data.id)).toMatchObject({ trailingDeviation: '0.5', stopLoss: '3', trailingStop: true });
    for (const r of [off, on]) await call('GET', `/api/user/botOperation?id=${r.data.id}&action=delete`);
  });

  it('a trailing take profit follows the high, sells on the fall, and keeps the backtest’s books', async () => {
    const params = { ...base, trailingDeviation: '0.8' };
    const live = await playLive(params);
    const m = await trading.market('paper', 'ETH/USDT');
    const stored: MartinParams = { ...base, stopLoss: undefined, trailingDeviation: '0.8' };
    const bt = backtestMartin({ params: stored, market: m }, candles(), { slippage: '0' });
    expect(live.cycles).toBeGreaterThan(2);
    expect(live.armedSeen).toBeGreaterThan(5);
    expect(live.fills).toEqual(bt.fills.map((f) => `${f.side} ${f.price} ${f.amount}`));
    expect(live.cycles).toBe(bt.cycles);
    expect(live.realized).toBe(money(bt.realized).toFixed());
    // Each close was a trailing sale: armed, then fired at its line after the high rose above the arming price.
    const armed = live.actions.filter((a) => a.kind === 'trailing_armed');
    const fired = live.actions.filter((a) => a.kind === 'trailing_fired');
    expect(fired.length).toBe(live.cycles);
    expect(armed.length).toBeGreaterThanOrEqual(fired.length);
    expect(fired.some((f, i) => money(f.detail.high!).gt(money(armed[i]!.detail.high!)))).toBe(true);
    for (const f of fired) expect(money(f.detail.price!).lt(money(f.detail.high!))).toBe(true);
    // Without trailing the same path closes at the take-profit prices: other (fewer-profit) books.
    const plain = backtestMartin({ params: { ...stored, trailingDeviation: undefined }, market: m }, candles(), { slippage: '0' });
    expect(plain.fills.map((f) => f.price)).not.toEqual(bt.fills.map((f) => f.price));
  });

  it('a trailing stop loss with a trailing take profit: the same books as the backtest', async () => {
    const params = { ...base, addTrigger: '3', takeProfit: '2', stopLoss: '4', trailingStop: true, trailingDeviation: '1' };
    const live = await playLive(params);
    const m = await trading.market('paper', 'ETH/USDT');
    const bt = backtestMartin({ params: params as MartinParams, market: m }, candles(), { slippage: '0' });
    expect(live.cycles).toBeGreaterThan(2);
    expect(live.fills).toEqual(bt.fills.map((f) => `${f.side} ${f.price} ${f.amount}`));
    expect(live.realized).toBe(money(bt.realized).toFixed());
    expect(live.actions.some((a) => a.kind === 'trailing_fired' && a.detail.exit === 'stop_loss')).toBe(true);
  });

  it('goes on from the stored high after a restart: a new engine sells at the line of the high the old one followed', async () => {
    const step = async (price: string, engine = trading.engine) => {
      market.set('ETH/USDT', price);
      for (let round = 0; round < 3; round++) {
        await engine.tick();
        await engine.idle();
      }
    };
    market.set('ETH/USDT', '2000');
    const id = (await call('POST', '/api/user/botCreate', { type: 'martin', exchangeId: 1, symbol: 'ETH/USDT', params: { ...base, trailingDeviation: '0.5' } })).data.id as string;
    await call('GET', `/api/user/botOperation?id=${id}&action=start`);
    await trading.engine.idle();
    await step('2000'); // open at 2000: take profit 2030
    await step('2030'); // armed: line 2019.85
    await step('2100'); // new high: line floor(2100 x 0.995) = 2089.5
    // The server stops; a new one starts on the same database and carries on.
    await trading.engine.stop();
    const restarted = createTrading({ db: t.db, feed: market });
    await restarted.engine.start();
    expect(restarted.engine.stateOf<MartinState>(id)?.trail?.toFixed()).toBe('2100');
    await step('2095', restarted.engine); // above the line: nothing (a bot that forgot its high would arm again here)
    await step('2089.5', restarted.engine);
    const orders = await t.db.selectFrom('bot_orders').select(['side', 'price', 'status']).where('bot_id', '=', id).orderBy('id').execute();
    expect(
      orders
        .filter((o) => o.status === 'filled')
        .map((o) => `${o.side} ${money(o.price!).toFixed()}`)
        .slice(0, 2),
    ).toEqual(['buy 2000', 'sell 2089.5']);
    const fired = await t.db.selectFrom('bot_actions').select('detail').where('bot_id', '=', id).where('kind', '=', 'trailing_fired').execute();
    expect(fired.map((f) => f.detail)).toEqual([{ exit: 'take_profit', high: '2100', price: '2089.5' }]);
    await restarted.engine.stop();
    // The app's own engine reloads the bot from its row when the bot is paused through the app.
    expect((await call('GET', `/api/user/botOperation?id=${id}&action=pause`)).code).toBe(1);
  });
});

/**
 * The same check as parity.test.ts "on the simulated market's seconds", with trailing exits. The engine,
 * one price round a second, keeps to the last decimal the books of the strategy asked once at each
 * second as its book asks (engineRound: at a crossed trigger's price, filled as Paper fills it): it
 * follows every second's high. The backtest reads the minute candles with their path (the second a
 * trailing line was crossed, where the sale fills, and the next, where the cycle re-opens) and keeps
 * the same books.
 */
describe('trailing exits: backtest and the live engine on the simulated market’s seconds', () => {
  const symbol = 'BTC/USDT';
  const from = Date.UTC(2026, 2, 5);
  const seconds = 86_400;
  const martin = (extra: object): ParityBot => ({
    type: 'martin',
    params: { investment: '2000', firstOrder: '40', multiplier: '1.5', maxPositions: 6, addTrigger: '1', takeProfit: '1', stopLoss: '', repeat: true, ...extra },
  });
  /** The strategy asked once a second as the engine's book asks it (at a crossed trigger's price), its order filled as Paper fills it (engineRound). */
  const onceASecond = (bot: ParityBot, market: MarketRules) => {
    // As the service stores them: an empty stop loss left out.
    const { stopLoss, ...rest } = bot.params as MartinParams;
    const view = { params: { ...rest, ...(stopLoss ? { stopLoss } : {}) }, market };
    const feed = new SimulatedMarket();
    let state = initialMartinState(botId('s'));
    for (let s = 0; s < seconds; s++) {
      state = engineRound(martinKit, state, view, money(feed.priceAt(symbol, from + s * 1000)), market.stepSize, { once: true }).state;
    }
    return { realized: state.realized.toFixed(), cycles: state.cycle - 1 };
  };

  it('follows every second’s high exactly, and realises what the minute backtest does over a day, fill for fill', { timeout: 150_000 }, async () => {
    const bots = [martin({ trailingDeviation: '0.3' }), martin({ trailingDeviation: '0.5', stopLoss: '6', trailingStop: true })];
    const { rows, candles, ms } = await secondsParity({ symbol, from, seconds, bots });
    console.log(
      `trailing seconds parity, 1 day: ${Math.round(ms)} ms`,
      rows.map((r) => `live ${r.live.realized} (${r.live.cycles}) backtest ${r.backtest.realized} (${r.backtest.cycles}) ${r.gapPct.toFixed(2)} %`),
    );
    expect(candles).toBe(1440);
    const info = new SimulatedMarket().info(symbol);
    const rules = paperMarket(symbol, info.tick, info.step);
    for (const r of rows) {
      expect(r.live.cycles).toBeGreaterThan(1);
      expect(r.live).toMatchObject(onceASecond(r.bot, rules));
      expect(r.backtest).toEqual(r.live);
    }
  });
});
