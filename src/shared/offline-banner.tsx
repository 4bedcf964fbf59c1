import { useAtomValue } from 'jotai';
import { Trans } from '@lingui/react/macro';
import { servedOfflineAtom } from '../lib/offline.ts';
import { time } from './format.ts';
import * as css from './blocks.css.ts';
import { LiveBanner } from './live/live-banner.tsx';

/**
 * Says that the figures on screen are the last ones kept offline, and from when; online, that live updates
 * are paused when they are (one banner at a time: offline says more).
 */
export function OfflineBanner() {
  const at = useAtomValue(servedOfflineAtom);
  if (at === null) return <LiveBanner />;
  const when = time(new Date(at).toISOString());
  return (
    <div role="status" className={css.offline} data-testid="offline-banner">
      <Trans>离线 · 更新于 {when}</Trans>
    </div>
  );
}
