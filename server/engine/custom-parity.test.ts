import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backtestCustom } from '../../strategy/custom/backtest.ts';
import type { CustomParams } from '../../strategy/custom/rules.ts';
import type { CustomState } from '../../strategy/custom/strategy.ts';
import { warmUpCandles } from '../../strategy/custom/feed.ts';
import { money } from '../../strategy/money.ts';
import { paperHistory } from '../market/custom-history.ts';
import { ScriptedMarket } from '../testing/scripted.ts';
import { customParityBot } from '../testing/parity-support.ts';
import { openTestApp, registerPayload, type TestApp } from '../testing/test-support.ts';
import { createTrading, type Trading } from '../trading.ts';

const SYMBOL = 'DOT/USDT';
const TICK = 1000; // DOT's tick 0.001, in ticks per unit
const MINUTES = 240;

/**
 * Backtest and live parity of the custom bot (as parity.test.ts for the others): the
 * simulated market's own 1-minute DOT candles, played on the live engine tick by tick, a price one tick
 * (0.001) apart along each candle's path (open -> low -> high -> close or open -> high -> low -> close,
 * in the order of the market's own seconds (the candles' path): the backtest's fill model), each at its time in its minute, orders through the
 * Paper venue, state in the database; the backtest replays the same candles with the warm-up the engine
 * read at the start. Same fills (entries at the close, take profit and stop loss at their price, the exit
 * rule at the close), same cycles, same realised profit to the last decimal; with trailing exits too
 * (README.md "Trailing exits": the high followed at every price, the sale at the line).
 */
