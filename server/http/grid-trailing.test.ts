import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Code } from '../../contract/codes.ts';
import type { StoredGridState } from '../../strategy/grid/state-codec.ts';
import type { GridState } from '../../strategy/grid/strategy.ts';
import { money } from '../../strategy/money.ts';
import { ScriptedMarket } from '../testing/scripted.ts';
import { dbKinds, filledInOrder, openTestApp, type Answer, type DataAt, type TestApp, registerPayload } from '../testing/test-support.ts';
import { createTrading, type Trading } from '../trading.ts';

/** Levels 45000, 47500, 50000, 52500, 55000; started at 50000 it holds 2 x 0.00518 BTC for the sells at 52500 and 55000. */
const grid = { investment: '1000', lower: '45000', upper: '55000', grids: 4, spacing: 'arithmetic', stopLoss: '', takeProfit: '' };

/**
 * A grid bot's trailing exits on the engine with the Paper exchange (strategy/grid/README.md
 * "Trailing exits"): refused without the price they trail, stored only when on, armed and fired on the
 * engine with both logged, the armed line and the trailing stop on the detail answer, the high kept
 * across a restart. Each test has its own trader and bot.
 */
describe.each(dbKinds)('grid trailing exits on the engine (%s)', (kind) => {
  let t: TestApp;
  let trading: Trading;
  const market = new ScriptedMarket();
  let auth: Record<string, string>;
  const call = <M extends 'GET' | 'POST' | 'PUT', U extends string>(method: M, url: U, payload?: object, lang = 'en') =>
    t.app.inject({ method, url, ...(payload ? { payload } : {}), headers: { ...auth, lang } }).then((r) => r.json() as Answer<DataAt<M, U>>);
  const step = async (price: string, engine = trading.engine) => {
    market.set('BTC/USDT', price);
    for (let i = 0; i < 4; i++) {
      await engine.tick();
      await engine.idle();
    }
  };
  const newTrader = async () => {
    const r = await t.app.inject({ method: 'POST', url: '/api/login/register', payload: await registerPayload(t.app) });
    auth = { authorization: `Bearer ${r.json().data.token}` };
    expect((await call('POST', '/api/exchanges/bind', { exchangeId: 1, apiKey: 'paperkey01', secretKey: 'papersecret01' })).code).toBe(1);
    market.set('BTC/USDT', '50000');
  };
  /** A new trader's grid with these parameters, started at 50,000: its id. */
  const started = async (params: object) => {
    await newTrader();
    const created = await call('POST', '/api/user/botCreate', { type: 'grid', exchangeId: 1, symbol: 'BTC/USDT', params: { ...grid, ...params } });
    expect(created.code).toBe(1);
    const id = created.data.id;
    expect((await call('GET', `/api/user/botOperation?id=${id}&action=start`)).code).toBe(1);
    await trading.engine.idle();
    return id;
  };
  const filled = async (id: string) => (await filledInOrder(t.db, id)).map((o) => `${o.reason} ${o.side} ${money(o.filled!).toFixed()} @ ${money(o.price!).toFixed()}`);
  const logged = async (id: string) =>
    (await t.db.selectFrom('bot_actions').select(['kind', 'detail']).where('bot_id', '=', id).where('kind', 'in', ['trailing_armed', 'trailing_fired']).orderBy('id').execute()).map((a) => ({
      kind: a.kind,
      ...(a.detail as object),
    }));

  beforeAll(async () => {
    t = await openTestApp(kind, { trading: (db) => (trading = createTrading({ db, feed: market })) });
  });
  afterAll(async () => {
    await trading.engine.stop();
    await t.close();
  });

  it('refuses a trailing exit without its price or with a deviation out of 0.1-20 %, naming the field; off is stored as nothing', async () => {
    await newTrader();
    const create = (params: object, lang = 'en') => call('POST', '/api/user/botCreate', { type: 'grid', exchangeId: 1, symbol: 'BTC/USDT', params: { ...grid, ...params } }, lang);
    const cases: [object, number, RegExp][] = [
      [{ trailingDeviation: '1' }, Code.RequiredFieldMissing, /params\.takeProfit|take profit/],
      [{ trailingStop: true }, Code.RequiredFieldMissing, /params\.stopLoss|stop loss/],
      [{ takeProfit: '56000', trailingDeviation: '25' }, Code.StrategyInvalidParams, /params\.trailingDeviation|trailing take profit deviation/],
      [{ takeProfit: '56000', trailingDeviation: '0.05' }, Code.StrategyInvalidParams, /params\.trailingDeviation|trailing take profit deviation/],
      [{ takeProfit: '56000', trailingDeviation: 'x' }, Code.ValidationError, /params\.trailingDeviation|trailing take profit deviation/],
      [{ trailingStop: 'yes' }, Code.ValidationError, /params\.trailingStop|trailing stop loss/],
    ];
    for (const [params, code, field] of cases) {
      const r = await create(params);
      expect([r.code, r.msg]).toEqual([code, expect.stringMatching(field)]);
    }
    // In Chinese too: the same code, the message in Chinese.
    const zh = await create({ trailingDeviation: '1' }, 'zh');
    expect([zh.code, zh.msg]).toEqual([Code.RequiredFieldMissing, expect.stringMatching(/^[^A-Za-z]*(params\.takeProfit|止盈)/)]);

    const off = await create({ trailingDeviation: '', trailingStop: false });
    const on = await create({ takeProfit: '56000', trailingDeviation: '1', stopLoss: '44000', trailingStop: true });
    const stored = async (id: string) => (await t.db.selectFrom('bots').select('params').where('id', '=', id).executeTakeFirstOrThrow()).params as Record<string, unknown>;
    expect(Object.keys(await stored(off.data.id))).not.toContain('trailingDeviation');
    expect(Object.keys(await stored(off.data.id))).not.toContain('trailingStop');
    expect(await stored(on.data.id)).toMatchObject({ takeProfit: '56000', trailingDeviation: '1', stopLoss: '44000', trailingStop: true });
    // Answered as the form sends them.
    expect((await call('GET', `/api/user/botInfo?id=${off.data.id}`)).data.params).toMatchObject({ trailingDeviation: '', trailingStop: false });
    expect((await call('GET', `/api/user/botInfo?id=${on.data.id}`)).data.params).toMatchObject({ trailingDeviation: '1', trailingStop: true });
  });

  it('arms past the take profit once the sells waiting on the way filled, answers the moving line, keeps its high across a restart and stops at the line', async () => {
    const id = await started({ takeProfit: '56000', trailingDeviation: '1' });
    // A jump past both sells and the take profit: the engine takes it one trigger a round, each at its own
    // price (the sells waited on the book at 52500 and 55000), then arms at 56000 and raises
    // the high to 56500 on the next round: floor(56500 x 0.99) = 55935. Nothing is held any more.
    await step('56500');
    let detail = (await call('GET', `/api/user/botDetail?id=${id}`)).data;
    expect(detail.trailing).toEqual({ high: '56500', price: '55935' });
    // No next buy while armed (the grid is being closed).
    expect([detail.nextAddPrice, detail.takeProfitPrice, detail.amount]).toEqual([null, '56000', '0']);
    await step('57000'); // a new high: floor(57000 x 0.99) = 56430
    detail = (await call('GET', `/api/user/botDetail?id=${id}`)).data;
    expect(detail.trailing).toEqual({ high: '57000', price: '56430' });
    expect(((await t.db.selectFrom('bots').select('state').where('id', '=', id).executeTakeFirstOrThrow()).state as StoredGridState).trail).toBe('57000');

    // The server stops; a new one starts on the same database and goes on from the stored high.
    await trading.engine.stop();
    const restarted = createTrading({ db: t.db, feed: market });
    await restarted.engine.start();
    expect(restarted.engine.stateOf<GridState>(id)?.trail?.toFixed()).toBe('57000');
    const sold = ['open buy 0.01038 @ 50000', 'close sell 0.00518 @ 52500', 'close sell 0.00518 @ 55000'];
    await step('56800', restarted.engine); // above the line: nothing (a bot that forgot its high would arm again here)
    expect(await filled(id)).toEqual(sold);
    await step('56430', restarted.engine); // the line: nothing left to sell, the grid stops
    expect(await filled(id)).toEqual(sold);
    expect(((await t.db.selectFrom('bots').select('state').where('id', '=', id).executeTakeFirstOrThrow()).state as { phase: string }).phase).toBe('done');
    expect(await logged(id)).toEqual([
      { kind: 'trailing_armed', exit: 'take_profit', high: '56000', price: '55440' },
      { kind: 'trailing_fired', exit: 'take_profit', high: '57000', price: '56430' },
    ]);
    // Each sell booked its level's profit: 0.00518 x price x 0.999 less its share of the start buy (519 / 2).
    const cycles = await t.db.selectFrom('bot_cycles').select('profit').where('bot_id', '=', id).orderBy('id').execute();
    expect(cycles.map((c) => money(c.profit).toFixed())).toEqual(['52500', '55000'].map((p) => money('0.00518').mul(p).mul('0.999').minus('259.5').toFixed()));
    expect((await call('GET', `/api/user/botDetail?id=${id}`)).data.trailing).toBeUndefined();
    await restarted.engine.stop();
    // The app's own engine reloads the bot from its row when it is stopped through the app.
    expect((await call('GET', `/api/user/botOperation?id=${id}&action=stop`)).code).toBe(1);
  });

  it('moves the stop loss up with the high since the start, at its ratio to the start price, and sells everything there', async () => {
    // 44000 / 50000: the stop stays 12 % under the high.
    const id = await started({ stopLoss: '44000', trailingStop: true });
    expect((await call('GET', `/api/user/botDetail?id=${id}`)).data.stopLossPrice).toBe('44000');
    await step('52600'); // the sell waiting at 52500 fills there; the new high: floor(52600 x 0.88) = 46288
    const detail = (await call('GET', `/api/user/botDetail?id=${id}`)).data;
    expect(detail.stopLossPrice).toBe('46288');
    expect(detail.trailing).toBeUndefined();
    await step('50000'); // buys at 50000
    await step('47500'); // and at 47500
    await step('46288');
    expect(await filled(id)).toEqual(['open buy 0.01038 @ 50000', 'close sell 0.00518 @ 52500', 'add buy 0.00519 @ 50000', 'add buy 0.00519 @ 47500', 'stop sell 0.01555 @ 46288']);
    expect(await logged(id)).toEqual([{ kind: 'trailing_fired', exit: 'stop_loss', high: '52600', price: '46288' }]);
    expect((await call('GET', `/api/user/botOperation?id=${id}&action=stop`)).code).toBe(1);
  });
});
