import type Decimal from 'decimal.js';
import { belowPercent, floorTo, money } from './money.ts';

/**
 * Trailing exits, for any strategy that holds a position bought in one or more fills
 * (martin, and later DCA and custom bots). Pure: the caller keeps the high in its state and asks at
 * each price. The rules (martin/README.md "Trailing take profit and trailing stop loss"):
 *
 * - trailing take profit: when the price reaches the take-profit price the exit is armed and the high
 *   since arming is followed; the sale fires when the price is at or below the trailing line
 *   `floor_tick(high x (1 - deviation / 100))`. The line is not floored at the take-profit price: a
 *   turn right after arming sells below it, at worst near `takeProfit x (1 - deviation / 100)`.
 * - trailing stop loss: the stop is `floor_tick(high x (1 - stopLoss / 100))` with the high since the
 *   position's entry; the high only rises, so the stop never moves down.
 */

const ONE = money(1);
const HUNDRED = money(100);

/** The price `percent`% below `high`, floored to the tick: a trailing take profit's line, or a trailing stop. */
export function trailLine(high: Decimal, percent: string, tick: Decimal): Decimal {
  return floorTo(high.mul(belowPercent(percent)), tick);
}

/**
 * What a price does to a trailing exit:
 * - idle: not armed (a take profit below its price);
 * - armed: the take-profit price was reached now (the high is this price);
 * - raised: a new high, the line moved up;
 * - held: armed, neither a new high nor a fall to the line;
 * - fired: the price is at or below the line: sell.
 */
export type TrailStep = { kind: 'idle' } | { kind: 'armed' | 'raised' | 'held' | 'fired'; high: Decimal; line: Decimal };

/**
 * The trailing take profit at `price`. `high`: the high since arming, null while not armed;
 * `takeProfit`: the take-profit price that arms it; `deviation`: the fall from the high, in percent.
 */
export function stepTrailingTakeProfit(high: Decimal | null, price: Decimal, takeProfit: Decimal, deviation: string, tick: Decimal): TrailStep {
  if (high === null) {
    if (price.lt(takeProfit)) return { kind: 'idle' };
    // The line of a price is below it (deviation > 0), so arming never fires at once.
    return { kind: 'armed', high: price, line: trailLine(price, deviation, tick) };
  }
  return follow(high, price, deviation, tick);
}

/**
 * The trailing stop loss at `price`. `high`: the high since the position's entry (its first fill's
 * price at the start); `stopLoss`: the fall from the high that sells, in percent.
 */
export function stepTrailingStop(high: Decimal, price: Decimal, stopLoss: string, tick: Decimal): Exclude<TrailStep, { kind: 'idle' | 'armed' }> {
  return follow(high, price, stopLoss, tick) as Exclude<TrailStep, { kind: 'idle' | 'armed' }>;
}

function follow(high: Decimal, price: Decimal, percent: string, tick: Decimal): TrailStep {
  const top = price.gt(high) ? price : high;
  const line = trailLine(top, percent, tick);
  if (price.lte(line)) return { kind: 'fired', high: top, line };
  return { kind: top === high ? 'held' : 'raised', high: top, line };
}

/**
 * The worst sale a trailing take profit can make, in percent over the average entry (before fees):
 * `((1 + takeProfit / 100) x (1 - deviation / 100) - 1) x 100`; 0 or less: it can sell at a loss
 * (the form warns). Without rounding to the tick.
 */
export function worstTrailingGain(takeProfit: string, deviation: string): Decimal {
  const tp = ONE.plus(money(takeProfit).div(HUNDRED));
  const dev = ONE.minus(money(deviation).div(HUNDRED));
  return tp.mul(dev).minus(ONE).mul(HUNDRED);
}
