import type { ReactNode } from 'react';
import { useLingui } from '@lingui/react/macro';
import { signed, trend } from '../../../shared/format.ts';
import * as css from '../../../shared/blocks.css.ts';

/** A labelled figure of a bot (profit, invested, positions...). */
export function Figure({ label, children, testId }: { label: ReactNode; children: ReactNode; testId?: string }) {
  return (
    <div className={css.figure}>
      <div className={css.figureValue} data-testid={testId}>
        {children}
      </div>
      <div className={css.figureLabel}>{label}</div>
    </div>
  );
}

/**
 * A profit in USDT with its sign, at 2 decimals (USDT at 2), in green or red; one that rounds
 * to 0 shows uncoloured.
 */
export function Profit({ value, max = 2 }: { value: string | number | null | undefined; max?: number }) {
  const { i18n } = useLingui();
  const shown = signed(value, i18n.locale, max);
  return <span className={css.profit[/[1-9]/.test(shown) ? trend(value) : 'flat']}>{shown}</span>;
}
