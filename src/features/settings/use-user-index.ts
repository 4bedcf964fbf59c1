import { useSetAtom } from 'jotai';
import type { UserIndex } from '../../../contract/schemas.ts';
import { api } from '../../lib/api.ts';
import { useResource } from '../../lib/use-resource.ts';
import { userAtom } from '../../state/session.ts';

/** Loads /api/user/index and refreshes the stored user with it; `index` is null while loading. */
export function useUserIndex(): { index: UserIndex | null; failed: boolean; reload: () => void } {
  const setUser = useSetAtom(userAtom);
  const { data, failed, reload } = useResource(() =>
    api.userIndex().then((index) => {
      const { email: _e, loginPasswordSet: _l, paymentPasswordSet: _p, createdAt: _c, ...user } = index.profile;
      setUser((old) => (old ? { ...old, ...user } : old));
      return index;
    }),
  );
  return { index: data, failed, reload };
}
