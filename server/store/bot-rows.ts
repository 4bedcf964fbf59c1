import { sql, type Selectable } from 'kysely';
import type { BotsTable } from '../db/schema.ts';
import type { Executor, ModeFilter } from './executor.ts';
import { paramFieldsOf, type WithFields, withFields } from './bot-fields.ts';
import { holdsPositionSql } from './holds-position-sql.ts';

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

/** The bot's new lifecycle status, its error cleared; `state`: a new stored state too (a finished bot started again). */
export async function setBotStatus(db: Executor, { id, status, state }: { id: string; status: BotStatus; state?: unknown }): Promise<void> {
  await db
    .updateTable('bots')
    .set({ status, error: null, updated_at: new Date(), ...(state === undefined ? {} : { state: JSON.stringify(state) }) })
    .where('id', '=', id)
    .execute();
}

/** What a filter of the bot list asks. */
export interface BotFilter {
  mode?: ModeFilter | undefined;
  exchangeId?: number | undefined;
  status?: BotStatus | undefined;
  type?: string | undefined;
}

function ownBotsQuery(db: Executor, userId: string, filter: BotFilter) {
  let q = db.selectFrom('bots').where('user_id', '=', userId).where('deleted_at', 'is', null);
  if (filter.mode) q = q.where('exchange_id', filter.mode.simulation ? 'in' : 'not in', filter.mode.simulatedIds);
  if (filter.exchangeId !== undefined) q = q.where('exchange_id', '=', filter.exchangeId);
  if (filter.status) q = q.where('status', '=', filter.status);
  if (filter.type) q = q.where('type', '=', filter.type);
  return q;
}

/** One page of the trader's bots (not deleted), newest first, and how many the filter finds. */
export async function pageOwnBots(db: Executor, { userId, filter, limit, offset }: { userId: string; filter: BotFilter; limit: number; offset: number }): Promise<{ rows: Bot[]; total: number }> {
  const q = ownBotsQuery(db, userId, filter);
  const [rows, count] = await Promise.all([q.selectAll().orderBy('id', 'desc').limit(limit).offset(offset).execute(), q.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()]);
  return { rows: withFields(rows), total: Number(count.n) };
}

/** The trader's bots (not deleted) the filter finds, counted by status. */
export async function countOwnBotsByStatus(db: Executor, { userId, filter }: { userId: string; filter: BotFilter }): Promise<{ status: BotStatus; n: number }[]> {
  const rows = await ownBotsQuery(db, userId, filter)
    .select(['status', (eb) => eb.fn.countAll<string>().as('n')])
    .groupBy('status')
    .execute();
  return rows.map((r) => ({ status: r.status, n: Number(r.n) }));
}

/** One page of the trader's bots (not deleted) that hold a position, newest first, and how many hold one. */
export async function pageHoldingBots(db: Executor, { userId, limit, offset }: { userId: string; limit: number; offset: number }): Promise<{ rows: Bot[]; total: number }> {
  // Each raw condition sits in its own brackets (holdsPositionSql): an unbracketed `or` here once escaped the owner filter.
  const q = db.selectFrom('bots').where('user_id', '=', userId).where('deleted_at', 'is', null).where(holdsPositionSql());
  const [rows, count] = await Promise.all([q.selectAll().orderBy('id', 'desc').limit(limit).offset(offset).execute(), q.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()]);
  return { rows: withFields(rows), total: Number(count.n) };
}

/** The trader's bots (not deleted, in the mode when given) that hold a position: what their floating PnL is read from. */
export async function holdingBots(db: Executor, { userId, mode }: { userId: string; mode?: ModeFilter | undefined }) {
  return db
    .selectFrom('bots')
    .select(['type', 'params', 'state', 'exchange_id', 'symbol'])
    .where('user_id', '=', userId)
    .where('deleted_at', 'is', null)
    .where(holdsPositionSql())
    .$if(mode !== undefined, (q) => q.where(sql<boolean>`(exchange_id in (${sql.join(mode!.simulatedIds)})) = ${mode!.simulation}`))
    .execute();
}

/**
 * The bots PnL over time counts, by id: one of the trader's (not deleted), or all of theirs (deleted ones
 * too), in a mode when given.
 */
