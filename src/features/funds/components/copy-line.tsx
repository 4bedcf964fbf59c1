import { Trans } from '@lingui/react/macro';
import type { ReactNode } from 'react';
import { useCopy } from '../../../lib/use-copy.ts';
import * as bots from '../../../shared/blocks.css.ts';
import * as css from './funds.css.ts';

/** A labelled value (address, UID, hash) with its copy button. */
export function CopyLine({ label, value, testId }: { label: ReactNode; value: string; testId?: string }) {
  const { copied, copy } = useCopy();
  return (
    <div className={css.copyLine}>
      <div className={bots.figureLabel}>{label}</div>
      <div className={css.copyRow}>
        <span className={css.mono} data-testid={testId}>
          {value}
        </span>
        <button type="button" className={bots.smallButton} onClick={() => void copy(value)}>
          {copied === value ? <Trans>已复制</Trans> : <Trans>复制</Trans>}
        </button>
      </div>
    </div>
  );
}

/** 0x1234…abcd */
export const short = (hex: string) => (hex.length > 14 ? `${hex.slice(0, 8)}…${hex.slice(-6)}` : hex);
