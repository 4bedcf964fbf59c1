import { api } from '../../../lib/api.ts';
import { useResource } from '../../../lib/use-resource.ts';

/** One page of the trader's team with its totals and the reward rates. */
export function useTeam(page: number, limit = 10) {
  return useResource(() => api.userReferrals({ page: String(page), limit: String(limit) }));
}
