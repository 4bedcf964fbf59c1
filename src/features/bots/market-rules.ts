import type { SymbolInfo } from '../../../contract/market.ts';
import { money } from '../../../strategy/money.ts';
import type { MarketRules } from '../../../strategy/core/market.ts';

/** A pair's trading rules as the engine's checks take them (exact decimals): every form sizes its orders with these. */
export function marketRules(s: Pick<SymbolInfo, 'tickSize' | 'stepSize' | 'minAmount' | 'minCost' | 'feeRate'>): MarketRules {
  return { tickSize: money(s.tickSize), stepSize: money(s.stepSize), minAmount: money(s.minAmount), minCost: money(s.minCost), feeRate: money(s.feeRate) };
}
