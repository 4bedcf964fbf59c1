import { describe, expect, it } from 'vitest';
import type Decimal from 'decimal.js';
import { money, toPlain } from '../money.ts';
import { botId, type EngineEvent, type Intent } from '../types.ts';
import type { MartinParams } from './rules.ts';
import type { MarketRules } from '../core/market.ts';
import { buyAmount } from '../core/position.ts';
import { decideMartin, initialMartinState, type MartinState } from './strategy.ts';

const market: MarketRules = { tickSize: money('0.01'), stepSize: money('0.00001'), minAmount: money('0.00001'), minCost: money('5'), feeRate: money('0.001') };
const params: MartinParams = { investment: '700', firstOrder: '100', multiplier: '2', maxPositions: 3, addTrigger: '2', takeProfit: '1.5', repeat: true };
const view = { params, market };

/** Replays a price path; market orders fill at once at the tick's price. Returns the journal. */
function replay(prices: string[], p: MartinParams = params) {
  let state: MartinState = initialMartinState(botId('b7'));
  const journal: string[] = [];
  const run = (event: EngineEvent, price: Decimal) => {
    const out = decideMartin(state, event, { ...view, params: p });
    state = out.state;
    for (const intent of out.intents as Intent[]) {
      if (intent.type === 'PlaceOrder') {
        const amount = intent.side === 'buy' ? buyAmount(intent.quote!, price, market.stepSize) : intent.amount!;
        journal.push(`${intent.clientOrderId} ${intent.reason} ${intent.side} ${toPlain(amount)} @ ${toPlain(price)}`);
        run({ type: 'OrderFilled', clientOrderId: intent.clientOrderId, side: intent.side, price, amount }, price);
      } else if (intent.type === 'CycleClosed') {
        journal.push(`cycle ${intent.cycle} closed, profit ${toPlain(intent.profit)}`);
      }
    }
  };
  for (const price of prices) run({ type: 'PriceTicked', price: money(price) }, money(price));
  return { journal, state };
}

describe('the martin strategy replayed on a price path', () => {
  it('opens, adds at each 2% drop up to max positions, takes profit, and starts again', () => {
    const { journal, state } = replay(['60000', '59000', '58800', '58500', '57624', '57000', '58000', '59160.16', '60000', '61000']);
    expect(journal).toEqual([
      'b7-1-1 open buy 0.00166 @ 60000',
      'b7-1-2 add buy 0.0034 @ 58800',
      'b7-1-3 add buy 0.00694 @ 57624',
      'b7-1-4 close sell 0.01198 @ 60000',
      // 699.43056 spent; 0.011988 held after base fees, 0.01198 sold for 718.0812: the books count the quote,
      // so the 0.000008 BTC left is the bot's coin at no cost, sold with a later close.
      'cycle 1 closed, profit 18.65064',
      'b7-2-1 open buy 0.00163 @ 61000',
    ]);
    expect(state).toMatchObject({ phase: 'holding', cycle: 2, seq: 1 });
    expect(toPlain(state.realized)).toBe('18.65064');
    expect([toPlain(state.carry), toPlain(state.carryCost)]).toEqual(['0.000008', '0']);
  });

  it('takes profit after one add when the price comes back (avg 59193.6758.. -> 60081.59)', () => {
    const { journal } = replay(['60000', '58800', '60081.58', '60081.59']);
    expect(journal.slice(2, 3)).toEqual(['b7-1-3 close sell 0.00505 @ 60081.59']);
  });

  it('stops out at a loss and stays done when repeat is off', () => {
    const { journal, state } = replay(['60000', '58800', '57624', '55000', '54000', '60000'], { ...params, stopLoss: '5', repeat: false });
    // avg 58285.88 x 0.95 = 55371.586 -> 55371.58: 55000 stops; 0.01198 sold: 0.01198 x 55000 x 0.999 - 698.96380621
    expect(journal.slice(3)).toEqual(['b7-1-4 stop sell 0.01198 @ 55000', 'cycle 1 closed, profit -41.18946']);
    expect(state.phase).toBe('done');
  });

  it('ignores fills it did not ask for and pauses when an order is rejected', () => {
    let state = initialMartinState(botId('b8'));
    const opened = decideMartin(state, { type: 'PriceTicked', price: money('60000') }, view);
    state = opened.state;
    const stray = decideMartin(state, { type: 'OrderFilled', clientOrderId: 'b8-9-9' as never, side: 'buy', price: money(1), amount: money(1) }, view);
    expect(stray.state).toBe(state);
    const rejected = decideMartin(state, { type: 'OrderRejected', clientOrderId: state.pending!.id, reason: 'insufficient balance' }, view);
    expect(rejected.intents).toEqual([{ type: 'PauseBot', reason: 'insufficient balance' }]);
    expect(rejected.state.pending).toBeNull();
  });

  it('places no second order while one is in flight', () => {
    const first = decideMartin(initialMartinState(botId('b9')), { type: 'PriceTicked', price: money('60000') }, view);
    const again = decideMartin(first.state, { type: 'PriceTicked', price: money('50000') }, view);
    expect(again.intents).toEqual([]);
  });
});

