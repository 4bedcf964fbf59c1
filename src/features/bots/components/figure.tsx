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

/** A profit in green or red with its sign. */
export function Profit({ value, max = 4 }: { value: string | number | null | undefined; max?: number }) {
  const { i18n } = useLingui();
  return <span className={css.profit[trend(value)]}>{signed(value, i18n.locale, max)}</span>;
}
