import { describe, expect, it } from 'vitest';
import type { MarketRules } from '../core/market.ts';
import { buyAmount } from '../core/position.ts';
import { money } from '../money.ts';
import { botId, clientOrderId, type PlaceOrder } from '../types.ts';
import { dcaInFlight, dcaResting, dcaSlotOf } from './resting.ts';
import type { DcaParams } from './rules.ts';
import { decideDca, initialDcaState, type DcaState } from './strategy.ts';

// README.md's worked example: base order 20 at 60,000, safety orders of 20 x 2^(n-1) from 1.5 % below, stop 15 %.
const market: MarketRules = { tickSize: money('0.01'), stepSize: money('0.00001'), minAmount: money('0.00001'), minCost: money('5'), feeRate: money('0.001') };
const params: DcaParams = {
  investment: '320',
  baseOrder: '20',
  safetyOrder: '20',
  maxSafetyOrders: 4,
  deviation: '1.5',
  stepScale: '1.5',
  volumeScale: '2',
  takeProfit: '1.5',
  stopLoss: '15',
  start: { kind: 'now' },
};

const rests = (state: DcaState, p = params) => dcaResting(state, { params: p, market }).map((o) => `${o.slot} ${o.side} ${o.price.toFixed()} ${o.amount.toFixed()}`);

/** The state after a price, its order (if any) left on its way or filled at once at that price. */
function at(state: DcaState, price: string, p = params, fill = true): DcaState {
  const out = decideDca(state, { type: 'PriceTicked', price: money(price), at: 0 }, { params: p, market });
  const order = out.intents.find((i): i is PlaceOrder => i.type === 'PlaceOrder');
  if (!order || !fill) return out.state;
  const amount = order.side === 'buy' ? buyAmount(order.quote!, money(price), market.stepSize) : order.amount!;
  return decideDca(out.state, { type: 'OrderFilled', clientOrderId: order.clientOrderId, side: order.side, price: money(price), amount }, { params: p, market }).state;
}

