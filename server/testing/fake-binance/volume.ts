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

/** The market's seeded generator (mulberry32): the same numbers for the same seed on every run. */
export { seeded } from '../../market/random.ts';

/** The volume one price update offers: `null` (unlimited) without a model; never below one step. */
export function offered(model: VolumeModel | null, random: () => number, stepSize: Decimal): Decimal | null {
  if (!model) return null;
  const full = dec(model.perUpdate);
  const cut = full.mul(dec(Math.floor((model.jitter ?? 0) * random() * 1e6)).div(1e6));
  const amount = floorTo(full.minus(cut), stepSize);
  return amount.gt(0) ? amount : stepSize;
}
