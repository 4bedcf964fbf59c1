/**
 * Display formatting of the exact decimal strings the server sends. Intl formats a numeric string
 * exactly (no float round trip), so "0.30000000000000004"-style noise can never appear on screen.
 */
const formats = new Map<string, Intl.NumberFormat>();

function formatter(locale: string, max: number, signed: boolean): Intl.NumberFormat {
  const key = `${locale}:${max}:${signed}`;
  let f = formats.get(key);
  if (!f) {
    f = new Intl.NumberFormat(locale === 'zh' ? 'zh-CN' : 'en-US', { maximumFractionDigits: max, signDisplay: signed ? 'exceptZero' : 'auto' });
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
