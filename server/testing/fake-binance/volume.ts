import type Decimal from 'decimal.js';
import { dec, floorTo } from './numbers.ts';

/**
 * How much of a symbol the market offers at each price update, for partial fills: at most `perUpdate`
 * base units (less by up to `jitter` of it, drawn from a seeded generator, so a run repeats exactly),
 * shared by the orders that cross, in price then time priority. Market orders are not limited (a book
 * deep enough for them).
 */
export interface VolumeModel {
  perUpdate: string;
  /** 0 (always `perUpdate`) to 1; 0 unless given. */
  jitter?: number;
}

/** mulberry32: a small seeded generator, the same numbers for the same seed on every run. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The volume one price update offers: `null` (unlimited) without a model; never below one step. */
export function offered(model: VolumeModel | null, random: () => number, stepSize: Decimal): Decimal | null {
  if (!model) return null;
  const full = dec(model.perUpdate);
  const cut = full.mul(dec(Math.floor((model.jitter ?? 0) * random() * 1e6)).div(1e6));
  const amount = floorTo(full.minus(cut), stepSize);
  return amount.gt(0) ? amount : stepSize;
}
