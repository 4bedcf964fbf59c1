import type { Transaction } from 'kysely';
import { DEFAULT_INDICATOR_BUDGET } from '../config.ts';
import type { Database } from '../db/schema.ts';
import { indicatorCost } from '../../strategy/custom/feed.ts';
import type { CustomParams } from '../../strategy/custom/rules.ts';
import type { DcaParams } from '../../strategy/dca/rules.ts';
import { startRules } from '../../strategy/dca/strategy.ts';
import { fail } from '../errors.ts';

/** The indicator work a bot keeps while it runs (strategy/custom/feed.ts indicatorCost): custom bots and DCA bots with an indicator start; 0 for the others. */
export function botIndicatorCost(type: string, params: unknown): number {
  if (type === 'custom') return indicatorCost(params as CustomParams);
  if (type === 'dca') {
    const rules = startRules(params as DcaParams);
    return rules ? indicatorCost(rules) : 0;
  }
  return 0;
}

/**
 * Refuses to start a bot whose indicators would take its owner's running bots past the budget
 * (IndicatorBudgetExceeded, with what is used and the limit). Call inside the transaction that starts the
 * bot, with the owner's row locked: two starts at once, on any processes, are counted one after the other.
 */
export async function checkIndicatorBudget(tx: Transaction<Database>, userId: string, botId: string, type: string, params: unknown, budget = DEFAULT_INDICATOR_BUDGET): Promise<void> {
  const cost = botIndicatorCost(type, params);
  if (cost === 0) return;
  const running = await tx
    .selectFrom('bots')
    .select(['type', 'params'])
    .where('user_id', '=', userId)
    .where('status', '=', 'running')
    .where('deleted_at', 'is', null)
    .where('type', 'in', ['custom', 'dca'])
    .where('id', '!=', botId)
    .execute();
  const used = running.reduce((sum, b) => sum + botIndicatorCost(b.type, b.params), 0);
  if (used + cost > budget) throw fail('IndicatorBudgetExceeded', { values: { used: used + cost, limit: budget } });
}
