import { describe, expect, it } from 'vitest';
import { money } from '../money.ts';
import { botId, type ClientOrderId, type PlaceOrder } from '../types.ts';
import type { GridParams } from './rules.ts';
import { gridInFlight, gridResting } from './resting.ts';
import { decideGrid, initialGridState, type GridState, type GridView } from './strategy.ts';
import { gridKit } from './kit.ts';

const market = { tickSize: money('0.01'), stepSize: money('0.001'), minAmount: money('0.001'), minCost: money('5'), feeRate: money('0.001') };
const params: GridParams = { investment: '1000', lower: '100', upper: '120', grids: 4, spacing: 'arithmetic' };
const view: GridView = { params, market };

/** What rests, as `slot side price amount`. */
const rests = (state: GridState, v = view) => gridResting(state, v).map((o) => `${o.slot} ${o.side} ${o.price.toFixed()} ${o.amount.toFixed()}`);

/** The state after a price and, when it placed an order, that order filled at the price (in full). */
function step(state: GridState, price: string, v = view): { state: GridState; placed: PlaceOrder | undefined } {
  const asked = decideGrid(state, { type: 'PriceTicked', price: money(price) }, v);
  const placed = asked.intents.find((i): i is PlaceOrder => i.type === 'PlaceOrder');
  return { state: asked.state, placed };
}
function fill(state: GridState, order: PlaceOrder, price: string, v = view): GridState {
  const amount = order.amount ?? order.quote!.div(price);
  return decideGrid(state, { type: 'OrderFilled', clientOrderId: order.clientOrderId, side: order.side, price: money(price), amount }, v).state;
}

describe('the orders a grid wants resting (README worked example)', () => {
  it('a buy at each level below the empty one for its gross amount, a sell at each one above for q', () => {
    const waiting = initialGridState(botId('r1'));
    expect(rests(waiting)).toEqual([]);
    const started = step(waiting, '109');
    // The start buy on its way: nothing rests until the grid runs.
    expect(rests(started.state)).toEqual([]);
    const running = fill(started.state, started.placed!, '109');
    // Empty level 110; q = 2.361, each buy ceil(2.361 / 0.999) = 2.364 to leave q after the fee.
    expect(rests(running)).toEqual(['L0 buy 100 2.364', 'L1 buy 105 2.364', 'L3 sell 115 2.361', 'L4 sell 120 2.361']);

    // A level's order on its way at market is left out; filled, the level above sells what it bought.
    const crossed = step(running, '105');
    expect(crossed.placed).toMatchObject({ side: 'buy', reason: 'add' });
    expect(rests(crossed.state)).toEqual(['L0 buy 100 2.364', 'L3 sell 115 2.361', 'L4 sell 120 2.361']);
    const bought = fill(crossed.state, crossed.placed!, '105');
    expect(rests(bought)).toEqual(['L0 buy 100 2.364', 'L2 sell 110 2.361', 'L3 sell 115 2.361', 'L4 sell 120 2.361']);
  });

  it('rests nothing while an exit sells everything, or an armed trailing take profit closes the grid', () => {
    const v: GridView = { params: { ...params, stopLoss: '95', takeProfit: '125', trailingDeviation: '2' }, market };
    const started = step(initialGridState(botId('r2')), '109', v);
    const running = fill(started.state, started.placed!, '109', v);
    expect(rests(running, v)).toHaveLength(4);
    const stopped = step(running, '94', v);
    expect(stopped.placed).toMatchObject({ side: 'sell', reason: 'stop' });
    expect(rests(stopped.state, v)).toEqual([]);
    const armed = step(running, '126', v);
    expect(armed.state.trail?.toFixed()).toBe('126');
    expect(rests(armed.state, v)).toEqual([]);
  });
});

