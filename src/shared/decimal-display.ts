/**
 * Formats a decimal (the exact string the server sends, or a number) the way
 * `Intl.NumberFormat('zh-CN' | 'en-US', { minimumFractionDigits, maximumFractionDigits, signDisplay,
 * roundingMode })` does, on its digits as text: exact (no float round trip) and without Intl's cost.
 * Creating the first Intl.NumberFormat of a page loads ICU's number data: 36 ms on this machine's
 * Chromium, ~150 ms on a phone-speed CPU (Lighthouse's 4x), and it came before home's first figures
 *. Both languages group by thousands with "," and use "." and "-" (format.test.ts
 * checks the parity with Intl on many values and options).
 */
export interface DecimalDisplay {
  /** At least `min` and at most `max` decimals. */
  min: number;
  max: number;
  /** "+" before a positive figure and no sign on zero (Intl's signDisplay 'exceptZero'). */
  signed: boolean;
  /** Cut the extra decimals (Intl's roundingMode 'trunc') instead of rounding half away from zero. */
  down: boolean;
}

interface Parts {
  negative: boolean;
  /** Digits before the point, without leading zeros ("" for zero). */
  whole: string;
  /** Digits after the point. */
  fraction: string;
}

const DECIMAL = /^([+-]?)(\d*)(?:\.(\d*))?(?:e([+-]?\d+))?$/i;

/** The sign and digits of a decimal written plainly or with an exponent; undefined when not a number. */
function parse(value: string | number): Parts | undefined {
  const text = typeof value === 'number' ? (Object.is(value, -0) ? '-0' : String(value)) : value.trim();
  const m = DECIMAL.exec(text);
  if (!m || (m[2] === '' && (m[3] ?? '') === '')) return undefined;
  let digits = (m[2] ?? '') + (m[3] ?? '');
  // Where the point is, counted from the left of `digits`.
  let point = (m[2] ?? '').length + Number(m[4] ?? 0);
  if (point < 0) {
    digits = '0'.repeat(-point) + digits;
    point = 0;
  } else if (point > digits.length) digits += '0'.repeat(point - digits.length);
  return { negative: m[1] === '-', whole: digits.slice(0, point).replace(/^0+/, ''), fraction: digits.slice(point) };
}

/** Adds one to a string of digits ("199" -> "200", "" -> "1"). */
function increment(digits: string): string {
  const out = digits.split('');
  for (let i = out.length - 1; i >= 0; i--) {
    if (out[i] === '9') out[i] = '0';
    else {
      out[i] = String(Number(out[i]) + 1);
      return out.join('');
    }
  }
  return `1${out.join('')}`;
}

/** "1234567" -> "1,234,567". */
function group(whole: string): string {
  return whole.replace(/\B(?=(\d{3})+$)/g, ',');
}

export function formatDecimal(value: string | number, { min, max, signed, down }: DecimalDisplay): string {
  if (typeof value === 'number' && !Number.isFinite(value)) return Number.isNaN(value) ? 'NaN' : `${value < 0 ? '-' : signed ? '+' : ''}∞`;
  const parts = parse(value);
  if (!parts) return 'NaN';
  let { whole, fraction } = parts;
  if (fraction.length > max) {
    const roundUp = !down && (fraction[max] ?? '0') >= '5';
    fraction = fraction.slice(0, max);
    if (roundUp) {
      const bumped = increment(whole + fraction);
      whole = bumped.slice(0, bumped.length - max);
      fraction = bumped.slice(bumped.length - max);
    }
  }
  fraction = fraction.replace(/0+$/, '');
  if (fraction.length < min) fraction += '0'.repeat(min - fraction.length);
  whole = whole.replace(/^0+/, '');
  const zero = !/[1-9]/.test(whole + fraction);
  const sign = signed ? (zero ? '' : parts.negative ? '-' : '+') : parts.negative ? '-' : '';
  return `${sign}${group(whole || '0')}${fraction ? `.${fraction}` : ''}`;
}