export async function pnlBots(db: Executor, { userId, id, mode }: { userId: string; id?: string | undefined; mode?: ModeFilter | undefined }): Promise<Bot[]> {
  let q = db.selectFrom('bots').selectAll().where('user_id', '=', userId);
  if (id) q = q.where('id', '=', id).where('deleted_at', 'is', null);
  else if (mode) q = q.where('exchange_id', mode.simulation ? 'in' : 'not in', mode.simulatedIds);
  return withFields(await q.orderBy('id').execute());
}

/** The trader's running and paused bots on one account whose pair is quoted in `quote`, but `except`: what reserves its capital. */
export async function reservingBots(db: Executor, { userId, exchangeId, quote, except }: { userId: string; exchangeId: number; quote: string; except?: string | undefined }) {
  let query = db
    .selectFrom('bots')
    .select(['id', 'type', 'symbol', 'params', 'state'])
    .where('user_id', '=', userId)
    .where('exchange_id', '=', exchangeId)
    .where('deleted_at', 'is', null)
    .where('status', 'in', ['running', 'paused'])
    .where('symbol', 'like', `%/${quote}`);
  if (except !== undefined) query = query.where('id', '!=', except);
  return query.execute();
}

/** The trader's running bots of `types` but `except`: what their indicators cost is counted from. */
export async function runningBotsOfTypes(db: Executor, { userId, types, except }: { userId: string; types: readonly string[]; except: string }) {
  return db
    .selectFrom('bots')
    .select(['type', 'params'])
    .where('user_id', '=', userId)
    .where('status', '=', 'running')
    .where('deleted_at', 'is', null)
    .where('type', 'in', types)
    .where('id', '!=', except)
    .execute();
}

/** How many running bots (not deleted) each of the users has; users with none are absent. */
export async function runningCounts(db: Executor, { userIds }: { userIds: readonly string[] }): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom('bots')
    .select(['user_id', (eb) => eb.fn.countAll<string>().as('n')])
    .where('user_id', 'in', userIds)
    .where('status', '=', 'running')
    .where('deleted_at', 'is', null)
    .groupBy('user_id')
    .execute();
  return new Map(rows.map((r) => [String(r.user_id), Number(r.n)]));
}

/** Whether the trader's bot (not deleted) shows its parameters on the strategy rank; undefined when it is not theirs. */
export async function findShareRules(db: Executor, { userId, id }: { userId: string; id: string }) {
  return db.selectFrom('bots').select(['id', 'share_rules']).where('id', '=', id).where('user_id', '=', userId).where('deleted_at', 'is', null).executeTakeFirst();
}

/** Sets whether the trader's bot (not deleted) shows its parameters; undefined when it is not theirs. */
export async function setShareRules(db: Executor, { userId, id, share }: { userId: string; id: string; share: boolean }) {
  return db.updateTable('bots').set({ share_rules: share }).where('id', '=', id).where('user_id', '=', userId).where('deleted_at', 'is', null).returning(['id', 'share_rules']).executeTakeFirst();
}

/** The running and paused AI bots (not deleted) last tuned before `tunedBefore`, by id, with their risk. */
export async function aiBotsDue(db: Executor, { tunedBefore }: { tunedBefore: Date }) {
  const rows = await db
    .selectFrom('ai_bots as a')
    .innerJoin('bots as b', 'b.id', 'a.bot_id')
    .select(['b.id', 'b.user_id', 'b.type', 'b.exchange_id', 'b.symbol', 'b.params', 'a.risk'])
    .where('b.deleted_at', 'is', null)
    .where('b.status', 'in', ['running', 'paused'])
    .where('a.tuned_at', '<', tunedBefore)
    .orderBy('b.id')
    .execute();
  return rows.map((r) => ({ ...r, fields: paramFieldsOf(r.params) }));
}

/** The trader's bots (not deleted) on one account, locked by the caller's account lock: what a sweep or a reset of it must leave alone. */
export async function accountBots(db: Executor, { userId, exchangeId }: { userId: string; exchangeId: number }) {
  return withFields(
    await db
      .selectFrom('bots')
      .select(['id', 'name', 'type', 'status', 'symbol', 'params', 'state'])
      .where('user_id', '=', userId)
      .where('exchange_id', '=', exchangeId)
      .where('deleted_at', 'is', null)
      .execute(),
  );
}

