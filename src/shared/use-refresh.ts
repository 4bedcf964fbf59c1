import { useEffect } from 'react';

/** Calls `reload` every `ms` while the page is visible (live figures of running bots), and when it becomes visible again. */
export function useRefresh(reload: () => void, ms: number, enabled = true): void {
  useEffect(() => {
    if (!enabled) return;
    const tick = () => {
      if (document.visibilityState === 'visible') reload();
    };
    const timer = setInterval(tick, ms);
    document.addEventListener('visibilitychange', tick);
    return () => {
      clearInterval(timer);
      document.removeEventListener('visibilitychange', tick);
    };
  }, [reload, ms, enabled]);
}
