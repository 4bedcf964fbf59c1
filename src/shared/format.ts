/**
 * Display formatting of the exact decimal strings the server sends. Intl formats a numeric string
 * exactly (no float round trip), so "0.30000000000000004"-style noise can never appear on screen.
 */
const formats = new Map<string, Intl.NumberFormat>();

function formatter(locale: string, max: number, signed: boolean, min = 0): Intl.NumberFormat {
  const key = `${locale}:${max}:${signed}:${min}`;
  let f = formats.get(key);
  if (!f) {
    f = new Intl.NumberFormat(locale === 'zh' ? 'zh-CN' : 'en-US', { minimumFractionDigits: min, maximumFractionDigits: max, signDisplay: signed ? 'exceptZero' : 'auto' });
    formats.set(key, f);
  }
  return f;
}

/** A decimal string for display, at most `max` decimals; an empty or null value shows as a dash. */
export function num(value: string | number | null | undefined, locale: string, max = 4): string {
  if (value === null || value === undefined || value === '') return '—';
  return formatter(locale, max, false).format(value as unknown as number);
}

/** A profit with its sign (+1.23, -0.5, 0). */
export function signed(value: string | number | null | undefined, locale: string, max = 4): string {
  if (value === null || value === undefined || value === '') return '—';
  return formatter(locale, max, true).format(value as unknown as number);
}

/**
 * The precision of each kind of figure (issue 14: one module decides): USDT and other stable coins at
 * 2 decimals at most, a coin's amount at 8, a percentage always at 2 with its sign.
 */
const STABLE = new Set(['USDT', 'USDC', 'BUSD', 'FDUSD', 'DAI']);

/** A USDT (or other stable coin) sum: at most 2 decimals ("9,980.4" not "9,980.4041219"). */
export function usdt(value: string | number | null | undefined, locale: string): string {
  return num(value, locale, 2);
}

/** An amount of `currency`: a stable coin at 2 decimals at most, any other coin at 8. */
export function assetAmount(value: string | number | null | undefined, currency: string, locale: string): string {
  return num(value, locale, STABLE.has(currency.toUpperCase()) ? 2 : 8);
}

/** A change in percent with its sign, always 2 decimals: "+4.20%", "-0.63%", "0.00%". */
export function pct(value: string | number | null | undefined, locale: string): string {
  if (value === null || value === undefined || value === '') return '—';
  return `${formatter(locale, 2, true, 2).format(value as unknown as number)}%`;
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
