import Decimal from 'decimal.js';

/**
 * The fake exchange's own exact decimals, apart from the engine's (strategy/money.ts): a test compares
 * what the product computed with what the exchange booked, so the two sides share no arithmetic.
 */
export const Dec = Decimal.clone({ precision: 40, rounding: Decimal.ROUND_HALF_UP, toExpNeg: -30, toExpPos: 40 });

export const dec = (value: string | number | Decimal): Decimal => new Dec(value);

export const ZERO = dec(0);

/** Binance writes every price, quantity and balance as a string with 8 decimals ("0.00100000"). */
export const fmt = (value: Decimal): string => value.toFixed(8);

/** The form Binance accepts for a decimal parameter: digits, an optional fraction. */
const DECIMAL_PARAM = /^([0-9]{1,20})(\.[0-9]{1,20})?$/;

/** A decimal parameter as Binance reads it, or what is wrong with it. */
export function decimalParam(text: string): { value: Decimal } | { wrong: 'characters' | 'precision' } {
  if (!DECIMAL_PARAM.test(text)) return { wrong: 'characters' };
  const value = dec(text);
  if (value.decimalPlaces() > 8) return { wrong: 'precision' };
  return { value };
}

/** Whether `value` is a whole multiple of `step`. */
export const onStep = (value: Decimal, step: Decimal): boolean => value.mod(step).isZero();

/** The largest multiple of `step` at or below `value`. */
export const floorTo = (value: Decimal, step: Decimal): Decimal => value.div(step).floor().mul(step);
