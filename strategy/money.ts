import Decimal from 'decimal.js';

/**
 * Exact decimal money for the engine: prices, amounts and balances are decimal
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
  return toStep(value, step, Decimal.ROUND_DOWN);
}

/** The smallest multiple of `step` at or above `value` (take-profit prices: at least the target). */
export function ceilTo(value: Decimal, step: Decimal): Decimal {
  return toStep(value, step, Decimal.ROUND_UP);
}

/**
 * `value` rounded to a multiple of `step`. A step that is a power of ten (0.01, 0.00001: nearly every
 * market's tick and step) is a number of decimal places, and cutting digits gives the very multiple a
 * division by the step would (neither rounds to the precision), without the division: the costliest
 * step of a backtest's fill. Any other step divides.
 */
function toStep(value: Decimal, step: Decimal, rounding: Decimal.Rounding): Decimal {
  const places = placesOf(step);
  if (places >= 0) return value.toDecimalPlaces(places, rounding);
  return value.toNearest(step, rounding);
}

const placesOfStep = new WeakMap<Decimal, number>();

/** The decimal places of a step that is 1, 0.1, 0.01, ...; -1 for any other step. */
function placesOf(step: Decimal): number {
  let places = placesOfStep.get(step);
  if (places === undefined) {
    const dp = step.decimalPlaces();
    places = step.toFixed() === (dp === 0 ? '1' : `0.${'0'.repeat(dp - 1)}1`) ? dp : -1;
    placesOfStep.set(step, places);
  }
  return places;
}

const lastDecimals: (Decimal | null)[] = [null, null, null, null];
const lastDoubles = new Float64Array(4);
let lastSlot = 0;

/**
 * A price as its nearest double. Trigger prices are compared as doubles (the engine's book, every
 * backtest's walk), and a kit's triggers and the walk that reads them ask for the same decimal one right
 * after the other: the last four are known by identity, which costs less than a parse of the string.
 */
export function doubleOf(d: Decimal): number {
  for (let i = 0; i < 4; i++) if (lastDecimals[i] === d) return lastDoubles[i]!;
  const n = Number(d.toString());
  lastDecimals[lastSlot] = d;
  lastDoubles[lastSlot] = n;
  lastSlot = (lastSlot + 1) & 3;
  return n;
}

/** A decimal as its plain string, never in exponent form ("0.00000001", not "1e-8"). */
export function toPlain(value: Decimal): string {
  return value.toFixed();
}

/**
 * 1 - percent/100 and 1 + percent/100 of a percentage string ("2" for 2 %), the factors every trigger
 * price is built from. A backtest asks for the same few at every fill, and a parse and an exact
 * division cost more than the multiplication they feed, so each is made once and kept (a decimal is
 * immutable; the table is emptied when it grows past a few hundred, a bound no set of bots reaches
 * between two fills).
 */
export function belowPercent(percent: string): Decimal {
  return factor('-', percent);
}

/** 1 + percent/100 (belowPercent). */
export function abovePercent(percent: string): Decimal {
  return factor('+', percent);
}

const factors = new Map<string, Decimal>();
const ONE = new Money(1);
const HUNDRED = new Money(100);

function factor(sign: '-' | '+', percent: string): Decimal {
  const key = sign + percent;
  let known = factors.get(key);
  if (known === undefined) {
    if (factors.size >= 512) factors.clear();
    const fraction = new Money(percent).div(HUNDRED);
    known = sign === '-' ? ONE.minus(fraction) : ONE.plus(fraction);
    factors.set(key, known);
  }
  return known;
}
