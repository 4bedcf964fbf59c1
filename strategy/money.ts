import Decimal from 'decimal.js';

/**
 * Exact decimal money for the engine (architecture §4): prices, amounts and balances are decimal
 * strings at every boundary and Decimal inside. 40 significant digits leave every division of crypto
 * prices and amounts exact to far beyond any market's precision; rounding to a market's tick or step
 * happens once, explicitly, where an order or a trigger is built.
 */
export const Money = Decimal.clone({ precision: 40, rounding: Decimal.ROUND_HALF_EVEN, toExpNeg: -30, toExpPos: 40 });
export type Money = Decimal;

/** A decimal from a string (or an integer); a float is refused: binary fractions are not money. */
export function money(value: string | number | Decimal): Decimal {
  if (typeof value === 'number' && !Number.isInteger(value)) throw new TypeError(`not exact money: ${value}`);
  return new Money(value);
}

/** The largest multiple of `step` at or below `value` (amounts to sell or buy, trigger prices). */
export function floorTo(value: Decimal, step: Decimal): Decimal {
  return value.toNearest(step, Decimal.ROUND_DOWN);
}

/** The smallest multiple of `step` at or above `value` (take-profit prices: at least the target). */
export function ceilTo(value: Decimal, step: Decimal): Decimal {
  return value.toNearest(step, Decimal.ROUND_UP);
}

/** A decimal as its plain string, never in exponent form ("0.00000001", not "1e-8"). */
export function toPlain(value: Decimal): string {
  return value.toFixed();
}
