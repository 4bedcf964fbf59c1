import { useCallback, useEffect, useState } from 'react';
import { sessionEndCodes } from '../../contract/codes.ts';
import { ApiError } from './http.ts';

/**
 * Loads data for a screen: `data` is null while loading, `failed` after an error, `reload` tries
 * again, and so does a change of `deps` (what `load` reads: a page, a filter). A session that ended is
 * not a failure of the screen: the client already shows it and goes to /login, so the screen shows no
 * error box on the way out.
 */
export function useResource<T>(load: () => Promise<T>, deps: readonly unknown[] = []): { data: T | null; failed: boolean; reload: () => void } {
  const [data, setData] = useState<T | null>(null);
  const [failed, setFailed] = useState(false);
  const [round, setRound] = useState(0);
  useEffect(() => {
    let live = true;
    setFailed(false);
    load().then(
      (value) => live && setData(value),
      (error: unknown) => {
        const leaving = error instanceof ApiError && (error.status === 401 || sessionEndCodes.includes(error.code ?? 0));
        if (live && !leaving) setFailed(true);
      },
    );
    return () => {
      live = false;
    };
    // `load` is a fresh closure each render; a new round or new `deps` is what asks again.
  }, [round, ...deps]);
  return { data, failed, reload: useCallback(() => setRound((r) => r + 1), []) };
}
