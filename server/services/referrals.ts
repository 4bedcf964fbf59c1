import type { Page } from '../../contract/envelope.ts';
import type { ReferralMember } from '../../contract/community.ts';
import type { Db } from '../db/connect.ts';
import { runningCounts } from '../store/bot-lists.ts';
import { money } from '../../strategy/money.ts';
import { balances } from '../ledger.ts';
import { DEFAULT_REFERRAL_RATES } from '../engine/persist.ts';

/**
 * The trader's team (GET /api/user/referrals): the members they invited (level 1) and those invited by
 * them (level 2), newest first, with each one's running bots and the rewards their fees earned the
 * trader; plus the team size and all rewards.
 */
export async function referrals(
  db: Db,
  userId: string,
  page: number,
  limit: number,
  rates: readonly string[] = DEFAULT_REFERRAL_RATES,
): Promise<Page<ReferralMember> & { team: number; rewards: string; rates: string[] }> {
  const direct = await db.selectFrom('users').select('id').where('referrer_id', '=', userId).execute();
  const directIds = direct.map((r) => String(r.id));
  const second = directIds.length > 0 ? await db.selectFrom('users').select('id').where('referrer_id', 'in', directIds).execute() : [];
  const levelOf = new Map<string, number>([...directIds.map((id) => [id, 1] as const), ...second.map((r) => [String(r.id), 2] as const)]);
  const ids = [...levelOf.keys()];
  const [rows, earned, mine] = await Promise.all([
    ids.length > 0
      ? db
          .selectFrom('users')
          .select(['id', 'sn', 'nickname', 'created_at'])
          .where('id', 'in', ids)
          .orderBy('created_at', 'desc')
          .orderBy('id', 'desc')
          .limit(limit)
          .offset((page - 1) * limit)
          .execute()
      : Promise.resolve([]),
    db.selectFrom('account_logs').select(['amount', 'detail']).where('user_id', '=', userId).where('reason', '=', 'reward').execute(),
    balances(db, userId),
  ]);
  const runningOf = rows.length > 0 ? await runningCounts(db, { userIds: rows.map((r) => String(r.id)) }) : new Map<string, number>();
  const rewardOf = new Map<string, ReturnType<typeof money>>();
  for (const e of earned) {
    const member = e.detail.member ?? '';
    rewardOf.set(member, (rewardOf.get(member) ?? money(0)).plus(money(e.amount)));
  }
  return {
    list: rows.map((r) => ({
      sn: r.sn,
      nickname: r.nickname,
      level: levelOf.get(String(r.id)) ?? 1,
      joinedAt: r.created_at.toISOString(),
      running: runningOf.get(String(r.id)) ?? 0,
      rewards: (rewardOf.get(String(r.id)) ?? money(0)).toFixed(),
    })),
    total: ids.length,
    page,
    page_size: limit,
    team: ids.length,
    rewards: mine.rewards,
    rates: [...rates],
  };
}