describe('custom bot: backtest and live parity on Paper', () => {
  let t: TestApp;
  let trading: Trading;
  const market = new ScriptedMarket();
  const from = Date.UTC(2026, 2, 5, 9);
  let clock = from;
  let auth: Record<string, string>;
  const call = (method: 'GET' | 'POST', url: string, payload?: object) => t.app.inject({ method, url, ...(payload ? { payload } : {}), headers: auth }).then((r) => r.json());

  beforeAll(async () => {
    t = await openTestApp('pglite', { trading: (db) => (trading = createTrading({ db, feed: market, now: () => clock })) });
    const r = await t.app.inject({ method: 'POST', url: '/api/login/register', payload: await registerPayload(t.app) });
    auth = { authorization: `Bearer ${r.json().data.token}` };
    await call('POST', '/api/exchanges/bind', { exchangeId: 1, apiKey: 'paperkey01', secretKey: 'papersecret01' });
  });
  afterAll(async () => {
    await trading.engine.stop();
    await t.close();
  });

  /**
   * Plays the market's minutes from `start` on the live engine and backtests the same candles: the live
   * books, the backtest's, the bot's log, and (`armed`) the detail answered the first time the bot was
   * armed, beside the engine's state then.
   */
  const play = async (params: object, start: number) => {
    // The market's minutes from the one before the start (whose check the bot runs at its first price).
    const candles = market.minuteColumns(SYMBOL, start - 60_000, start + MINUTES * 60_000);
    const ticks = (x: number) => Math.round(x * TICK);
    const text = (n: number) => (n / TICK).toFixed(3);

    clock = start;
    market.set(SYMBOL, text(ticks(candles.open[1]!)));
    const bot = await call('POST', '/api/user/botCreate', { type: 'custom', exchangeId: 1, symbol: SYMBOL, params });
    expect(bot.code, JSON.stringify(bot)).toBe(1);
    const id = bot.data.id as string;
    expect((await call('GET', `/api/user/botOperation?id=${id}&action=start`)).code).toBe(1);
    await trading.engine.idle();
    let armed: { detail: { trailing?: { high: string; price: string }; stopLossPrice: string | null }; trail: string; stopHigh: string | null } | null = null;
    for (let i = 1; i < candles.open.length; i++) {
      const [o, h, l, c] = [candles.open[i]!, candles.high[i]!, candles.low[i]!, candles.close[i]!].map(ticks) as [number, number, number, number];
      const corners = candles.path.lowFirst[i] === 1 ? [o, l, h, c] : [o, h, l, c];
      const path: number[] = [o];
      for (let k = 1; k < corners.length; k++) {
        const to = corners[k]!;
        for (let p = path.at(-1)!; p !== to; ) {
          p += p < to ? 1 : -1;
          path.push(p);
        }
      }
      const minute = candles.time[i]!;
      for (const [j, p] of path.entries()) {
        clock = minute + Math.floor((j * 60_000) / path.length);
        market.set(SYMBOL, text(p));
        await trading.engine.tick();
        await trading.engine.idle();
        const state = trading.engine.stateOf<CustomState>(id);
        if (state?.trail && !armed) armed = { detail: (await call('GET', `/api/user/botDetail?id=${id}`)).data, trail: state.trail.toFixed(), stopHigh: state.stopHigh?.toFixed() ?? null };
      }
    }
    // The last minute closes with the next one's first price.
    clock = start + MINUTES * 60_000;
    await trading.engine.tick();
    await trading.engine.idle();
    await call('GET', `/api/user/botOperation?id=${id}&action=pause`);

    const orders = await t.db.selectFrom('bot_orders').select(['side', 'price', 'filled', 'status', 'reason']).where('bot_id', '=', id).orderBy('id').execute();
    const cycles = await t.db.selectFrom('bot_cycles').select('profit').where('bot_id', '=', id).execute();
    const row = await t.db.selectFrom('bots').select('realized').where('id', '=', id).executeTakeFirstOrThrow();
    const actions = await t.db.selectFrom('bot_actions').select(['kind', 'detail']).where('bot_id', '=', id).orderBy('id').execute();
    const live = orders.filter((o) => o.status === 'filled').map((o) => `${o.reason} ${o.side} ${money(o.price!).toFixed()} ${money(o.filled ?? '0').toFixed()}`);

    const bt = await backtest(params, start);
    return {
      live,
      cycles: cycles.length,
      realized: money(row.realized).toFixed(),
      bt,
      actions: actions.map((a) => ({ kind: a.kind, detail: (typeof a.detail === 'string' ? JSON.parse(a.detail) : a.detail) as Record<string, string> })),
      armed,
    };
  };
  /** The backtest of the same minutes, warmed up with what the engine read at the start. */
  const backtest = async (params: object, start: number) => {
    const candles = market.minuteColumns(SYMBOL, start - 60_000, start + MINUTES * 60_000);
    const m = await trading.market('paper', SYMBOL);
    const stored = params as unknown as CustomParams;
    const history = paperHistory(market, SYMBOL);
    const warmUp: Record<string, Awaited<ReturnType<typeof history>>> = {};
    for (const [tf, n] of Object.entries(warmUpCandles(stored))) warmUp[tf] = await history(tf as '1m', start - 60_000, n);
    return backtestCustom({ params: stored, market: m }, candles, { slippage: '0' }, warmUp);
  };
  // RSI(6) on 1-minute candles under 30 buys, crossing above 70 sells; take profit 0.4 %, stop 0.6 % (the parity checks' custom bot).
  const base = customParityBot({}).params;

  it('keeps exactly the books its backtest computes: rule entries and exits, take profit and stop loss', { timeout: 120_000 }, async () => {
    const { live, cycles, realized, bt } = await play(base, from);
    const reasons = new Set(bt.fills.map((f) => f.reason));
    // Every way in and out happened: the entry rule (open), take profit (close), the exit rule (exit_rule), the stop loss (stop).
    expect([...reasons].sort()).toEqual(['close', 'exit_rule', 'open', 'stop']);
    expect(bt.cycles).toBeGreaterThan(4);
    expect(live).toEqual(bt.fills.map((f) => `${f.reason} ${f.side} ${f.price} ${f.amount}`));
    expect(cycles).toBe(bt.cycles);
    expect(realized).toBe(money(bt.realized).toFixed());
  });

  it('with a trailing take profit and a trailing stop: the same books, each trailing sale logged, the armed line answered', { timeout: 120_000 }, async () => {
    // Armed at +0.4 %, sold 0.15 % under the high since; the stop 0.6 % under the high since the entry.
    const params = { ...base, trailingDeviation: '0.15', trailingStop: true };
    const { live, cycles, realized, bt, actions, armed } = await play(params, from);
    expect(bt.cycles).toBeGreaterThan(4);
    expect(live).toEqual(bt.fills.map((f) => `${f.reason} ${f.side} ${f.price} ${f.amount}`));
    expect(cycles).toBe(bt.cycles);
    expect(realized).toBe(money(bt.realized).toFixed());
    // Not the fixed exits' books: the trailing exits sold at their lines.
    const plain = await backtest(base, from);
    expect(bt.fills.map((f) => f.price)).not.toEqual(plain.fills.map((f) => f.price));
    const fired = actions.filter((a) => a.kind === 'trailing_fired');
    const closes = actions.filter((a) => a.kind === 'close' && ['close', 'stop'].includes(a.detail.reason!));
    // Every take profit or stop sale fired a trailing exit, logged with its high and line.
    expect(fired.length).toBe(closes.length);
    expect(new Set(fired.map((f) => f.detail.exit))).toEqual(new Set(['take_profit', 'stop_loss']));
    for (const f of fired) expect(money(f.detail.price!).lt(money(f.detail.high!))).toBe(true);
    expect(actions.filter((a) => a.kind === 'trailing_armed').length).toBeGreaterThanOrEqual(fired.filter((f) => f.detail.exit === 'take_profit').length);
    // The detail, once armed: the high the engine follows and the line under it, 0.15 % down to the tick.
    expect(armed?.detail.trailing?.high).toBe(armed?.trail);
    const line = money(armed!.trail).mul('0.9985').toNearest(money('0.001'), 1).toFixed();
    expect(armed?.detail.trailing?.price).toBe(line);
    // The stop follows the high since the entry: 0.6 % under it, down to the tick.
    expect(armed?.detail.stopLossPrice).toBe(money(armed!.stopHigh!).mul('0.994').toNearest(money('0.001'), 1).toFixed());
  });
});
