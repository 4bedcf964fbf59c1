import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScriptedMarket } from '../testing/scripted.ts';
import { openTestApp, registerUser, type TestApp } from '../testing/test-support.ts';
import { createTrading, type Trading } from '../trading.ts';
import { engineRounds } from '../testing/resting-grid.ts';
import type { GridState } from '../../strategy/grid/strategy.ts';
import { money } from '../../strategy/money.ts';
import { PAPER_MAKER_FEE_RATE } from '../market/paper-rules.ts';
import { stepsOf } from '../store/order-steps.ts';
import { reservedByBots } from '../services/reserved-capital.ts';

/**
 * A grid's orders resting on Paper as limit orders (server/engine/resting.ts): one at every level but the empty
 * one, each filled at its own price as a maker however far the market gapped past it, its counter-order
 * placed one level over; an exit, a pause and a stop cancel them first; a cancel the fill beat is the fill,
 * booked once.
 */
describe('resting limit orders on the live engine (Paper)', () => {
  let t: TestApp;
  let trading: Trading;
  const market = new ScriptedMarket();
  const params = { investment: '1000', lower: '1800', upper: '2200', grids: 4, spacing: 'arithmetic', stopLoss: '1700', takeProfit: '' };

  beforeAll(async () => {
    t = await openTestApp('pglite', { trading: (db) => (trading = createTrading({ db, feed: market, restingTypes: ['grid'] })) });
  });
  afterAll(async () => {
    await trading.engine.stop();
    await t.close();
  });

  const rounds = (n = 3) => engineRounds(trading.engine, n);

  /** A trader with a Paper account and a running grid started at 2010. */
  const startGrid = async () => {
    const user = await registerUser(t.app);
    const headers = { authorization: `Bearer ${user.token}` };
    const call = (method: 'GET' | 'POST', url: string, payload?: object) => t.app.inject({ method, url, ...(payload ? { payload } : {}), headers }).then((r) => r.json());
    await call('POST', '/api/exchanges/bind', { exchangeId: 1, apiKey: 'paperkey01', secretKey: 'papersecret01' });
    market.set('ETH/USDT', '2010');
    const bot = await call('POST', '/api/user/botCreate', { type: 'grid', exchangeId: 1, symbol: 'ETH/USDT', params });
    expect(bot.code).toBe(1);
    const id = bot.data.id as string;
    await call('GET', `/api/user/botOperation?id=${id}&action=start`);
    await trading.engine.idle();
    await rounds();
    const owner = await t.db.selectFrom('bots').select('user_id').where('id', '=', id).executeTakeFirstOrThrow();
    return { id, call, userId: String(owner.user_id) };
  };

  const resting = (id: string) => t.db.selectFrom('bot_orders').selectAll().where('bot_id', '=', id).where('slot', 'is not', null).orderBy('id').execute();
  const atMarket = (id: string) => t.db.selectFrom('bot_orders').selectAll().where('bot_id', '=', id).where('slot', 'is', null).orderBy('id').execute();
  const paperOpen = (userId: string) => t.db.selectFrom('paper_orders').selectAll().where('user_id', '=', userId).where('status', '=', 'open').execute();
  const locked = async (userId: string) =>
    (await t.db.selectFrom('paper_balances').select(['currency', 'locked']).where('user_id', '=', userId).where('exchange_id', '=', 1).execute()).filter((r) => money(r.locked).gt(0));

  it('rests an order at every level but the empty one, fills it at its level as a maker, and puts the counter-order one level up', async () => {
    const { id, userId } = await startGrid();
    const state = trading.engine.stateOf<GridState>(id)!;
    expect(state.phase).toBe('running');
    const first = await resting(id);
    // Levels 1800..2200 by 100, started at 2010: buys at 1800 and 1900; the level nearest the price (2000) left empty; sells at 2100 and 2200.
    expect(first.map((o) => `${o.slot} ${o.side} ${money(o.at_price!).toFixed()} ${o.status}`)).toEqual(['L0 buy 1800 open', 'L1 buy 1900 open', 'L3 sell 2100 open', 'L4 sell 2200 open']);
    expect((await paperOpen(userId)).length).toBe(4);
    expect((await locked(userId)).map((r) => r.currency).sort()).toEqual(['ETH', 'USDT']);
    // Only the start buy went at market.
    expect((await atMarket(id)).map((o) => o.reason)).toEqual(['open']);
    // What its resting buys hold is out of the free balance already: not reserved again for other bots' starts.
    expect((await reservedByBots(t.db, trading, userId, 'paper', 'USDT')).toFixed()).toBe('0');

    // The market gaps from 2010 to 1850, through the level at 1900: filled at 1900, as a maker.
    market.set('ETH/USDT', '1850');
    await rounds();
    const filled = (await resting(id)).find((o) => o.slot === 'L1')!;
    expect(filled.status).toBe('filled');
    expect(money(filled.price!).toFixed()).toBe('1900');
    const trades = await t.db.selectFrom('paper_trades').selectAll().where('client_order_id', '=', filled.client_order_id).execute();
    expect(trades).toHaveLength(1);
    expect(trades[0]!.maker).toBe(true);
    expect(money(trades[0]!.fee).toFixed()).toBe(money(filled.amount!).mul(PAPER_MAKER_FEE_RATE).toFixed());
    // The books took it in: level 1 is empty now, level 2 sells what the buy left.
    const after = trading.engine.stateOf<GridState>(id)!;
    expect(after.orders[1]).toBeNull();
    expect(after.orders[2]?.side).toBe('sell');
    const counter = (await resting(id)).find((o) => o.slot === 'L2')!;
    expect([counter.side, money(counter.at_price!).toFixed(), counter.status]).toEqual(['sell', '2000', 'open']);
    expect(money(counter.amount!).toFixed()).toBe(after.orders[2]!.amount.toFixed());
    // Nothing went at market for it.
    expect((await atMarket(id)).map((o) => o.reason)).toEqual(['open']);
    // Its steps as the state table has them.
    expect((await stepsOf(t.db, { clientOrderId: filled.client_order_id })).map((s) => s.to)).toEqual(['new', 'submitted', 'open', 'filled']);

    // The stop loss: every resting order cancelled first (a sell holds the coin the sale needs), then the sale at market.
    market.set('ETH/USDT', '1690');
    await rounds(4);
    expect(trading.engine.stateOf<GridState>(id)!.phase).toBe('done');
    expect((await paperOpen(userId)).length).toBe(0);
    expect(await locked(userId)).toEqual([]);
    const ended = await resting(id);
    expect(ended.every((o) => ['cancelled', 'filled'].includes(o.status))).toBe(true);
    // The buy at 1800 filled as the price fell through it before the stop (as the backtest's would).
    expect(ended.filter((o) => o.status === 'filled').map((o) => o.slot)).toEqual(['L0', 'L1']);
    const sale = (await atMarket(id)).find((o) => o.reason === 'stop')!;
    expect(sale.status).toBe('filled');
  });

  it('a pause cancels every resting order; a cancel the fill beat is booked as that fill, once, and a resume places the rest again', async () => {
    const { id, call, userId } = await startGrid();
    expect((await resting(id)).filter((o) => o.status === 'open')).toHaveLength(4);
    // The price reaches the level at 1900 with no round to see it: the pause's cancel finds it filled.
    market.set('ETH/USDT', '1895');
    await call('GET', `/api/user/botOperation?id=${id}&action=pause`);
    await trading.engine.idle();
    const rows = await resting(id);
    const l1 = rows.find((o) => o.slot === 'L1')!;
    expect(l1.status).toBe('filled');
    expect((await stepsOf(t.db, { clientOrderId: l1.client_order_id })).map((s) => s.to)).toEqual(['new', 'submitted', 'open', 'pending_cancel', 'filled']);
    expect(rows.filter((o) => o.slot !== 'L1').map((o) => o.status)).toEqual(['cancelled', 'cancelled', 'cancelled']);
    expect((await paperOpen(userId)).length).toBe(0);
    expect(await locked(userId)).toEqual([]);
    const state = trading.engine.stateOf<GridState>(id)!;
    expect(state.orders[1]).toBeNull();
    expect(state.orders[2]?.side).toBe('sell');
    expect(await t.db.selectFrom('paper_trades').select('id').where('client_order_id', '=', l1.client_order_id).execute()).toHaveLength(1);

    // Resumed: the plan's orders stand again, the filled level's sell among them, each once.
    await call('GET', `/api/user/botOperation?id=${id}&action=start`);
    await trading.engine.idle();
    await rounds();
    const open = (await resting(id)).filter((o) => o.status === 'open');
    expect(open.map((o) => `${o.slot} ${o.side}`).sort()).toEqual(['L0 buy', 'L2 sell', 'L3 sell', 'L4 sell']);
    expect((await paperOpen(userId)).length).toBe(4);
  });

  it("on a random walk through its levels books every fill the venue made, in the order it made them: its coin is the venue's", async () => {
    const { id, userId } = await startGrid();
    for (let i = 0; i < 300; i++) {
      // Swings through every level and back, up to 90 a round: with a wait every other round, the engine
      // often finds two levels filled at once, either way.
      const p = Math.min(2190, Math.max(1810, 2010 + 190 * Math.sin(i / 5) + 90 * Math.sin(i / 1.7)));
      market.set('ETH/USDT', p.toFixed(2));
      await trading.engine.tick();
      if (i % 2 === 0) await trading.engine.idle();
    }
    await rounds();
    const rows = await t.db.selectFrom('bot_orders').select(['client_order_id', 'status']).where('bot_id', '=', id).execute();
    const ours = new Map(rows.map((r) => [r.client_order_id, r.status]));
    const venue = await t.db.selectFrom('paper_orders').select(['client_order_id', 'status']).where('user_id', '=', userId).execute();
    // Every fill on the venue is in the books, and nothing is left in doubt.
    expect(venue.filter((v) => v.status === 'closed' && ours.get(v.client_order_id) !== 'filled').map((v) => v.client_order_id)).toEqual([]);
    expect(rows.filter((r) => ['new', 'submitted', 'lost', 'pending_cancel'].includes(r.status))).toEqual([]);
    expect(rows.filter((r) => r.status === 'filled').length).toBeGreaterThan(20);
    // The coin its books hold is on the account (a little more: the maker fee taken in the coin is below the books' taker fee).
    const state = trading.engine.stateOf<GridState>(id)!;
    const held = state.orders.reduce((sum, o) => (o?.side === 'sell' ? sum.plus(o.amount) : sum), state.dust);
    const eth = await t.db.selectFrom('paper_balances').select('amount').where('user_id', '=', userId).where('currency', '=', 'ETH').executeTakeFirstOrThrow();
    expect(money(eth.amount).gte(held)).toBe(true);
    expect(money(eth.amount).minus(held).lte(held.mul('0.005'))).toBe(true);
  });

  it('shows each level with its order on the exchange; a level the exchange refuses says why, and the trader is told once', async () => {
    const { id, call, userId } = await startGrid();
    const levels = async () =>
      ((await call('GET', `/api/user/botDetail?id=${id}`)).data.grid.levels as { index: number; side: string | null; order: { state: string; reason: string | null } | null }[]).map(
        (l) => `${l.index} ${l.side ?? '-'} ${l.order?.state ?? '-'}${l.order?.reason ? ` (${l.order.reason})` : ''}`,
      );
    expect(await levels()).toEqual(['0 buy resting', '1 buy resting', '2 - -', '3 sell resting', '4 sell resting']);
    // Another trader sees none of it: a refusal in the envelope, never the levels or a 5xx.
    const other = await registerUser(t.app);
    const theirs = await t.app.inject({ method: 'GET', url: `/api/user/botDetail?id=${id}`, headers: { authorization: `Bearer ${other.token}` } });
    expect(theirs.statusCode).toBeLessThan(500);
    expect([theirs.json().code !== 1, theirs.json().data?.grid]).toEqual([true, undefined]);
    // Paused, its quote spent elsewhere (the account holds 1 USDT free): resumed, the exchange refuses its buys.
    await call('GET', `/api/user/botOperation?id=${id}&action=pause`);
    await trading.engine.idle();
    await t.db.updateTable('paper_balances').set({ amount: '1' }).where('user_id', '=', userId).where('currency', '=', 'USDT').execute();
    await call('GET', `/api/user/botOperation?id=${id}&action=start`);
    await trading.engine.idle();
    await rounds(6);
    expect(await levels()).toEqual(['0 buy refused (insufficient balance)', '1 buy refused (insufficient balance)', '2 - -', '3 sell resting', '4 sell resting']);
    const notices = await t.db.selectFrom('notices').select(['code', 'detail']).where('user_id', '=', userId).where('code', '=', 'level_refused').execute();
    expect(notices.map((n) => (n.detail as Record<string, string>).price).sort()).toEqual(['1800', '1900']);
    // The bot runs on: a refused level trades at market when the price reaches it.
    expect((await t.db.selectFrom('bots').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status).toBe('running');
  });
});
