import { type BinanceError, tooManyOrders, tooMuchWeight } from './errors.ts';

/**
 * Binance's request-weight and order-count limits, in fixed windows of the server's clock (a minute,
 * ten seconds, a day), reported on every answer in its headers: x-mbx-used-weight(-1m) always,
 * x-mbx-order-count-10s / -1d on order placements. A request over a limit is refused with 429 and a
 * Retry-After (seconds to the window's end), and not carried out.
 */
export interface RateLimits {
  weightPerMinute: number;
  ordersPer10s: number;
  ordersPerDay: number;
}

export const BINANCE_LIMITS: RateLimits = { weightPerMinute: 6000, ordersPer10s: 100, ordersPerDay: 200_000 };

class Window {
  private readonly ms: number;
  private start = -1;
  used = 0;

  constructor(ms: number) {
    this.ms = ms;
  }

  add(now: number, amount: number): number {
    const start = Math.floor(now / this.ms) * this.ms;
    if (start !== this.start) {
      this.start = start;
      this.used = 0;
    }
    this.used += amount;
    return this.used;
  }

  secondsLeft(now: number): number {
    return Math.max(1, Math.ceil((this.start + this.ms - now) / 1000));
  }
}

export class RateCounter {
  limits: RateLimits;
  private readonly weight = new Window(60_000);
  private readonly orders10s = new Window(10_000);
  private readonly ordersDay = new Window(86_400_000);

  constructor(limits: RateLimits) {
    this.limits = limits;
  }

  /** Counts one request; the headers to answer with, and the refusal if it went over a limit. */
  count(now: number, weight: number, isOrder: boolean): { headers: Record<string, string>; refusal: BinanceError | null } {
    const used = this.weight.add(now, weight);
    const headers: Record<string, string> = { 'x-mbx-used-weight': String(used), 'x-mbx-used-weight-1m': String(used) };
    if (used > this.limits.weightPerMinute) return { headers, refusal: tooMuchWeight(this.limits.weightPerMinute, this.weight.secondsLeft(now)) };
    if (!isOrder) return { headers, refusal: null };
    const in10s = this.orders10s.add(now, 1);
    const inDay = this.ordersDay.add(now, 1);
    headers['x-mbx-order-count-10s'] = String(in10s);
    headers['x-mbx-order-count-1d'] = String(inDay);
    if (in10s > this.limits.ordersPer10s) return { headers, refusal: tooManyOrders(this.limits.ordersPer10s, this.orders10s.secondsLeft(now)) };
    return { headers, refusal: null };
  }
}
