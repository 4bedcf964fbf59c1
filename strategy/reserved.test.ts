import type Decimal from 'decimal.js';
import { describe, expect, it } from 'vitest';
import { engineRound } from './engine-round.test-support.ts';
import { gridLevels, grossBuy } from './grid/plan.ts';
import { dcaKit, gridKit, martinKit } from './kit.ts';
import { customKit } from './custom/kit.ts';
import type { MarketRules } from './core/market.ts';
import { money } from './money.ts';
import { botId } from './types.ts';

const market: MarketRules = { tickSize: money('0.01'), stepSize: money('0.00001'), minAmount: money('0.00001'), minCost: money('5'), feeRate: money('0.001') };
const text = (d: Decimal) => d.toFixed();

/**
 * What each bot type reserves of its account (StrategyKit.reserved): the quote it may still spend on
 * buys it has not made. It falls as its buys fill and is nothing once the bot is done.
 */
describe('the capital a bot reserves', () => {
  it('martin: the whole cycle while it waits, then every add it has left', () => {
    const view = martinKit.view({ investment: '3100', firstOrder: '100', multiplier: '2', maxPositions: 5, addTrigger: '2', takeProfit: '1.5', repeat: false }, market);
    let state = martinKit.initial(botId('m'));
    expect(text(martinKit.reserved(state, view))).toBe('3100');
    state = engineRound(martinKit, state, view, money('60000'), market.stepSize).state; // opened: 100 spent
    expect(text(martinKit.reserved(state, view))).toBe('3000');
    state = engineRound(martinKit, state, view, money('58800'), market.stepSize).state; // first add: 200
    expect(text(martinKit.reserved(state, view))).toBe('2800');
    // An order in flight is not spent yet: the next add, decided, not filled, is still reserved.
    const asked = martinKit.decide(state, { type: 'PriceTicked', price: money('57624') }, view);
    expect(asked.intents.some((i) => i.type === 'PlaceOrder')).toBe(true);
    expect(text(martinKit.reserved(asked.state, view))).toBe('2800');
    // The take profit closes the cycle and, repeat off, the bot is done: nothing reserved.
    state = engineRound(martinKit, state, view, money('62000'), market.stepSize).state;
    expect(state.phase).toBe('done');
    expect(text(martinKit.reserved(state, view))).toBe('0');
  });

  it('DCA: a whole deal while none is open, then the safety orders it has left', () => {
    const params = {
      investment: '1000',
      baseOrder: '100',
      safetyOrder: '50',
      maxSafetyOrders: 3,
      deviation: '1',
      stepScale: '1',
      volumeScale: '2',
      takeProfit: '1.5',
      start: { kind: 'now' },
      repeat: true,
    };
    const view = dcaKit.view(params, market);
    let state = dcaKit.initial(botId('d'));
    expect(text(dcaKit.reserved(state, view))).toBe('450'); // 100 + 50 + 100 + 200
    state = engineRound(dcaKit, state, view, money('60000'), market.stepSize).state;
    expect(text(dcaKit.reserved(state, view))).toBe('350');
    state = engineRound(dcaKit, state, view, money('59400'), market.stepSize).state; // the first safety order, 1 % below
    expect(state.safeties).toBe(1);
    expect(text(dcaKit.reserved(state, view))).toBe('300');
  });

  it('grid: the investment before it starts, then the buy levels below the price, each at its price', () => {
    const view = gridKit.view({ investment: '1000', lower: '50000', upper: '70000', grids: 10, spacing: 'arithmetic' }, market);
    let state = gridKit.initial(botId('g'));
    expect(text(gridKit.reserved(state, view))).toBe('1000');
    state = engineRound(gridKit, state, view, money('61000'), market.stepSize).state;
    const levels = gridLevels(view.params, market.tickSize);
    // Each buy level buys enough for the fee taken in the coin (grossBuy) at its price.
    const buys = () => state.orders.flatMap((o, i) => (o?.side === 'buy' ? [grossBuy(o.amount, market).mul(levels[i]!)] : []));
    expect(buys().length).toBe(5); // 50,000 to 58,000: the levels below 61,000 but the empty one nearest the price
    const before = gridKit.reserved(state, view);
    expect(text(before)).toBe(text(buys().reduce((a, b) => a.plus(b), money(0))));
    expect(before.lt(1000)).toBe(true);
    // The price falls through 58,000: that level's buy is spent.
    const filled = grossBuy(state.orders[4]!.amount, market).mul(levels[4]!);
    state = engineRound(gridKit, state, view, money('57990'), market.stepSize).state;
    expect(text(gridKit.reserved(state, view))).toBe(text(before.minus(filled)));
  });

  it('custom: one entry while it waits, nothing while it holds', () => {
    const params = { investment: '1000', size: { kind: 'share', percent: '25' }, entry: { join: 'and', conditions: [] }, takeProfit: '2', stopLoss: '', repeat: true };
    const view = customKit.view(params, market);
    const state = customKit.initial(botId('c'));
    expect(text(customKit.reserved(state, view))).toBe('250');
    expect(text(customKit.reserved({ ...state, phase: 'holding', fills: [{ price: money('60000'), amount: money('0.004') }] }, view))).toBe('0');
    expect(text(customKit.reserved({ ...state, phase: 'done' }, view))).toBe('0');
  });
});
