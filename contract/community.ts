/** What traders see of each other: the rank lists and the referral team. */
import { z } from 'zod';
import { anyParamsSchema, botTypesBuilt } from './bots.ts';
import type { Call } from './call.ts';
import { count, decimal, pageQuery, pageShape, pageSizeQuery, time, tradingMode } from './fields.ts';

export const rankPeriods = ['1d', '7d', '30d', 'all'] as const;
export type RankPeriod = (typeof rankPeriods)[number];
/** One place on the rank list: realised profit of the cycles closed in the period. */
export const rankEntrySchema = z.strictObject({
  rank: z.number().int().min(1),
  nickname: z.string(),
  avatar: z.string(),
  /** The UID with its middle hidden. */
  uid: z.string(),
  profit: decimal,
  cycles: count,
  me: z.boolean(),
});
export type RankEntry = z.infer<typeof rankEntrySchema>;
/**
 * A bot on the strategy rank, by return on its investment over the period: its type, pair and figures,
 * and its parameters (to copy into a bot of one's own) when its owner shares them; never its owner, its
 * name or its id.
 */
export const botRankEntrySchema = z.strictObject({
  rank: z.number().int().min(1),
  type: z.enum(botTypesBuilt),
  exchange: z.string(),
  symbol: z.string(),
  /** Realised profit of the cycles closed in the period, and its ROI on the investment. */
  profit: decimal,
  roiPct: decimal,
  /** Realised profit plus the floating PnL now, less what was floating when the period began; the rank's order. */
  totalPnl: decimal,
  totalRoiPct: decimal,
  /** The largest fall of its equity in the period (realised and floating), in percent of its investment. */
  maxDrawdownPct: decimal,
  /** Seconds since its first start. */
  runtime: count,
  cycles: count,
  /** Null unless its owner shares them; a DCA schedule in UTC (utcOffset 0), never its owner's time zone. */
  params: anyParamsSchema.nullable(),
  /** One of the asking trader's own bots. */
  mine: z.boolean(),
});
export type BotRankEntry = z.infer<typeof botRankEntrySchema>;
/** A member of the trader's team: invited directly or further down. */
export const referralMemberSchema = z.strictObject({
  sn: z.string(),
  nickname: z.string(),
  /** 1: invited by the trader; 2: invited by one of theirs. */
  level: z.number().int().min(1).max(2),
  joinedAt: time,
  /** Bots running now. */
  running: count,
  /** Rewards this member's fuel fees earned the trader. */
  rewards: decimal,
});
export type ReferralMember = z.infer<typeof referralMemberSchema>;

const rankQuery = z.strictObject({ page: pageQuery, limit: pageSizeQuery, period: z.enum(rankPeriods).optional(), mode: tradingMode.optional() });

export const communityCalls = {
  marketUserRank: {
    method: 'GET',
    path: '/market/userRank',
    query: rankQuery,
    answer: z.strictObject({ ...pageShape(rankEntrySchema), me: rankEntrySchema.nullable(), period: z.enum(rankPeriods), mode: tradingMode }),
  },
  marketBotRank: { method: 'GET', path: '/market/botRank', query: rankQuery, answer: z.strictObject({ ...pageShape(botRankEntrySchema), period: z.enum(rankPeriods), mode: tradingMode }) },
  userReferrals: {
    method: 'GET',
    path: '/user/referrals',
    query: z.strictObject({ page: pageQuery, limit: pageSizeQuery }),
    answer: z.strictObject({ ...pageShape(referralMemberSchema), team: count, rewards: decimal, rates: z.array(decimal) }),
  },
} as const satisfies Record<string, Call>;
