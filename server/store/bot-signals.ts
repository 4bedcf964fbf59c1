// The webhook's reads that join a bot: the owner's signals and the bot a token opens.
import { sql } from 'kysely';
import type { BotSignal } from '../../contract/bots.ts';
import type { Executor } from './executor.ts';

/** A signal as the owner lists it. */
export interface SignalRow {
  id: string;
  signal_id: string | null;
  action: BotSignal['action'];
  price: string | null;
  amount: string | null;
  note: string | null;
  status: BotSignal['status'];
  reason: string | null;
  created_at: Date;
}

/** One page of the trader's bot's signals, newest first, and how many it has; the owner filter is the join on the bot's user. */
export async function pageOwnSignals(db: Executor, { userId, botId, limit, offset }: { userId: string; botId: string; limit: number; offset: number }) {
  const [list, count] = await Promise.all([
    sql<SignalRow>`
      select s.id, s.signal_id, s.action, s.price, s.amount, s.note, s.status, s.reason, s.created_at
      from bot_signals s join bots b on b.id = s.bot_id
      where s.bot_id = ${botId} and b.user_id = ${userId}
      order by s.id desc limit ${limit} offset ${offset}`.execute(db),
    sql<{ n: string }>`select count(*) as n from bot_signals s join bots b on b.id = s.bot_id where s.bot_id = ${botId} and b.user_id = ${userId}`.execute(db),
  ]);
  return { rows: list.rows, total: Number(count.rows[0]?.n ?? 0) };
}

/** The webhook whose token hashes to `hash`, with its bot (not deleted): its owner, status and type; undefined when none. */
export async function webhookBotByHash(db: Executor, { hash }: { hash: string }) {
  const { rows } = await sql<{ bot_id: string; token_hash: string; user_id: string; status: string; type: string; lang: string }>`
    select w.bot_id, w.token_hash, b.user_id, b.status, b.type, w.lang from bot_webhooks w join bots b on b.id = w.bot_id
    where w.token_hash = ${hash} and b.deleted_at is null`.execute(db);
  return rows[0];
}
