import type Decimal from 'decimal.js';
import { money } from '../../strategy/money.ts';

// ccxt's numbers are read by the live venues (exchanges/live.ts) and the live price feed
// (market/live-feed.ts) alike; the parser lives in the market, the lower layer of the two.

/** An exact decimal from whatever ccxt hands over: number, numeric string, exponent string, "" or nothing. */
export function dec(value: unknown): Decimal | null {
  if (value === undefined || value === null || value === '') return null;
  const text = typeof value === 'number' ? (Number.isFinite(value) ? String(value) : '') : String(value).trim();
  if (!/^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(text)) return null;
  return money(text);
}
