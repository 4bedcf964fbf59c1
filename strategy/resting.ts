import type Decimal from 'decimal.js';
import type { ClientOrderId, PlaceOrder, Side } from './types.ts';

/**
 * A limit order a bot's state wants resting on its venue, at one of its trigger prices (a grid level, a
 * martin add or take profit): the orders real grid and DCA bots keep on the book, filled at their price as
 * a maker, where a market order sent when the price crosses the level pays the taker fee and the slippage
 * past it. The engine keeps the venue's open orders in line with them (server/engine/resting-plan.ts).
 * `slot` names the place in the bot's plan the order stands for ("L3": the grid's level 3): an order is
 * replaced when its own slot wants another side, price or amount, never because another slot moved.
 */
export interface RestingOrder {
  slot: string;
  side: Side;
  price: Decimal;
  /** Base, at the market's step. */
  amount: Decimal;
  reason: PlaceOrder['reason'];
}

/**
 * A bot type's resting orders, as the engine keeps them (server/engine/resting.ts). The strategy itself
 * stays one of trigger prices: a resting order stands for the order it would send at its slot's trigger,
 * placed ahead, and its fill is taken in by decide's own OrderFilled, with the resting order made the
 * order in flight (`inFlight`). The books are then what the backtest's fill at the trigger gives.
 */
export interface RestingKit<S, V> {
  /** The limit orders the state wants resting now. */
  wanted(state: S, view: V): RestingOrder[];
  /** The slot the state's order in flight stands for (an order decided at a slot's trigger); null: none, or an order no slot rests for (an exit, an open). */
  slotOf(state: S): string | null;
  /**
   * The state with the slot's resting order `id` (a `side` order) as its order in flight, as if it had
   * been decided at the slot's trigger: decide's OrderFilled then takes its fill in. Null when the state
   * has an order in flight, or the slot stands for no such order of it any more. `at`: the market time
   * (ms) the engine books the fill at, as onPrice's `at` (a DCA deal's cooldown counts from its close).
   */
  inFlight(state: S, slot: string, id: ClientOrderId, side: Side, at?: number): S | null;
}
