import type { BotShare } from '../../contract/bots.ts';
import type { Db } from '../db/connect.ts';
import { findShareRules, setShareRules } from '../store/bot-rows.ts';
import { fail } from '../errors.ts';

/**
 * Whether the strategy rank shows a bot's parameters: its owner's choice, off until they turn it on
 * (server/services/bot-rank.ts). Only the owner reads or sets it, on a bot not deleted; it is changed
 * whatever the bot is doing and changes nothing of its trading.
 */
export async function shareOf(db: Db, userId: string, id: string): Promise<BotShare> {
  const row = await findShareRules(db, { userId, id });
  if (!row) throw fail('StrategyNotFound');
  return { id: String(row.id), shareRules: row.share_rules };
}

export async function setShare(db: Db, userId: string, id: string, share: boolean): Promise<BotShare> {
  const row = await setShareRules(db, { userId, id, share });
  if (!row) throw fail('StrategyNotFound');
  return { id: String(row.id), shareRules: row.share_rules };
}
