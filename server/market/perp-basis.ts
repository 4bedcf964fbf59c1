import { averagePremium, fundingRate } from '../../strategy/perpetual/funding.ts';
import { money } from '../../strategy/money.ts';
import type Decimal from 'decimal.js';
import { hashString, normal, seeded } from './random.ts';
import { GENESIS_MS } from './simulated.ts';

const MINUTE_MS = 60_000;
const DAY_MINUTES = 1440;

/**
 * The basis of Paper's perpetuals: how far each contract's last price stands from its index (the simulated
 * spot), as a fraction, for every minute (strategy/perpetual/README.md "Three prices"). A pure function of
 * seed, symbol and minute, as the simulated market is, so every process, backtest and machine sees the same:
 * each day draws its own mean (most days a little above the index, as perpetuals mostly trade, some below:
 * funding then changes sign), and the minutes revert to it (AR(1), 0.98 a minute) with a spread of about
 * 0.03 %. A day costs 1,440 draws, made once and kept.
 */
export class PerpetualBasis {
  private readonly seed: number;
  private readonly days = new Map<string, Float64Array>();

  constructor(seed = 56) {
    this.seed = seed;
  }

  /** The basis (last / index - 1) in the minute that holds `ms`. */
  at(symbol: string, ms: number): number {
    const minute = Math.floor((ms - GENESIS_MS) / MINUTE_MS);
    const day = Math.floor(minute / DAY_MINUTES);
    return this.day(symbol, day)[minute - day * DAY_MINUTES]!;
  }

  /** A contract's last price from its index price at `ms`: index x (1 + basis), to the index's decimals. */
  lastAt(symbol: string, ms: number, index: string): string {
    const decimals = (index.split('.')[1] ?? '').length;
    return money(index)
      .mul(1 + this.at(symbol, ms))
      .toDecimalPlaces(decimals)
      .toFixed(decimals);
  }

  /**
   * The funding rate of the interval that ends at `endMs` (README.md "Funding"): the premium of each of its
   * minutes (their basis), time-weighted, through the funding formula, scaled to the interval and capped.
   */
  fundingAt(symbol: string, endMs: number, intervalHours: number, cap: Decimal): Decimal {
    const minutes = intervalHours * 60;
    const samples: Decimal[] = [];
    for (let k = minutes; k >= 1; k--) samples.push(money(this.at(symbol, endMs - k * MINUTE_MS).toFixed(8)));
    return fundingRate(averagePremium(samples), intervalHours, cap);
  }

  private day(symbol: string, day: number): Float64Array {
    const key = `${symbol}:${day}`;
    let path = this.days.get(key);
    if (path) return path;
    const random = seeded(hashString(`${this.seed}:basis:${key}`));
    // The day's mean: +0.01 % on average (longs pay), ±0.03 % from day to day; its spread around it 0.03 %.
    const mean = 0.0001 + 0.0003 * normal(random);
    const phi = 0.98;
    const spread = 0.0003;
    const step = spread * Math.sqrt(1 - phi * phi);
    path = new Float64Array(DAY_MINUTES);
    let b = mean + spread * normal(random);
    for (let m = 0; m < DAY_MINUTES; m++) {
      path[m] = b;
      b = mean + phi * (b - mean) + step * normal(random);
    }
    if (this.days.size >= 512) this.days.delete(this.days.keys().next().value!);
    this.days.set(key, path);
    return path;
  }
}
