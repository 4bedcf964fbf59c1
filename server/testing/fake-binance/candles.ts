import type Decimal from 'decimal.js';
import type { PricePoint, Trade } from './book.ts';
import { Dec, fmt, ZERO } from './numbers.ts';

/**
 * Candles and the 24-hour statistics, drawn from the price script (each price set is a market print)
 * and this account's own trades (the only volume the fake knows).
 */

/** Binance's kline intervals, in milliseconds (the calendar month, "1M", is not offered). */
export const INTERVALS: Record<string, number> = {
  '1s': 1000,
  '1m': 60_000,
  '3m': 180_000,
  '5m': 300_000,
  '15m': 900_000,
  '30m': 1_800_000,
  '1h': 3_600_000,
  '2h': 7_200_000,
  '4h': 14_400_000,
  '6h': 21_600_000,
  '8h': 28_800_000,
  '12h': 43_200_000,
  '1d': 86_400_000,
  '3d': 259_200_000,
  '1w': 604_800_000,
};

export interface KlineQuery {
  intervalMs: number;
  startTime: number | null;
  endTime: number | null;
  limit: number;
  now: number;
}

/** The rows of /api/v3/klines: [open time, open, high, low, close, volume, close time, quote volume, trades, taker buy base, taker buy quote, "0"]. */
export function klines(points: readonly PricePoint[], trades: readonly Trade[], q: KlineQuery): (string | number)[][] {
  const sorted = [...points].sort((a, b) => a.time - b.time);
  if (sorted.length === 0) return [];
  const ms = q.intervalMs;
  const first = Math.floor(sorted[0]!.time / ms) * ms;
  const lastOpen = Math.floor((q.endTime ?? q.now) / ms) * ms;
  const start = q.startTime !== null ? Math.max(first, Math.ceil(q.startTime / ms) * ms) : Math.max(first, lastOpen - (q.limit - 1) * ms);
  const rows: (string | number)[][] = [];
  let i = 0;
  let close: Decimal | null = null;
  while (i < sorted.length && sorted[i]!.time < start) close = sorted[i++]!.price;
  for (let open = start; open <= lastOpen && rows.length < q.limit; open += ms) {
    const end = open + ms;
    const o: Decimal = close ?? sorted[i]!.price;
    let high = o;
    let low = o;
    while (i < sorted.length && sorted[i]!.time < end) {
      const p = sorted[i++]!.price;
      high = Dec.max(high, p);
      low = Dec.min(low, p);
      close = p;
    }
    close ??= o;
    const inside = trades.filter((t) => t.time >= open && t.time < end);
    const takerBuys = inside.filter((t) => t.isBuyer !== t.isMaker);
    const sum = (ts: readonly Trade[], pick: (t: Trade) => Decimal) => ts.reduce((s, t) => s.plus(pick(t)), ZERO);
    rows.push([
      open,
      fmt(o),
      fmt(high),
      fmt(low),
      fmt(close),
      fmt(sum(inside, (t) => t.qty)),
      end - 1,
      fmt(sum(inside, (t) => t.quoteQty)),
      inside.length,
      fmt(sum(takerBuys, (t) => t.qty)),
      fmt(sum(takerBuys, (t) => t.quoteQty)),
      '0',
    ]);
  }
  return rows;
}

export interface DayStats {
  open: Decimal;
  high: Decimal;
  low: Decimal;
  last: Decimal;
  prevClose: Decimal;
  volume: Decimal;
  quoteVolume: Decimal;
  openTime: number;
  closeTime: number;
  trades: readonly Trade[];
}

/** The rolling 24 hours up to `now`: the open is the price standing when the window began (or the first print in it). */
export function dayStats(points: readonly PricePoint[], trades: readonly Trade[], now: number): DayStats {
  const sorted = [...points].sort((a, b) => a.time - b.time);
  const openTime = now - 86_400_000;
  const before = sorted.filter((p) => p.time <= openTime);
  const inside = sorted.filter((p) => p.time > openTime);
  const open = (before[before.length - 1] ?? inside[0] ?? sorted[0]!).price;
  const last = sorted[sorted.length - 1]!.price;
  const prices = [open, ...inside.map((p) => p.price)];
  const dayTrades = trades.filter((t) => t.time > openTime && t.time <= now);
  return {
    open,
    high: Dec.max(...prices),
    low: Dec.min(...prices),
    last,
    prevClose: (sorted[sorted.length - 2] ?? sorted[sorted.length - 1]!).price,
    volume: dayTrades.reduce((s, t) => s.plus(t.qty), ZERO),
    quoteVolume: dayTrades.reduce((s, t) => s.plus(t.quoteQty), ZERO),
    openTime,
    closeTime: now,
    trades: dayTrades,
  };
}
