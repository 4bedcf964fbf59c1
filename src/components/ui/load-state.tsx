import type { ReactNode } from 'react';
import { Trans } from '@lingui/react/macro';
import * as css from './ui.css.ts';

/** What a screen shows while its data loads, or when loading failed (with a retry). */
export function LoadState({ loading, failed, failedText, onRetry }: { loading: boolean; failed: boolean; failedText: ReactNode; onRetry: () => void }) {
  if (failed) {
    return (
      <div role="alert" className={css.loadFailed}>
        <span>{failedText}</span>
        <button type="button" className={css.smallButton} onClick={onRetry}>
          <Trans>重试</Trans>
        </button>
      </div>
    );
  }
  return loading ? (
    <p className={css.muted} aria-busy="true">
      <Trans>加载中…</Trans>
    </p>
  ) : null;
}