describe('a resting fill taken in as the order in flight', () => {
  const started = step(initialGridState(botId('f1')), '109');
  const running = fill(started.state, started.placed!, '109');
  // Buys at 100 and 105, 110 empty, sells of 2.361 at 115 and 120.
  const id = 'f1-1-1-9' as ClientOrderId;
  const inFlight = (state: GridState, slot: string, side: 'buy' | 'sell') => {
    const s = gridInFlight(state, slot, id, side);
    return s && { pending: s.pending, orders: s.orders.map((o) => (o ? `${o.side} ${o.amount.toFixed()} ${o.cost.toFixed()}` : '-')) };
  };
  const book = (state: GridState, side: 'buy' | 'sell', price: string, amount: string, slot: string) =>
    decideGrid(gridInFlight(state, slot, id, side)!, { type: 'OrderFilled', clientOrderId: id, side, price: money(price), amount: money(amount), maker: true }, view);

  it('at its own level when that level is next to the empty one, as onPrice would have placed it', () => {
    expect(inFlight(running, 'L3', 'sell')?.pending).toEqual({ id, level: 3, reason: 'close' });
    expect(inFlight(running, 'L1', 'buy')?.pending).toEqual({ id, level: 1, reason: 'add' });
    expect(gridInFlight(running, 'L3', id, 'sell')!.orders).toEqual(running.orders);
  });

  it('past a level that did not rest: its coin booked at the lowest sell level, the sells between moved up a level', () => {
    // The sell at 120 filled while the one at 115 did not rest (refused, not yet placed) and the price came
    // back under it: 120's coin sold, 115's coin still held. Booked, 115 is empty, 110 buys, and 115's coin
    // is offered at 120: what every level resting would have left (115 sold, bought back at 115, offered at 120).
    const sellerCost = running.orders[3]!.cost;
    const taken = inFlight(running, 'L4', 'sell')!;
    expect(taken.pending).toEqual({ id, level: 3, reason: 'close' });
    expect(taken.orders[3]).toBe(`sell 2.361 ${running.orders[4]!.cost.toFixed()}`);
    expect(taken.orders[4]).toBe(`sell 2.361 ${sellerCost.toFixed()}`);
    const sold = book(running, 'sell', '120', '2.361', 'L4');
    expect(sold.state.pending).toBeNull();
    expect(sold.state.orders.map((o) => o?.side ?? '-')).toEqual(['buy', 'buy', 'buy', '-', 'sell']);
    // The profit is the coin sold at 120 less what that coin cost, at the maker's fee.
    expect(sold.intents).toContainEqual({ type: 'CycleClosed', cycle: 1, profit: money('2.361').mul('120').mul(money(1).minus('0.001')).minus(running.orders[4]!.cost) });
    // The grid now rests as every level would have: buys at 100, 105, 110; the sell at 120.
    expect(rests(sold.state)).toEqual(['L0 buy 100 2.364', 'L1 buy 105 2.364', 'L2 buy 110 2.364', 'L4 sell 120 2.361']);
    // Coin held equals the coin of the sells left: 115's coin, at 120.
    expect(sold.state.orders[4]!.cost.toFixed()).toBe(sellerCost.toFixed());
  });

  it('a buy past a level that did not rest likewise: booked at the highest buy level, its sell one level up', () => {
    const bought = book(running, 'buy', '100', '2.364', 'L0');
    expect(bought.state.orders.map((o) => o?.side ?? '-')).toEqual(['buy', '-', 'sell', 'sell', 'sell']);
    expect(bought.state.orders[2]!.cost.toFixed()).toBe(money('2.364').mul('100').toFixed());
  });

  it("a fill whose level holds no order of the books any more (a cancel answered by its fill): the run's edge order's coin", () => {
    const sold = book(running, 'sell', '120', '2.361', 'L4');
    // 115 is empty now; its order on the venue, being cancelled, filled there.
    const again = inFlight(sold.state, 'L3', 'sell')!;
    expect(again.pending).toEqual({ id, level: 4, reason: 'close' });
  });

  it('waits while an order is in flight, and takes nothing of a side the books do not hold', () => {
    const up = step(running, '115');
    expect(gridInFlight(up.state, 'L4', id, 'sell')).toBeNull();
    expect(gridInFlight(up.state, 'L1', id, 'buy')).toBeNull();
    const done = { ...running, orders: running.orders.map((o) => (o?.side === 'sell' ? null : o)) };
    expect(gridInFlight(done, 'L3', id, 'sell')).toBeNull();
  });
});