/** Clears the dust fields of a bot's stored state (its kit's `sweptDust`) once the account swept the coin. */
export async function clearBotDust(db: Executor, { id, cleared }: { id: string; cleared: Record<string, string> }): Promise<void> {
  await db
    .updateTable('bots')
    .set({ state: sql`state || ${JSON.stringify(cleared)}::jsonb` })
    .where('id', '=', id)
    .execute();
}

/** The bots (not deleted) on a live account with an order in flight, by id. */
export async function liveBotsInFlight(db: Executor, { simulatedIds }: { simulatedIds: readonly number[] }): Promise<{ id: string }[]> {
  return db
    .selectFrom('bots')
    .select('id')
    .where('deleted_at', 'is', null)
    .where('exchange_id', 'not in', simulatedIds)
    .where((eb) => eb(eb.ref('state', '->>').key('pending' as never), 'is not', null))
    .orderBy('id')
    .execute();
}

/** How many bots (not deleted) have each status. */
export async function countBotsByStatus(db: Executor) {
  return db
    .selectFrom('bots')
    .select(['status', db.fn.countAll<string>().as('n')])
    .where('deleted_at', 'is', null)
    .groupBy('status')
    .execute();
}

/** The bots (not deleted) the engine resumes at start: running, or with an order in flight, by id. */
export async function botsToResume(db: Executor): Promise<{ id: string }[]> {
  return db
    .selectFrom('bots')
    .select('id')
    .where('deleted_at', 'is', null)
    .where((eb) => eb.or([eb('status', '=', 'running'), eb(eb.ref('state', '->>').key('pending' as never), 'is not', null)]))
    .orderBy('id')
    .execute();
}

/** The bot's status now (raw SQL, as the signal's settling asks it); undefined for an unknown id. */
export async function statusNow(db: Executor, { id }: { id: string }): Promise<string | undefined> {
  const now = await sql<{ status: string }>`select b.status from bots b where b.id = ${id}`.execute(db);
  return now.rows[0]?.status;
}

/** Locks the bot's row for the caller's transaction and answers its status and deletion (the status fence of a decision). */
export async function lockBotStatus(db: Executor, { id }: { id: string }) {
  return db.selectFrom('bots').select(['status', 'deleted_at']).where('id', '=', id).forUpdate().executeTakeFirst();
}

/** The bot's name, if it exists. */
export async function botName(db: Executor, { id }: { id: string }): Promise<string | undefined> {
  return (await db.selectFrom('bots').select('name').where('id', '=', id).executeTakeFirst())?.name;
}

/** Stores a decision's outcome on the bot: its encoded state, its realised profit, and a pause with its reason when there is one. */
export async function saveDecidedState(db: Executor, { id, state, realized, pause }: { id: string; state: unknown; realized: string; pause: string | null }): Promise<void> {
  await db
    .updateTable('bots')
    .set({
      state: JSON.stringify(state),
      realized,
      updated_at: new Date(),
      ...(pause !== null ? { status: 'paused' as const, error: pause } : {}),
    })
    .where('id', '=', id)
    .execute();
}

/** Pauses every running live bot (not deleted) of the user, with the error 'fuel'. Answers their ids. */
export async function pauseLiveBotsForFuel(db: Executor, { userId, simulatedIds }: { userId: string; simulatedIds: readonly number[] }): Promise<string[]> {
  const paused = await db
    .updateTable('bots')
    .set({ status: 'paused', error: 'fuel', updated_at: new Date() })
    .where('user_id', '=', userId)
    .where('status', '=', 'running')
    .where('deleted_at', 'is', null)
    .where('exchange_id', 'not in', simulatedIds)
    .returning('id')
    .execute();
  return paused.map((r) => String(r.id));
}

/** The bots a daily PnL snapshot is taken of, by id: not deleted, and running, paused, or stopped still holding something. */
export async function botsToSnapshot(db: Executor) {
  return db
    .selectFrom('bots')
    .select(['id', 'user_id', 'type', 'params', 'state', 'exchange_id', 'symbol', 'realized'])
    .where('deleted_at', 'is', null)
    .where(sql<boolean>`(status <> 'stopped' or ${holdsPositionSql()})`)
    .orderBy('id')
    .execute();
}
