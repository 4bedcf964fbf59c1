import { useAtomValue } from 'jotai';
import { useSyncExternalStore } from 'react';
import { Trans } from '@lingui/react/macro';
import { liveAtom } from './state.ts';
import * as css from '../blocks.css.ts';

const onLine = (notify: () => void) => {
  window.addEventListener('online', notify);
  window.addEventListener('offline', notify);
  return () => {
    window.removeEventListener('online', notify);
    window.removeEventListener('offline', notify);
  };
};

/** Says that live updates stopped and the screen refreshes itself meanwhile; offline, the offline banner says more. */
export function LiveBanner() {
  const state = useAtomValue(liveAtom);
  const online = useSyncExternalStore(
    onLine,
    () => navigator.onLine,
    () => true,
  );
  if (state !== 'down' || !online) return null;
  return (
    <div role="status" className={css.offline} data-testid="live-banner">
      <Trans>实时连接中断 · 每隔几秒刷新</Trans>
    </div>
  );
}
