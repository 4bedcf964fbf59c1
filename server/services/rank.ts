import { sql } from 'kysely';
import type { Page } from '../../contract/envelope.ts';
import type { RankEntry, RankPeriod } from '../../contract/community.ts';
import type { Db } from '../db/connect.ts';
import { type TraderRankRow, traderRankSql } from '../store/bot-profits.ts';
import { SIMULATED_EXCHANGE_IDS } from '../exchanges/catalog.ts';
import { money } from '../../strategy/money.ts';

/**
 * The rank list: traders ordered by the realised profit of the cycles their bots closed
 * in the period, live and simulated (Paper, simulated accounts) bots ranked apart; ties share a place. The asking trader
 * also gets their own place when they have closed a cycle in the period.
 */
const periodDays: Record<RankPeriod, number | null> = { '1d': 1, '7d': 7, '30d': 30, all: null };

type Row = TraderRankRow;

/** 12345678 -> 12****78: enough to recognise oneself, not to look anyone up. */
export const maskUid = (sn: string) => (sn.length <= 4 ? sn : `${sn.slice(0, 2)}${'*'.repeat(sn.length - 4)}${sn.slice(-2)}`);

/** Nicknames in the rank are masked too (alice -> a***e): others see who ranks, not whom to look up. */
export const maskName = (name: string) => {
  const chars = [...name];
  if (chars.length <= 1) return '*';
  if (chars.length === 2) return `${chars[0]}*`;
  return `${chars[0]}***${chars[chars.length - 1]}`;
};

export async function userRank(
  db: Db,
  userId: string,
  options: { page: number; limit: number; period: RankPeriod; mode: 'live' | 'simulation'; now?: number },
): Promise<Page<RankEntry> & { me: RankEntry | null; period: RankPeriod; mode: 'live' | 'simulation' }> {
  const days = periodDays[options.period];
  const since = days === null ? new Date(0) : new Date((options.now ?? Date.now()) - days * 86_400_000);
  const ranked = traderRankSql({ since, mode: { simulatedIds: SIMULATED_EXCHANGE_IDS, simulation: options.mode === 'simulation' } });
  const entry = (r: Row): RankEntry => ({
    rank: Number(r.place),
    nickname: String(r.user_id) === String(userId) ? r.nickname : maskName(r.nickname),
    avatar: r.avatar,
    uid: maskUid(r.sn),
    profit: money(r.profit).toFixed(),
    cycles: Number(r.cycles),
    me: String(r.user_id) === String(userId),
  });
  const offset = (options.page - 1) * options.limit;
  const [list, total, me] = await Promise.all([
    sql<Row>`select * from (${ranked}) r order by place, user_id limit ${options.limit} offset ${offset}`.execute(db),
    sql<{ n: string }>`select count(*) as n from (${ranked}) r`.execute(db),
    sql<Row>`select * from (${ranked}) r where user_id = ${userId}`.execute(db),
  ]);
  return {
    list: list.rows.map(entry),
    total: Number(total.rows[0]?.n ?? 0),
    page: options.page,
    page_size: options.limit,
    me: me.rows[0] ? entry(me.rows[0]) : null,
    period: options.period,
    mode: options.mode,
  };
}
