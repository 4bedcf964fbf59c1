import type Decimal from 'decimal.js';
import type { Side } from './types.ts';

/**
 * The price an order resting at a trigger price fills at once the market has moved to `market`
 *: the worse of the two for the trader, a buy at the higher, a sell at the lower.
 * - A buy level or an add the price fell through, a take profit or a sell level it rose through: at the
 *   trigger, as a limit order waiting on the book there, not at the overshoot past it.
 * - A stop or a trailing line a sale waits at, the price falling through it: at the market's price
 *   below it, as a stop order gets.
 * - Never better than the market: a trigger on the wrong side of the market fills at the market.
 * The live engine's orders on Paper (server/exchanges/paper-fill.ts) and every backtest's jumps
 * (backtest.ts replayCandles) fill by this one rule, so that both agree.
 */
export function restingFill(trigger: Decimal, market: Decimal, side: Side): Decimal {
  if (side === 'buy') return trigger.gt(market) ? trigger : market;
  return trigger.lt(market) ? trigger : market;
}
