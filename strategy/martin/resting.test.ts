import { describe, expect, it } from 'vitest';
import type { MarketRules } from '../core/market.ts';
import { buyAmount } from '../core/position.ts';
import { money } from '../money.ts';
import { botId, clientOrderId, type PlaceOrder } from '../types.ts';
import { martinInFlight, martinResting } from './resting.ts';
import type { MartinParams } from './rules.ts';
import { decideMartin, initialMartinState, type MartinState } from './strategy.ts';

const market: MarketRules = { tickSize: money('0.01'), stepSize: money('0.00001'), minAmount: money('0.00001'), minCost: money('5'), feeRate: money('0.001') };
const params: MartinParams = { investment: '700', firstOrder: '100', multiplier: '2', maxPositions: 3, addTrigger: '2', takeProfit: '1.5', repeat: true };

const rests = (state: MartinState, p = params) => martinResting(state, { params: p, market }).map((o) => `${o.slot} ${o.side} ${o.price.toFixed()} ${o.amount.toFixed()}`);

/** The state after a price, its order (if any) left on its way or filled at once at that price. */
function at(state: MartinState, price: string, p = params, fill = true): MartinState {
  const out = decideMartin(state, { type: 'PriceTicked', price: money(price) }, { params: p, market });
  const order = out.intents.find((i): i is PlaceOrder => i.type === 'PlaceOrder');
  if (!order || !fill) return out.state;
  const amount = order.side === 'buy' ? buyAmount(order.quote!, money(price), market.stepSize) : order.amount!;
  return decideMartin(out.state, { type: 'OrderFilled', clientOrderId: order.clientOrderId, side: order.side, price: money(price), amount }, { params: p, market }).state;
}

describe('the orders a martin bot wants resting (README worked example)', () => {
  it('its next add and its take profit, with their prices and amounts', () => {
    const waiting = initialMartinState(botId('m1'));
    expect(rests(waiting)).toEqual([]);
    // The open's market buy on its way: nothing rests yet.
    expect(rests(at(waiting, '60000', params, false))).toEqual([]);
    const opened = at(waiting, '60000');
    // 0.00166 bought at 60,000: the add of 200 at 58,800 buys 0.0034; the take profit at 60,900 sells what the fee left, 0.00165.
    expect(rests(opened)).toEqual(['add buy 58800 0.0034', 'take_profit sell 60900 0.00165']);
    // Added 0.0034 at 58,800: the average 299.52 / 0.00506, the take profit 1.5 % above it; 0.00506 less the fee to sell.
    const added = at(opened, '58800');
    expect(rests(added)).toEqual(['add buy 57624 0.00694', 'take_profit sell 60081.59 0.00505']);
    // At its last add (0.00694 at 57,624: 0.012 held at 58,285.9 on average), the take profit alone.
    const full = at(added, '57624');
    expect(rests(full)).toEqual(['take_profit sell 59160.17 0.01198']);
  });

  it('rests nothing while a sale is on its way, and no take profit when it trails', () => {
    const opened = at(initialMartinState(botId('m2')), '60000');
    expect(rests(at(opened, '61000', params, false))).toEqual([]);
    const trailing = { ...params, trailingDeviation: '1' };
    expect(rests(at(initialMartinState(botId('m3')), '60000', trailing), trailing)).toEqual(['add buy 58800 0.0034']);
    // Past the take profit (60,900) the trailing take profit arms: the bot is being sold, no add rests.
    expect(rests(at(at(initialMartinState(botId('m4')), '60000', trailing), '61000', trailing), trailing)).toEqual([]);
  });

  it('rests no add at or under a trailing stop that has risen past it', () => {
    const p = { ...params, stopLoss: '3', trailingStop: true };
    const opened = at(initialMartinState(botId('m5')), '60000', p);
    // The stop 3 % under the high, 58,200: under the add at 58,800.
    expect(rests(opened, p)).toEqual(['add buy 58800 0.0034', 'take_profit sell 60900 0.00165']);
    // A high of 60,800 lifts it to 58,976, over the add: a fall would sell first.
    expect(rests(at(opened, '60800', p), p)).toEqual(['take_profit sell 60900 0.00165']);
  });

  it('takes an add the book filled after its cycle closed as the next cycle’s open, where the bot repeats', () => {
    const opened = at(initialMartinState(botId('m6')), '60000');
    const closed = at(opened, '60900');
    expect([closed.phase, closed.cycle]).toEqual(['waiting', 2]);
    const late = clientOrderId(botId('m6'), 1, 5);
    const state = martinInFlight(closed, 'add', late, 'buy')!;
    expect(state.pending).toEqual({ id: late, reason: 'open' });
    const next = decideMartin(state, { type: 'OrderFilled', clientOrderId: late, side: 'buy', price: money('58800'), amount: money('0.0034') }, { params, market }).state;
    expect([next.phase, next.cycle, next.fills.map((f) => `${f.price} ${f.amount}`)]).toEqual(['holding', 2, ['58800 0.0034']]);
    // A bot that does not repeat is done: no cycle to open (the engine pauses it and tells the trader).
    const once = { ...params, repeat: false };
    const done = at(at(initialMartinState(botId('m7')), '60000', once), '60900', once);
    expect(done.phase).toBe('done');
    expect(martinInFlight(done, 'add', late, 'buy')).toBeNull();
  });

  it('takes a take profit filled in part (its rest cancelled) as a partial close: the cycle goes on, the rest rests at the same price', () => {
    const added = at(at(initialMartinState(botId('m8')), '60000'), '58800');
    expect(rests(added)).toEqual(['add buy 57624 0.00694', 'take_profit sell 60081.59 0.00505']);
    const id = clientOrderId(botId('m8'), 1, 9);
    const state = martinInFlight(added, 'take_profit', id, 'sell')!;
    // 0.002 of the 0.00505 filled at 60,081.59 as a maker; the engine cancelled the rest.
    const out = decideMartin(state, { type: 'OrderFilled', clientOrderId: id, side: 'sell', price: money('60081.59'), amount: money('0.002'), maker: true }, { params, market });
    const reduced = out.intents.find((i) => i.type === 'PositionReduced');
    expect(reduced).toMatchObject({ type: 'PositionReduced', cycle: 1, share: '39.6' });
    expect([out.state.phase, out.state.cycle, out.state.realized.gt(0)]).toEqual(['holding', 1, true]);
    expect(out.intents.some((i) => i.type === 'CycleClosed')).toBe(false);
    // The rest keeps its average cost: the same take profit price, for what is left; the add unchanged.
    expect(rests(out.state)).toEqual(['add buy 57624 0.00694', 'take_profit sell 60081.59 0.00305']);
    // Filled whole, the take profit closes the cycle as before.
    const whole = decideMartin(
      martinInFlight(added, 'take_profit', id, 'sell')!,
      { type: 'OrderFilled', clientOrderId: id, side: 'sell', price: money('60081.59'), amount: money('0.00505'), maker: true },
      { params, market },
    );
    expect([whole.state.phase, whole.state.cycle, whole.intents.map((i) => i.type)]).toEqual(['waiting', 2, ['CycleClosed']]);
  });
});
