import type Decimal from 'decimal.js';
import type { PlaceOrder, Side } from './types.ts';

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
