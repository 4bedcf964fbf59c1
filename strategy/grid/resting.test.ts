import { describe, expect, it } from 'vitest';
import { money } from '../money.ts';
import { botId, type PlaceOrder } from '../types.ts';
import type { GridParams } from './rules.ts';
import { gridResting } from './resting.ts';
import { decideGrid, initialGridState, type GridState, type GridView } from './strategy.ts';

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
