// Many bots' rows at once: the trader's lists and counts, and the sets the engine, the bill, the PnL, the
// capital reservation, the indicator budget, the AI re-tuning, the Paper account and the metrics read.
import { sql } from 'kysely';
import type { Executor, ModeFilter } from './executor.ts';
import { paramFieldsOf, withFields } from './bot-fields.ts';
import type { Bot, BotStatus } from './bot-rows.ts';
import { holdsPositionSql } from './holds-position-sql.ts';
import { wantsLease } from './bot-leases.ts';

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

/** The users with running bots (not deleted) on a pair of an exchange, each once (at most 10,000: a notice's audience). */
export async function tradersOnPair(db: Executor, { exchangeId, symbol }: { exchangeId: number; symbol: string }): Promise<string[]> {
  const rows = await db
    .selectFrom('bots')
    .select('user_id')
    .distinct()
    .where('exchange_id', '=', exchangeId)
    .where('symbol', '=', symbol)
    .where('status', '=', 'running')
    .where('deleted_at', 'is', null)
    .orderBy('user_id')
    .limit(10_000)
    .execute();
  return rows.map((r) => String(r.user_id));
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

/**
 * The bots the engine resumes at start (bot-leases.ts wantsLease): not deleted and running or with an order
 * in flight, or with a resting order that may still be on the venue (a paused, stopped or deleted bot's
 * cancel left undone), by id.
 */
export async function botsToResume(db: Executor): Promise<{ id: string }[]> {
  const { rows } = await sql<{ id: string }>`
    select b.id from bots b where ${wantsLease} order by b.id`.execute(db);
  return rows;
}

/** The traders with a bot (not deleted, not stopped) on an exchange: those told when it goes down or comes back. */
export async function usersWithBotsOn(db: Executor, { exchangeId }: { exchangeId: number }): Promise<string[]> {
  const rows = await db.selectFrom('bots').select('user_id').distinct().where('exchange_id', '=', exchangeId).where('deleted_at', 'is', null).where('status', '!=', 'stopped').execute();
  return rows.map((r) => String(r.user_id));
}
