import type { CandleData } from './market.ts';

/**
 * A pair's candles ending at its price: the last (forming) candle's close set to that price and its
 * range widened to hold it. A price and candles read at two moments (a live exchange's ticker and its
 * candles, a bot's price every 3 s beside candles every 15 s) drew a chart that ended elsewhere than the
 * price shown above it. The server answers a pair so; a screen showing a fresher price does the same.
 */
export function endAtPrice(history: CandleData[], price: string | null | undefined): CandleData[] {
  const last = history.at(-1);
  if (!last || !price || last.close === price) return history;
  const p = Number(price);
  if (!Number.isFinite(p)) return history;
  const high = Number(last.high) >= p ? last.high : price;
  const low = Number(last.low) <= p ? last.low : price;
  return [...history.slice(0, -1), { ...last, close: price, high, low }];
}
