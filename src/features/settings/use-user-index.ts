import { useSetAtom } from 'jotai';
import type { UserIndex } from '../../../contract/account.ts';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api.ts';
import { userAtom } from '../../state/session.ts';
import { call, failed } from '../../shared/query.ts';

/** Loads /api/user/index and refreshes the stored user with it; `index` is null while loading. */
export function useUserIndex(): { index: UserIndex | null; failed: boolean; reload: () => void } {
  const setUser = useSetAtom(userAtom);
  const query = useQuery({
    ...call('userIndex'),
    queryFn: () =>
      api.userIndex().then((index) => {
        const { email: _e, loginPasswordSet: _l, paymentPasswordSet: _p, createdAt: _c, ...user } = index.profile;
        setUser((old) => (old ? { ...old, ...user } : old));
        return index;
      }),
  });
  return { index: query.data ?? null, failed: failed(query), reload: () => void query.refetch() };
}
