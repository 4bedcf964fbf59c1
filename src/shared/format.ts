import { formatDecimal } from './decimal-display.ts';

/**
 * Display formatting of the exact decimal strings the server sends: on their digits as text
 * (decimal-display.ts), so "0.30000000000000004"-style noise can never appear on screen. Chinese and
 * English write figures alike ("1,234.5"), so `locale` only chooses the texts around them.
 */
/** At most `max` decimals (at least `min`); `signed`: + before a gain; `down`: cut, not rounded. */
function fmt(value: string | number, max: number, signed = false, min = 0, down = false): string {
  return formatDecimal(value, { min, max, signed, down });
}

/** A decimal string for display, at most `max` decimals; an empty or null value shows as a dash. */
export function num(value: string | number | null | undefined, _locale: string, max = 4): string {
  if (value === null || value === undefined || value === '') return '—';
  return fmt(value, max, false);
}

/** A profit with its sign (+1.23, -0.5, 0). */
export function signed(value: string | number | null | undefined, _locale: string, max = 4): string {
  if (value === null || value === undefined || value === '') return '—';
  return fmt(value, max, true);
}

/**
 * The precision of each kind of figure (one module decides), as exchanges show them: USDT and other
 * stable coins at exactly 2 decimals ("105.50", never "105.5"), a coin's amount at the market's step
 * (at most 8 where the pair is not known), a price at the pair's tick, fuel and rewards at 2-4, a
 * percentage always at 2; thousands grouped by ",". tests/number-formats checks the screens by these rules.
 */
const STABLE = new Set(['USDT', 'USDC', 'BUSD', 'FDUSD', 'DAI']);

/** Whether a currency is a stable coin, written as a USDT sum (2 decimals) wherever it shows. */
export function isStable(currency: string): boolean {
  return STABLE.has(currency.toUpperCase());
}

/** A USDT (or other stable coin) sum: exactly 2 decimals ("9,980.40" not "9,980.4041219" or "9,980.4"). */
export function usdt(value: string | number | null | undefined, _locale: string): string {
  if (value === null || value === undefined || value === '') return '—';
  const shown = fmt(value, 2, false, 2);
  // A sum that rounds to nothing has no sign (Intl writes "-0.00").
  return shown === '-0.00' ? '0.00' : shown;
}

/** A profit in USDT: its sign and exactly 2 decimals ("+12.50", "-0.70", "0.00"). */
export function profit(value: string | number | null | undefined, _locale: string): string {
  if (value === null || value === undefined || value === '') return '—';
  return fmt(value, 2, true, 2);
}

/** An amount of `currency`: a stable coin at exactly 2 decimals, any other coin at 8 at most. */
export function assetAmount(value: string | number | null | undefined, currency: string, locale: string): string {
  return isStable(currency) ? usdt(value, locale) : num(value, locale, 8);
}

/**
 * The decimals a market's tick or step allows: "0.01" -> 2, "1" -> 0, "0.00010000" -> 4, "1e-8" -> 8;
 * undefined for no step (or one that is not a positive decimal).
 */
export function decimalsOf(step: string | null | undefined): number | undefined {
  if (!step) return undefined;
  const n = Number(step);
  if (!Number.isFinite(n) || n <= 0) return undefined;
  const exp = /e-(\d+)$/i.exec(step);
  if (exp) return Math.min(20, Number(exp[1]) + ((step.split('e')[0]!.split('.')[1] ?? '').length || 0));
  const fraction = (step.split('.')[1] ?? '').replace(/0+$/, '');
  return Math.min(20, fraction.length);
}

/**
 * A price: at the pair's tick when it is known (every decimal the tick allows, as exchanges show it:
 * "63,995.20" at 0.01), otherwise by size (2 decimals from 1,000 up, 4 from 1, 8 below), never
 * "63,995.206667", keeping the decimals a price string was sent with (a ticker's "64715.80" is at its
 * tick: "64,715.80", not "64,715.8").
 */
