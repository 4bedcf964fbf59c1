import type { Transaction } from 'kysely';
import { DEFAULT_INDICATOR_BUDGET } from '../config.ts';
import type { Database } from '../db/schema.ts';
import { runningBotsOfTypes } from '../store/bot-lists.ts';
import { indicatorCost } from '../../strategy/custom/feed.ts';
import { kitOf, tradableTypes } from '../../strategy/kit.ts';
import { fail } from '../errors.ts';

/** The indicator work a bot keeps while it runs (strategy/custom/feed.ts indicatorCost) of its kit's indicator rules: custom bots and DCA bots with an indicator start; 0 for the others. */
export function botIndicatorCost(type: string, params: unknown): number {
  const rules = kitOf(type).indicators?.rules(params);
  return rules ? indicatorCost(rules) : 0;
}

/** The types whose bots may keep indicators. */
const withIndicators = () => tradableTypes.filter((t) => kitOf(t).indicators);

/**
 * Refuses to start a bot whose indicators would take its owner's running bots past the budget
 * (IndicatorBudgetExceeded, with what is used and the limit). Call inside the transaction that starts the
 * bot, with the owner's row locked: two starts at once, on any processes, are counted one after the other.
 */
export async function checkIndicatorBudget(tx: Transaction<Database>, userId: string, botId: string, type: string, params: unknown, budget = DEFAULT_INDICATOR_BUDGET): Promise<void> {
  const cost = botIndicatorCost(type, params);
  if (cost === 0) return;
  const running = await runningBotsOfTypes(tx, { userId, types: withIndicators(), except: botId });
  const used = running.reduce((sum, b) => sum + botIndicatorCost(b.type, b.params), 0);
  if (used + cost > budget) throw fail('IndicatorBudgetExceeded', { values: { used: used + cost, limit: budget } });
}
