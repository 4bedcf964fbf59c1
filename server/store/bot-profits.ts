// The closed cycles read with their bots: the bill's lists, the traders' rank and the strategy rank's candidates.
import { sql } from 'kysely';
import type { Executor, ModeFilter } from './executor.ts';
import { holdsPositionSql } from './holds-position-sql.ts';

/** A condition on a bot id column (`column`): the bot is on a simulated account, or a live one, as `mode` says. */
export const botInMode = (mode: ModeFilter, column: string) => sql<boolean>`${sql.ref(column)} in (select id from bots where (exchange_id in (${sql.join(mode.simulatedIds)})) = ${mode.simulation})`;

/** One page of the trader's closed cycles, newest first, each with its bot's name and pair. */
export async function cyclesWithBots(db: Executor, { userId, mode, limit, offset }: { userId: string; mode?: ModeFilter | undefined; limit: number; offset: number }) {
  return db
    .selectFrom('bot_cycles as c')
    .innerJoin('bots as b', 'b.id', 'c.bot_id')
    .select(['c.id', 'c.bot_id', 'b.name', 'b.exchange_id', 'b.symbol', 'c.cycle', 'c.profit', 'c.closed_at'])
    .where('c.user_id', '=', userId)
    .$if(mode !== undefined, (q) => q.where(botInMode(mode!, 'c.bot_id')))
    .orderBy('c.closed_at', 'desc')
    .orderBy('c.id', 'desc')
    .limit(limit)
    .offset(offset)
    .execute();
}

/** The trader's realised profit by bot (its name and pair), the 50 best first. */
export async function profitByBot(db: Executor, { userId, mode }: { userId: string; mode?: ModeFilter | undefined }) {
  return db
    .selectFrom('bot_cycles as c')
    .innerJoin('bots as b', 'b.id', 'c.bot_id')
    .select(['c.bot_id', 'b.name', 'b.symbol', (eb) => eb.fn.sum<string>('c.profit').as('profit')])
    .where('c.user_id', '=', userId)
    .$if(mode !== undefined, (q) => q.where(botInMode(mode!, 'c.bot_id')))
    .groupBy(['c.bot_id', 'b.name', 'b.symbol'])
    .orderBy(sql`sum(c.profit)`, 'desc')
    .limit(50)
    .execute();
}

/** The trader's realised profit by pair, the 50 best first. */
export async function profitBySymbol(db: Executor, { userId, mode }: { userId: string; mode?: ModeFilter | undefined }) {
  return db
    .selectFrom('bot_cycles as c')
    .innerJoin('bots as b', 'b.id', 'c.bot_id')
    .select(['b.symbol', (eb) => eb.fn.sum<string>('c.profit').as('profit')])
    .where('c.user_id', '=', userId)
    .$if(mode !== undefined, (q) => q.where(botInMode(mode!, 'c.bot_id')))
    .groupBy('b.symbol')
    .orderBy(sql`sum(c.profit)`, 'desc')
    .limit(50)
    .execute();
}

/** A row of the traders' rank: a trader's realised profit and cycles in the period, their place, and who they are. */
export type TraderRankRow = { user_id: string; profit: string; cycles: string; place: string; nickname: string; avatar: string; sn: string };

/**
 * The traders ranked by the realised profit of the cycles their bots (in the mode) closed since `since`,
 * ties sharing a place: a query to page, count or filter from.
 */
export const traderRankSql = ({ since, mode }: { since: Date; mode: ModeFilter }) => sql<TraderRankRow>`
    with totals as (
      select c.user_id, sum(c.profit) as profit, count(*) as cycles
      from bot_cycles c join bots b on b.id = c.bot_id
      where c.closed_at >= ${since} and (b.exchange_id in (${sql.join(mode.simulatedIds)})) = ${mode.simulation}
      group by c.user_id
    )
    select t.user_id, t.profit, t.cycles, rank() over (order by t.profit desc) as place, u.nickname, u.avatar, u.sn
    from totals t join users u on u.id = t.user_id`;

/** A bot the strategy rank may list. */
export type RankCandidate = {
  id: string;
  user_id: string;
  type: string;
  exchange_id: number;
  symbol: string;
  params: unknown;
  state: unknown;
  share_rules: boolean;
  status: string;
};

/** The bots (not deleted, in the mode) that closed a cycle since `since` or hold a position now: the strategy rank's candidates. */
export async function rankCandidates(db: Executor, { since, mode }: { since: Date; mode: ModeFilter }) {
  const { rows } = await sql<RankCandidate>`
    select b.id, b.user_id, b.type, b.exchange_id, b.symbol, b.params, b.state, b.share_rules, b.status from bots b
    where b.deleted_at is null and (b.exchange_id in (${sql.join(mode.simulatedIds)})) = ${mode.simulation}
      and (exists (select 1 from bot_cycles c where c.bot_id = b.id and c.closed_at >= ${since}) or ${holdsPositionSql('b')})`.execute(db);
  return rows;
}
