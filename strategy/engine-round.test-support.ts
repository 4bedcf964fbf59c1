import type Decimal from 'decimal.js';
import { crossedTrigger, type KitState, type StrategyKit } from './kit.ts';
import { buyAmount } from './core/position.ts';
import { restingFill } from './resting-fill.ts';
import type { Intent, PlaceOrder, Side } from './types.ts';

export interface RoundFill {
  reason: PlaceOrder['reason'];
  side: Side;
  amount: Decimal;
  price: Decimal;
}

/**
 * One price round as the live engine takes it, the reference every backtest is checked against: the
 * bot is asked only when the price is on or past one of its triggers (or it waits to open); a crossed
 * trigger is decided at the trigger price itself (server/engine/bot-book.ts) and its order filled as
 * Paper fills it (restingFill: at the trigger, never better than the price), and a take profit that only
 * armed a trailing exit is told the price above it too; any other decision at the price. Asked again at the same price until it rests, as the backtests' walk asks (the engine asks on
 * its next rounds, at the same price while the market stays); `once`: one decision, as one round of the
 * engine is. `at`: the market's time, for strategies that read it. `seen` gets every intent the strategy
 * gave, for tests that follow trailing steps.
 */
export function engineRound<S extends KitState, V>(
  kit: StrategyKit<S, V>,
  start: S,
  view: V,
  price: Decimal,
  stepSize: Decimal,
  options: { at?: number; once?: boolean; seen?: (intent: Intent, decidedAt: Decimal) => void } = {},
): { state: S; fills: RoundFill[] } {
  const { at, once, seen } = options;
  let state = start;
  const fills: RoundFill[] = [];
  const x = Number(price.toString());
  for (let guard = 0; guard < (once ? 1 : 1000); guard++) {
    const t = kit.triggers(state, view);
    if (!t.asks && x > t.down && x < t.up) break;
    const trigger = crossedTrigger(t, x);
    const decidedAt = trigger ?? price;
    const asked = kit.decide(state, { type: 'PriceTicked', price: decidedAt, ...(at === undefined ? {} : { at }), ...(trigger ? { market: price } : {}) }, view);
    state = asked.state;
    for (const intent of asked.intents) seen?.(intent, decidedAt);
    const order = asked.intents.find((i): i is PlaceOrder => i.type === 'PlaceOrder');
    // A trailing exit armed at its take profit: the round's own price above it raises the followed high (bot-book.ts).
    if (!order && trigger && price.gt(trigger)) {
      const then = kit.decide(state, { type: 'PriceTicked', price }, view);
      state = then.state;
      for (const intent of then.intents) seen?.(intent, price);
    }
    if (!order) break;
    const fillPrice = trigger ? restingFill(trigger, price, order.side) : price;
    const amount = order.side === 'buy' ? buyAmount(order.quote!, fillPrice, stepSize) : order.amount!;
    fills.push({ reason: order.reason, side: order.side, amount, price: fillPrice });
    const filled = kit.decide(state, { type: 'OrderFilled', clientOrderId: order.clientOrderId, side: order.side, price: fillPrice, amount }, view);
    state = filled.state;
    for (const intent of filled.intents) seen?.(intent, fillPrice);
  }
  return { state, fills };
}
