import { useQuery } from '@tanstack/react-query';
import { call, keepPage } from '../../../shared/query.ts';

/** One page of the trader's team with its totals and the reward rates. */
export function useTeam(page: number, limit = 10) {
  return useQuery({ ...call('userReferrals', { page: String(page), limit: String(limit) }), ...keepPage });
}
