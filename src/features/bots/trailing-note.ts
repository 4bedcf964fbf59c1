import { money } from '../../../strategy/money.ts';
import { martinBounds } from '../../../strategy/martin/rules.ts';
import { worstTrailingGain } from '../../../strategy/trailing.ts';

/**
 * The trailing take profit's worst sale over the average entry, percent to 2 decimals (strategy/trailing.ts
 * worstTrailingGain), and whether to warn: the deviation is not smaller than the take profit, so a
 * trailing sale can be below the take profit's whole gain and even at a loss. Null when off or invalid.
 */
export function trailingNote(v: { takeProfit: string; trailingDeviation: string }): { worst: string; warn: boolean } | null {
  const dev = v.trailingDeviation.trim();
  const tp = v.takeProfit.trim();
  const ok = (s: string) => /^(0|[1-9]\d{0,17})(\.\d{1,18})?$/.test(s) && money(s).gt(0);
  const { min, max } = martinBounds.trailingDeviation;
  // Out of bounds, the field's error speaks.
  if (!ok(dev) || !ok(tp) || money(dev).lt(min) || money(dev).gt(max)) return null;
  const worst = worstTrailingGain(tp, dev);
  const shown = worst.toDecimalPlaces(2).toFixed(2);
  return { worst: worst.gt(0) ? `+${shown}` : shown, warn: money(dev).gte(money(tp)) || worst.lte(0) };
}
