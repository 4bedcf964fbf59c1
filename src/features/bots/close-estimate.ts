import type { BotDetail } from '../../../contract/bots.ts';
import { money } from '../../../strategy/money.ts';
import { sizeClose, type CloseSize } from '../../../strategy/core/position.ts';

/** How the trader says how much to close: a share of the position in percent, or an amount of the base coin. */
export type CloseUnit = 'percent' | 'base';

/** The shares the close dialog offers with one tap (Pionex's); 100 is the full close. */
export const closePresets = ['25', '50', '75', '100'] as const;

/** A number as the server takes it (contract/fields.ts decimalInput): plain decimal, no sign, no exponent. */
const DECIMAL = /^(0|[1-9]\d{0,17})(\.\d{1,18})?$/;

export type CloseEstimate = CloseSize | { ok: false; problem: 'format' };

/**
 * A martin bot's close as the dialog asks it (partial close), sized and estimated with the
 * engine's own maths (strategy/core/position.ts sizeClose: closeCycle for the amount sold) at the detail's
 * price, so the confirmation shows what the server will check and book. Null for a bot without a
 * martin close (a grid).
 */
export function estimateClose(d: Pick<BotDetail, 'fills' | 'price' | 'close'>, unit: CloseUnit, text: string): CloseEstimate | null {
  const c = d.close;
  if (!c || d.fills.length === 0) return null;
  const typed = text.trim();
  if (!DECIMAL.test(typed)) return { ok: false, problem: 'format' };
  const market = { tickSize: money(c.tickSize), stepSize: money(c.stepSize), minAmount: money(c.minAmount), minCost: money(c.minCost), feeRate: money(c.feeRate) };
  const fills = d.fills.map((f) => ({ price: money(f.price), amount: money(f.amount) }));
  return sizeClose(fills, market, { amount: money(c.carry), cost: money(c.carryCost) }, money(d.price), unit === 'percent' ? { percent: money(typed) } : { amount: money(typed) });
}

/** The query a close sends: nothing more for the whole position (the full close, as before), else the share or the base amount. */
export function closeQuery(unit: CloseUnit, text: string, estimate: CloseEstimate | null): { share: string } | { baseAmount: string } | Record<string, never> {
  if (!estimate?.ok || estimate.all) return {};
  return unit === 'percent' ? { share: text.trim() } : { baseAmount: text.trim() };
}