export function price(value: string | number | null | undefined, _locale: string, tick?: string | null): string {
  if (value === null || value === undefined || value === '') return '—';
  const d = decimalsOf(tick);
  if (d !== undefined) return fmt(value, d, false, d);
  const size = Math.abs(Number(value));
  const max = size >= 1000 ? 2 : size >= 1 ? 4 : 8;
  const sent = typeof value === 'string' ? (/\.(\d+)$/.exec(value.trim())?.[1]?.length ?? 0) : 0;
  return fmt(value, max, false, Math.min(sent, max));
}

/**
 * An amount of the pair's base coin: at the market's step when known, every decimal it allows
 * ("0.0012" and "0.0010" at 0.0001), else at 8 at most; cut, not rounded up (a holding is never shown
 * larger than it is, as exchanges show what can be sold).
 */
export function amount(value: string | number | null | undefined, _locale: string, step?: string | null): string {
  if (value === null || value === undefined || value === '') return '—';
  const d = decimalsOf(step);
  return d === undefined ? fmt(value, 8, false, 0, true) : fmt(value, d, false, d, true);
}

/** Fuel and rewards: at least 2 decimals, at most 4 ("12.50", "0.0375"). */
export function fuel(value: string | number | null | undefined, _locale: string): string {
  if (value === null || value === undefined || value === '') return '—';
  return fmt(value, 4, false, 2);
}

/**
 * An amount of one of the platform's own balances: USDT at 2 decimals at most, fuel, points and rewards
 * at 2-4; `sign` adds + to a credit (the account logs).
 */
export function platformAmount(value: string | number | null | undefined, unit: 'usdt' | 'fuel' | 'points' | 'rewards', locale: string, sign = false): string {
  if (value === null || value === undefined || value === '') return '—';
  if (unit === 'usdt') return sign ? profit(value, locale) : usdt(value, locale);
  return fmt(value, 4, sign, 2);
}

/** A change in percent with its sign, always 2 decimals: "+4.20%", "-0.63%", "0.00%". */
export function pct(value: string | number | null | undefined, _locale: string): string {
  if (value === null || value === undefined || value === '') return '—';
  return `${fmt(value, 2, true, 2)}%`;
}

/** A share in percent without a sign, always 2 decimals: "5.30%" (a drawdown, a grid's profit per level). */
export function percent(value: string | number | null | undefined, _locale: string): string {
  if (value === null || value === undefined || value === '') return '—';
  return `${fmt(value, 2, false, 2)}%`;
}

/** Whether a decimal string is above, below or at zero (for the profit colour). */
export function trend(value: string | number | null | undefined): 'up' | 'down' | 'flat' {
  const n = Number(value ?? 0);
  return n > 0 ? 'up' : n < 0 ? 'down' : 'flat';
}

/** A time as the trader's clock shows it: "11-22 14:05:09". */
export function time(iso: string | null | undefined): string {
  if (!iso) return '—';
  const d = new Date(iso);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
}

const dateTimes = new Map<string, Intl.DateTimeFormat>();

/** A moment with its date, in the trader's time zone: "2026/11/24 21:55" (zh), "Nov 24, 2026, 9:55 PM" (en). */
export function dateTime(iso: string | null | undefined, locale: string): string {
  if (!iso) return '—';
  let f = dateTimes.get(locale);
  if (!f) {
    f =
      locale === 'zh'
        ? new Intl.DateTimeFormat('zh-CN', { year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hour12: false })
        : new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' });
    dateTimes.set(locale, f);
  }
  return f.format(new Date(iso));
}

const relatives = new Map<string, Intl.RelativeTimeFormat>();

/** How long ago a moment was, in words: "12 秒前" / "12 seconds ago", in minutes past a minute, hours past an hour. */
export function ago(iso: string, locale: string, now = Date.now()): string {
  let f = relatives.get(locale);
  if (!f) {
    f = new Intl.RelativeTimeFormat(locale === 'zh' ? 'zh-CN' : 'en-US', { numeric: 'always' });
    relatives.set(locale, f);
  }
  const seconds = Math.max(0, Math.round((now - new Date(iso).getTime()) / 1000));
  if (seconds < 60) return f.format(-seconds, 'second');
  if (seconds < 3600) return f.format(-Math.floor(seconds / 60), 'minute');
  return f.format(-Math.floor(seconds / 3600), 'hour');
}