describe('the orders a DCA deal wants resting (README.md "Resting orders")', () => {
  it('its next safety order and its take profit, with their prices and amounts, the take profit alone after the last', () => {
    const waiting = initialDcaState(botId('d1'));
    expect(rests(waiting)).toEqual([]);
    // The base order on its way at market: nothing rests yet.
    expect(rests(at(waiting, '60000', params, false))).toEqual([]);
    const opened = at(waiting, '60000');
    // 0.00033 bought at 60,000: safety order 1 of 20 at 59,100 buys 0.00033; the take profit at 60,900 sells what the fee left, 0.00032.
    expect(rests(opened)).toEqual(['add buy 59100 0.00033', 'take_profit sell 60900 0.00032']);
    // Safety order 1 filled: number 2 (40) at 57,750 buys 0.00069; the take profit moves to 60,443.25 for 0.00065.
    const first = at(opened, '59100');
    expect(rests(first)).toEqual(['add buy 57750 0.00069', 'take_profit sell 60443.25 0.00065']);
    let deal = first;
    for (const price of ['57750', '55725', '52687.5']) deal = at(deal, price);
    expect(deal.safeties).toBe(4);
    // Every safety order filled: the take profit of the whole deal alone (README: 0.0058 at 55,638.14).
    expect(rests(deal)).toEqual(['take_profit sell 55638.14 0.0058']);
  });

  it('rests nothing while a sale is on its way, no take profit when it trails, and no safety order once armed', () => {
    const opened = at(initialDcaState(botId('d2')), '60000');
    expect(rests(at(opened, '61000', params, false))).toEqual([]);
    const trailing = { ...params, trailingDeviation: '1' };
    const trails = at(initialDcaState(botId('d3')), '60000', trailing);
    expect(rests(trails, trailing)).toEqual(['add buy 59100 0.00033']);
    // Past the take profit (60,900) the trailing take profit arms: the deal is being sold, no safety order rests.
    const armed = at(trails, '61000', trailing);
    expect(armed.trail?.toFixed()).toBe('61000');
    expect(rests(armed, trailing)).toEqual([]);
  });

  it('rests no safety order at or under a trailing stop that has risen past it', () => {
    const p = { ...params, trailingStop: true, takeProfit: '20' };
    const opened = at(initialDcaState(botId('d4')), '60000', p);
    // The stop 15 % under the high: 51,000 under the safety order at 59,100.
    expect(rests(opened, p)).toEqual(['add buy 59100 0.00033', 'take_profit sell 72000 0.00032']);
    // A high of 70,000 lifts the stop to 59,500, over the safety order: a fall would sell first.
    const high = at(opened, '70000', p);
    expect(rests(high, p)).toEqual(['take_profit sell 72000 0.00032']);
  });

  it('makes a resting fill its order in flight, as onPrice would have placed it, and names its slot', () => {
    const opened = at(initialDcaState(botId('d5')), '60000');
    const id = clientOrderId(botId('d5'), 1, 9);
    const add = dcaInFlight(opened, 'add', id, 'buy')!;
    expect([add.pending, add.seq, dcaSlotOf(add)]).toEqual([{ id, reason: 'add' }, opened.seq + 1, 'add']);
    // The next deal's cooldown counts from the time the engine books the take profit's fill at.
    const close = dcaInFlight(opened, 'take_profit', id, 'sell', 1_800_000)!;
    expect([close.pending, close.since, dcaSlotOf(close)]).toEqual([{ id, reason: 'close', rested: true }, 1_800_000, 'take_profit']);
    expect(dcaInFlight(opened, 'take_profit', id, 'sell')!.since).toBeNull();
    // A side its slot does not stand for, or an order already in flight: none.
    expect(dcaInFlight(opened, 'add', id, 'sell')).toBeNull();
    expect(dcaInFlight(add, 'take_profit', id, 'sell')).toBeNull();
    // A safety order the book filled after the deal closed (its cancel too late): the next deal's base order.
    const closed = decideDca(close, { type: 'OrderFilled', clientOrderId: id, side: 'sell', price: money('60900'), amount: money('0.00032') }, { params, market }).state;
    expect(closed.phase).toBe('waiting');
    const late = clientOrderId(botId('d5'), 1, 8);
    const reopened = dcaInFlight(closed, 'add', late, 'buy')!;
    expect(reopened.pending).toEqual({ id: late, reason: 'open' });
    const deal = decideDca(reopened, { type: 'OrderFilled', clientOrderId: late, side: 'buy', price: money('59100'), amount: money('0.00033') }, { params, market }).state;
    expect([deal.phase, deal.cycle, deal.safeties, deal.fills.map((f) => f.price.toFixed()), deal.targets?.nextSafety?.toFixed()]).toEqual(['holding', 2, 0, ['59100'], '58213.5']);
    expect(dcaInFlight(closed, 'take_profit', late, 'sell')).toBeNull();
    // Booked by decide's own OrderFilled: a safety order counts, and the take profit moves.
    const filled = decideDca(add, { type: 'OrderFilled', clientOrderId: id, side: 'buy', price: money('59100'), amount: money('0.00033') }, { params, market }).state;
    expect([filled.safeties, filled.targets?.takeProfit.toFixed()]).toEqual([1, '60443.25']);
  });

  it('takes a take profit filled in part (its rest cancelled) as a partial close: the deal goes on, the rest rests at the same price', () => {
    const opened = at(initialDcaState(botId('d9')), '60000');
    const [, tp] = rests(opened);
    const [, , price, amount] = tp!.split(' ');
    const id = clientOrderId(botId('d9'), 1, 5);
    const state = dcaInFlight(opened, 'take_profit', id, 'sell', 1000)!;
    const half = money(amount!).div(2).toDecimalPlaces(5, 1);
    const out = decideDca(state, { type: 'OrderFilled', clientOrderId: id, side: 'sell', price: money(price!), amount: half, maker: true }, { params, market });
    expect(out.intents.map((i) => i.type)).toEqual(['PositionReduced']);
    expect([out.state.phase, out.state.cycle, out.state.realized.gt(0)]).toEqual(['holding', 1, true]);
    expect(rests(out.state)).toEqual([rests(opened)[0], `take_profit sell ${price} ${money(amount!).minus(half).toFixed()}`]);
  });
});