describe('a partial close by hand', () => {
  /** Opens at 60000 and adds at 58800: 0.00166 + 0.0034 BTC, average 59205.73.., take profit 60093.82. */
  function holding() {
    let state = initialMartinState(botId('p1'));
    for (const price of ['60000', '58800']) {
      const placed = decideMartin(state, { type: 'PriceTicked', price: money(price) }, view);
      const order = placed.intents[0] as Extract<Intent, { type: 'PlaceOrder' }>;
      state = decideMartin(
        placed.state,
        { type: 'OrderFilled', clientOrderId: order.clientOrderId, side: 'buy', price: money(price), amount: buyAmount(order.quote!, money(price), market.stepSize) },
        view,
      ).state;
    }
    return state;
  }

  it('sells the part asked under the next client order id, then keeps the cycle open with the same targets and the part’s profit realised', () => {
    const before = holding();
    const asked = decideMartin(before, { type: 'ManualCloseRequested', price: money('59500'), part: { amount: money('0.00252'), share: '50' } }, view);
    expect(asked.intents).toEqual([{ type: 'PlaceOrder', clientOrderId: 'p1-1-3', side: 'sell', amount: money('0.00252'), reason: 'manual_close' }]);
    expect(asked.state.pending).toEqual({ id: 'p1-1-3', reason: 'manual_close', share: '50' });
    const filled = decideMartin(asked.state, { type: 'OrderFilled', clientOrderId: 'p1-1-3' as never, side: 'sell', price: money('59500'), amount: money('0.00252') }, view);
    // Held 0.00505494; 0.00252 sold for 149.79006; its cost 299.52 x 0.00252 / 0.00505494 = 149.31738062.
    expect(filled.intents).toEqual([{ type: 'PositionReduced', cycle: 1, profit: money('0.47267938'), share: '50' }]);
    const s = filled.state;
    expect([s.phase, s.cycle, s.pending, s.fills.length, toPlain(s.realized), toPlain(s.booked)]).toEqual(['holding', 1, null, 2, '0.47267938', '0.47267938']);
    expect(s.targets).toEqual(before.targets); // the average did not move: take profit, stop loss and next add stay
    // The rest closes at its take profit: the cycle's profit counts the part sold before, realised once.
    const tp = s.targets!.takeProfit;
    const closing = decideMartin(s, { type: 'PriceTicked', price: tp }, view);
    const sell = closing.intents[0] as Extract<Intent, { type: 'PlaceOrder' }>;
    expect([sell.reason, toPlain(sell.amount!)]).toEqual(['close', '0.00253']);
    const closed = decideMartin(closing.state, { type: 'OrderFilled', clientOrderId: sell.clientOrderId, side: 'sell', price: tp, amount: sell.amount! }, view);
    const cycle = closed.intents[0] as Extract<Intent, { type: 'CycleClosed' }>;
    const rest = closed.state.realized.minus(s.realized);
    expect(toPlain(cycle.profit)).toBe(toPlain(rest.plus(s.booked)));
    expect([closed.state.cycle, toPlain(closed.state.booked), toPlain(closed.state.realized)]).toEqual([2, '0', toPlain(cycle.profit)]);
  });

  it('closes everything as before when the part asked is the whole position', () => {
    const before = holding();
    const all = decideMartin(before, { type: 'ManualCloseRequested', price: money('59500') }, view);
    const same = decideMartin(before, { type: 'ManualCloseRequested', price: money('59500'), part: { amount: money('0.00505'), share: '100' } }, view);
    expect(same).toEqual(all);
    expect(all.state.pending).toEqual({ id: 'p1-1-3', reason: 'manual_close' });
  });
});
