// A bot's log (bot_actions): the lines written with each change, and the pages the screens read.
import { sql, type Selectable } from 'kysely';
import type { BotActionsTable } from '../db/schema.ts';
import type { Executor } from './executor.ts';

/** A bot_actions row as stored. */
export type BotActionRow = Selectable<BotActionsTable>;

/** A line of a bot's log: its kind and what it says. */
export interface ActionLine {
  botId: string;
  kind: string;
  detail: Record<string, string>;
}

/** Writes one line of a bot's log. */
export async function logAction(db: Executor, line: ActionLine): Promise<void> {
  await db
    .insertInto('bot_actions')
    .values({ bot_id: line.botId, kind: line.kind, detail: JSON.stringify(line.detail) })
    .execute();
}

/** Writes several lines of bots' logs in one statement (none: nothing). */
export async function logActions(db: Executor, lines: readonly ActionLine[]): Promise<void> {
  if (lines.length === 0) return;
  await db
    .insertInto('bot_actions')
    .values(lines.map((a) => ({ bot_id: a.botId, kind: a.kind, detail: JSON.stringify(a.detail) })))
    .execute();
}

/** Each bot's first start and last stop in its log, by id (a bot with neither is absent). */
export async function startStopRows(db: Executor, { botIds }: { botIds: readonly string[] }) {
  return db
    .selectFrom('bot_actions')
    .select(['bot_id', sql<Date | string | null>`min(created_at) filter (where kind = 'start')`.as('first'), sql<Date | string | null>`max(created_at) filter (where kind = 'stop')`.as('stop')])
    .where('bot_id', 'in', botIds)
    .where('kind', 'in', ['start', 'stop'])
    .groupBy('bot_id')
    .execute();
}

/** One page of a bot's log, newest first, and its length. */
export async function pageBotActions(db: Executor, { botId, limit, offset }: { botId: string; limit: number; offset: number }): Promise<{ rows: BotActionRow[]; total: number }> {
  const [rows, count] = await Promise.all([
    db.selectFrom('bot_actions').selectAll().where('bot_id', '=', botId).orderBy('id', 'desc').limit(limit).offset(offset).execute(),
    db
      .selectFrom('bot_actions')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('bot_id', '=', botId)
      .executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

/** What the log of all a trader's bots is filtered by; dates bound `created_at` (since included, until not). */
export interface OwnerLogFilter {
  userId: string;
  botId?: string | undefined;
  kind?: string | undefined;
  since: Date | null;
  until: Date | null;
}

/**
 * One page of the log of every bot of the trader's (deleted ones too), newest first, with each line's
 * bot; and how many lines the filter finds. The owner filter is the join on the bot's user: no other
 * row is read.
 */
export async function pageOwnerActions(db: Executor, { filter, limit, offset }: { filter: OwnerLogFilter; limit: number; offset: number }) {
  const q = db
    .selectFrom('bot_actions as a')
    .innerJoin('bots as b', 'b.id', 'a.bot_id')
    .where('b.user_id', '=', filter.userId)
    .$if(filter.botId !== undefined, (w) => w.where('a.bot_id', '=', filter.botId!))
    .$if(filter.kind !== undefined, (w) => w.where('a.kind', '=', filter.kind!))
    .$if(filter.since !== null, (w) => w.where('a.created_at', '>=', filter.since!))
    .$if(filter.until !== null, (w) => w.where('a.created_at', '<', filter.until!));
  const [rows, count] = await Promise.all([
    q.select(['a.id', 'a.bot_id', 'a.kind', 'a.detail', 'a.created_at', 'b.name', 'b.type', 'b.exchange_id', 'b.symbol']).orderBy('a.id', 'desc').limit(limit).offset(offset).execute(),
    q.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}
