import { describe, expect, it } from 'vitest';
import type { MarketRules } from './core/market.ts';
import { money } from './money.ts';
import { botId, type EngineEvent, type Intent, type SignalReceived } from './types.ts';
import type { DcaParams } from './dca/rules.ts';
import { decideDca, initialDcaState, type DcaState } from './dca/strategy.ts';
import { validateCustom, type CustomParams } from './custom/rules.ts';
import { decideCustom, initialCustomState, type CustomState } from './custom/strategy.ts';
import { decideMartin, initialMartinState } from './martin/strategy.ts';
import type { MartinParams } from './martin/rules.ts';

const market: MarketRules = { tickSize: money('0.01'), stepSize: money('0.00001'), minAmount: money('0.00001'), minCost: money('5'), feeRate: money('0.001') };
const signal = (action: SignalReceived['action'], price = '60000'): SignalReceived => ({ type: 'SignalReceived', action, price: money(price), signal: '1', alert: 'a' });
const orders = (intents: Intent[]) => intents.filter((i) => i.type === 'PlaceOrder').map((i) => (i.type === 'PlaceOrder' ? `${i.side} ${i.reason} ${(i.quote ?? i.amount)?.toFixed()}` : ''));

/** Signals in the pure strategies (dca/README.md and custom/README.md "Signals"). */
describe('signals decided by the strategies', () => {
  it('DCA: buy opens a deal whatever the schedule, once; sell and close sell the deal; nothing while an order is in flight', () => {
    const params: DcaParams = {
      investment: '320',
      baseOrder: '20',
      safetyOrder: '20',
      maxSafetyOrders: 4,
      deviation: '1.5',
      stepScale: '1.5',
      volumeScale: '2',
      takeProfit: '1.5',
      start: { kind: 'schedule', every: 'week', weekday: 1, time: '08:00', utcOffset: 0 },
    };
    const view = { params, market };
    let s: DcaState = initialDcaState(botId('d'));
    // The schedule is days away: a price does nothing.
    expect(decideDca(s, { type: 'PriceTicked', price: money('60000'), at: Date.UTC(2026, 10, 3) }, view).intents).toEqual([]);
    for (const action of ['sell', 'close'] as const) expect(decideDca(s, signal(action), view).intents).toEqual([]); // flat: nothing to sell
    const buy = decideDca(s, signal('buy'), view);
    expect(orders(buy.intents)).toEqual(['buy open 20']);
    expect(decideDca(buy.state, signal('buy'), view).intents).toEqual([]); // its order is in flight
    s = decideDca(buy.state, { type: 'OrderFilled', clientOrderId: buy.state.pending!.id, side: 'buy', price: money('60000'), amount: money('0.00033') }, view).state;
    expect(s.phase).toBe('holding');
    expect(decideDca(s, signal('buy'), view).intents).toEqual([]); // one deal per bot
    for (const action of ['sell', 'close'] as const) expect(orders(decideDca(s, signal(action), view).intents)).toEqual(['sell signal_close 0.00032']);
    const sold = decideDca(s, signal('close'), view);
    const closed = decideDca(sold.state, { type: 'OrderFilled', clientOrderId: sold.state.pending!.id, side: 'sell', price: money('61000'), amount: money('0.00033') }, view);
    expect(closed.state).toMatchObject({ phase: 'waiting', cycle: 2 });
    expect(closed.intents.map((i) => i.type)).toEqual(['CycleClosed']);
  });

  it('custom: buy enters when flat (also done), sell and close exit when holding', () => {
    const params: CustomParams = {
      investment: '100',
      size: { kind: 'fixed', quote: '50' },
      entry: { join: 'and', conditions: [{ left: { kind: 'price' }, op: '<', right: { kind: 'value', value: '1' } }] },
      takeProfit: '5',
      repeat: false,
    };
    const view = { params, market };
    let s: CustomState = initialCustomState(botId('c'));
    expect(decideCustom(s, signal('sell'), view).intents).toEqual([]);
    const buy = decideCustom(s, signal('buy'), view);
    expect(orders(buy.intents)).toEqual(['buy open 50']);
    s = decideCustom(buy.state, { type: 'OrderFilled', clientOrderId: buy.state.pending!.id, side: 'buy', price: money('60000'), amount: money('0.00083') }, view).state;
    expect(decideCustom(s, signal('buy'), view).intents).toEqual([]);
    const exit = decideCustom(s, signal('sell'), view);
    expect(orders(exit.intents)).toEqual(['sell signal_close 0.00082']);
    s = decideCustom(exit.state, { type: 'OrderFilled', clientOrderId: exit.state.pending!.id, side: 'sell', price: money('60000'), amount: money('0.00083') }, view).state;
    expect(s.phase).toBe('done'); // no repeat: its rule is done, a signal starts it again
    expect(orders(decideCustom(s, signal('buy'), view).intents)).toEqual(['buy open 50']);
  });

  it('custom, signals only: its entry rule never buys (an empty one is valid), a buy signal does', () => {
    // A rule that holds on every minute: a bot that read it would buy at the first close.
    const always = { join: 'and' as const, conditions: [{ left: { kind: 'price' as const }, op: '>' as const, right: { kind: 'value' as const, value: '1' } }] };
    const params: CustomParams = { investment: '100', size: { kind: 'fixed', quote: '50' }, entry: always, takeProfit: '5', repeat: true, signalsOnly: true };
    const view = { params, market };
    let s: CustomState = initialCustomState(botId('s'));
    const T = Date.UTC(2026, 0, 1);
    for (let m = 0; m < 5; m++) {
      const out = decideCustom(s, { type: 'CandleClosed', time: T + m * 60_000, open: 60000, high: 60100, low: 59900, close: 60000 }, view);
      expect(out.intents.filter((i) => i.type === 'PlaceOrder')).toEqual([]);
      s = out.state;
    }
    expect(orders(decideCustom(s, signal('buy'), view).intents)).toEqual(['buy open 50']);
    // The same rule without signals only buys at a close.
    const plain = { params: { ...params, signalsOnly: undefined }, market };
    const bought = decideCustom(initialCustomState(botId('p')), { type: 'CandleClosed', time: T, open: 60000, high: 60100, low: 59900, close: 60000 }, plain);
    expect(orders(bought.intents)).toEqual(['buy open 50']);
    // No condition at all: valid with signals only, refused without.
    const empty = { join: 'and' as const, conditions: [] };
    expect(validateCustom({ ...params, entry: empty }).filter((p) => p.field.startsWith('entry'))).toEqual([]);
    expect(validateCustom({ ...params, entry: empty, signalsOnly: false }).some((p) => p.field === 'entry.conditions')).toBe(true);
  });

  it('martin (and grid) ignore signals', () => {
    const params: MartinParams = { investment: '1000', firstOrder: '100', multiplier: '2', maxPositions: 3, addTrigger: '2', takeProfit: '1', repeat: true } as MartinParams;
    const event: EngineEvent = signal('buy');
    expect(decideMartin(initialMartinState(botId('m')), event, { params, market } as never).intents).toEqual([]);
  });
});
