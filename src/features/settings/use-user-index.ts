import { useEffect, useState } from 'react';
import { useSetAtom } from 'jotai';
import type { UserIndex } from '../../../contract/schemas.ts';
import { api } from '../../lib/api.ts';
import { ApiError } from '../../lib/http.ts';
import { sessionEndCodes } from '../../../contract/codes.ts';
import { userAtom } from '../../state/session.ts';

/** Loads /api/user/index and refreshes the stored user with it; `null` while loading. */
export function useUserIndex(): { index: UserIndex | null; failed: boolean; reload: () => void } {
  const [index, setIndex] = useState<UserIndex | null>(null);
  const [failed, setFailed] = useState(false);
  const [round, setRound] = useState(0);
  const setUser = useSetAtom(userAtom);
  useEffect(() => {
    let live = true;
    setFailed(false);
    api.userIndex().then(
      (data) => {
        if (!live) return;
        setIndex(data);
        const { email: _e, loginPasswordSet: _l, paymentPasswordSet: _p, createdAt: _c, ...user } = data.profile;
        setUser((old) => (old ? { ...old, ...user } : old));
      },
      (error: unknown) => {
        // A session that ended is already being handled (toast, then /login): no error box on the way out.
        const leaving = error instanceof ApiError && (error.status === 401 || sessionEndCodes.includes(error.code ?? 0));
        if (live && !leaving) setFailed(true);
      },
    );
    return () => {
      live = false;
    };
  }, [round, setUser]);
  return { index, failed, reload: () => setRound((r) => r + 1) };
}
