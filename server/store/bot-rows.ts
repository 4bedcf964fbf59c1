// One bot's row, by its id (and its owner where a trader asks): reads and writes of the bots table.
import { sql, type Selectable } from 'kysely';
import type { BotsTable } from '../db/schema.ts';
import type { Executor } from './executor.ts';
import { type WithFields, withFields } from './bot-fields.ts';

/** A bots row as stored. */
export type BotRow = Selectable<BotsTable>;
/** A bots row with its JSON read (bot-fields.ts). */
export type Bot = WithFields<BotRow>;
export type BotStatus = BotRow['status'];

const first = <R extends { params: unknown; state: unknown }>(row: R | undefined): WithFields<R> | undefined => (row ? withFields([row])[0] : undefined);

/** A trader's bot that is not deleted, or undefined (another's, deleted or unknown). */
export async function findOwnBot(db: Executor, { userId, id }: { userId: string; id: string }): Promise<Bot | undefined> {
  return first(await db.selectFrom('bots').selectAll().where('id', '=', id).where('user_id', '=', userId).where('deleted_at', 'is', null).executeTakeFirst());
}

/** A trader's bot's id and type when it is not deleted (the signal calls ask no more). */
export async function findOwnBotType(db: Executor, { userId, id }: { userId: string; id: string }): Promise<{ id: string; type: string } | undefined> {
  return db.selectFrom('bots').select(['id', 'type']).where('id', '=', id).where('user_id', '=', userId).where('deleted_at', 'is', null).executeTakeFirst();
}

/** Whether the bot is the trader's, deleted or not (its log stays theirs). */
export async function isOwnBotEver(db: Executor, { userId, id }: { userId: string; id: string }): Promise<boolean> {
  return (await db.selectFrom('bots').select('id').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst()) !== undefined;
}

/** Any bot by id, deleted ones too (the engine loads it and sees the deletion itself). */
export async function findBot(db: Executor, { id }: { id: string }): Promise<Bot | undefined> {
  return first(await db.selectFrom('bots').selectAll().where('id', '=', id).executeTakeFirst());
}

/** A bot's parameters, stored state and deletion, read again before a change that depends on them; throws for an unknown id. */
export async function readBotJson(db: Executor, { id }: { id: string }): Promise<WithFields<Pick<BotRow, 'params' | 'state' | 'deleted_at'>>> {
  const row = await db.selectFrom('bots').select(['state', 'params', 'deleted_at']).where('id', '=', id).executeTakeFirstOrThrow();
  return withFields([row])[0]!;
}

/** How many bots (not deleted) the trader keeps. */
export async function countKeptBots(db: Executor, { userId }: { userId: string }): Promise<number> {
  const kept = await db
    .selectFrom('bots')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('user_id', '=', userId)
    .where('deleted_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(kept.n);
}

/** A new bot, stopped; `params` and `state` as their kit stores them. Answers its id. */
export async function insertBot(db: Executor, bot: { userId: string; exchangeId: number; symbol: string; type: string; name: string; params: unknown; state: unknown }): Promise<string> {
  const row = await db
    .insertInto('bots')
    .values({
      user_id: bot.userId,
      exchange_id: bot.exchangeId,
      symbol: bot.symbol,
      type: bot.type,
      name: bot.name,
      params: JSON.stringify(bot.params),
      status: 'stopped',
      state: JSON.stringify(bot.state),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return String(row.id);
}

/** New stored parameters (and a new name, when given). */
export async function setBotParams(db: Executor, { id, params, name }: { id: string; params: unknown; name?: string | undefined }): Promise<void> {
  await db
    .updateTable('bots')
    .set({ params: JSON.stringify(params), ...(name ? { name } : {}), updated_at: new Date() })
    .where('id', '=', id)
    .execute();
}

/** Marks the bot deleted (and stopped): it stays for the bill and the log. */
export async function markBotDeleted(db: Executor, { id }: { id: string }): Promise<void> {
  await db.updateTable('bots').set({ deleted_at: new Date(), status: 'stopped', updated_at: new Date() }).where('id', '=', id).execute();
}

/** A bot's name and symbol, as an alert titles it; undefined for an unknown id. */
export async function botLabel(db: Executor, { id }: { id: string }): Promise<{ name: string; symbol: string } | undefined> {
  return db.selectFrom('bots').select(['name', 'symbol']).where('id', '=', id).executeTakeFirst();
}

/** The bot's new lifecycle status, its error cleared; `state`: a new stored state too (a finished bot started again). */
export async function setBotStatus(db: Executor, { id, status, state }: { id: string; status: BotStatus; state?: unknown }): Promise<void> {
  await db
    .updateTable('bots')
    .set({ status, error: null, updated_at: new Date(), ...(state === undefined ? {} : { state: JSON.stringify(state) }) })
    .where('id', '=', id)
    .execute();
}

/** Whether the trader's bot (not deleted) shows its parameters on the strategy rank; undefined when it is not theirs. */
export async function findShareRules(db: Executor, { userId, id }: { userId: string; id: string }) {
  return db.selectFrom('bots').select(['id', 'share_rules']).where('id', '=', id).where('user_id', '=', userId).where('deleted_at', 'is', null).executeTakeFirst();
}

/** Sets whether the trader's bot (not deleted) shows its parameters; undefined when it is not theirs. */
export async function setShareRules(db: Executor, { userId, id, share }: { userId: string; id: string; share: boolean }) {
  return db.updateTable('bots').set({ share_rules: share }).where('id', '=', id).where('user_id', '=', userId).where('deleted_at', 'is', null).returning(['id', 'share_rules']).executeTakeFirst();
}

/** Clears the dust fields of a bot's stored state (its kit's `sweptDust`) once the account swept the coin. */
export async function clearBotDust(db: Executor, { id, cleared }: { id: string; cleared: Record<string, string> }): Promise<void> {
  await db
    .updateTable('bots')
    .set({ state: sql`state || ${JSON.stringify(cleared)}::jsonb` })
    .where('id', '=', id)
    .execute();
}

/** The bot's status now (raw SQL, as the signal's settling asks it); undefined for an unknown id. */
export async function statusNow(db: Executor, { id }: { id: string }): Promise<string | undefined> {
  const now = await sql<{ status: string }>`select b.status from bots b where b.id = ${id}`.execute(db);
  return now.rows[0]?.status;
}
