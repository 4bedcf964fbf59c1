import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScriptedMarket } from '../market/scripted.ts';
import { openTestApp, type TestApp, registerPayload } from '../test-support.ts';
import { createTrading, type Trading } from '../trading.ts';
import { backtestMartin } from '../../strategy/backtest.ts';
import type { MartinParams } from '../../strategy/martin/rules.ts';
import type { MartinState } from '../../strategy/martin/strategy.ts';
import type { StoredMartinState } from '../../strategy/martin/state-codec.ts';
import { money } from '../../strategy/money.ts';

/**
 * Trailing exits on the live engine (issue 16 §1): the engine's book asks a bot at every new high while
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
});