describe('a level filled as it rested: the maker fee', () => {
  const makerView: GridView = { params, market: { ...market, makerFeeRate: money('0.0008') } };

  it('the buy keeps what the maker fee leaves for the sell above, and the sell books its profit after the maker fee', () => {
    const started = step(initialGridState(botId('m1')), '109', makerView);
    const running = fill(started.state, started.placed!, '109', makerView);
    const crossed = step(running, '105', makerView);
    const buy = crossed.placed!;
    const bought = decideGrid(crossed.state, { type: 'OrderFilled', clientOrderId: buy.clientOrderId, side: 'buy', price: money('105'), amount: money('2.364'), maker: true }, makerView).state;
    // 2.364 less 0.08 % (2.3621088) and the dust the start left, floored to the step: a step more than the taker's 2.361.
    const got = money('2.364').mul('0.9992').plus(running.dust);
    expect(bought.orders[2]!.amount.toFixed()).toBe(got.toDecimalPlaces(3, 1).toFixed());
    expect(bought.orders[2]!.amount.toFixed()).toBe('2.362');
    expect(bought.dust.toFixed()).toBe(got.minus('2.362').toFixed());
    // Taken at market instead (no maker flag), the same fill pays the taker's 0.1 %.
    const taker = decideGrid(crossed.state, { type: 'OrderFilled', clientOrderId: buy.clientOrderId, side: 'buy', price: money('105'), amount: money('2.364') }, makerView).state;
    expect(taker.orders[2]!.amount.toFixed()).toBe('2.361');

    // The sell at 110 rested too: 2.362 x 110 less 0.08 %, less the 248.22 the buy cost.
    const up = step(bought, '110', makerView);
    const sold = decideGrid(up.state, { type: 'OrderFilled', clientOrderId: up.placed!.clientOrderId, side: 'sell', price: money('110'), amount: money('2.362'), maker: true }, makerView);
    expect(sold.intents).toContainEqual({ type: 'CycleClosed', cycle: 1, profit: money('11.392144') });
    expect(sold.state.realized.minus(up.state.realized).toFixed()).toBe('11.392144');
  });

  it('the backtest fills a resting level at its own price as the maker, with no slippage; the exit still at market, slipped', () => {
    // 109 -> 104 -> 111 -> 94 (the stop at 95): the buys at 105 and 100 and the sell at 110 rest; the stop sells at market.
    const columns = {
      time: Float64Array.of(0, 60_000, 120_000),
      open: Float64Array.of(109, 104, 111),
      high: Float64Array.of(109, 111, 111),
      low: Float64Array.of(104, 104, 94),
      close: Float64Array.of(104, 111, 94),
    };
    const v: GridView = { params: { ...params, stopLoss: '95' }, market: makerView.market };
    const resting = gridKit.backtest(v, columns, { slippage: '0.001', resting: true }).fills;
    expect(resting.map((f) => `${f.reason} ${f.side} ${f.price} ${f.maker === true}`)).toEqual([
      'open buy 109.109 false', // the start buy at market, slipped 0.1 %
      'add buy 105 true',
      'close sell 110 true',
      'add buy 105 true',
      'add buy 100 true',
      'stop sell 94.905 false', // the stop at 95, slipped
    ]);
    // The same run with its orders at market: every fill slipped, none a maker's.
    const market_ = gridKit.backtest(v, columns, { slippage: '0.001' }).fills;
    expect(market_.map((f) => `${f.reason} ${f.price} ${f.maker === true}`)).toEqual([
      'open 109.109 false',
      'add 105.105 false',
      'close 109.89 false',
      'add 105.105 false',
      'add 100.1 false',
      'stop 94.905 false',
    ]);
  });
});
