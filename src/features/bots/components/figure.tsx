import type { ReactNode } from 'react';
import { useLingui } from '@lingui/react/macro';
import { profit, trend } from '../../../shared/format.ts';
import type { FigureKind } from '../../../shared/figure-kind.ts';
import * as css from '../../../shared/blocks.css.ts';

/**
 * A labelled figure of a bot (profit, invested, positions...); `kind` names the rule its number is
 * written by (data-figure, which tests/number-formats checks), when the value is that number alone.
 */
export function Figure({ label, children, testId, kind }: { label: ReactNode; children: ReactNode; testId?: string; kind?: FigureKind }) {
  return (
    <div className={css.figure}>
      <div className={css.figureValue} data-testid={testId} data-figure={kind}>
        {children}
      </div>
      <div className={css.figureLabel}>{label}</div>
    </div>
  );
}

/** A profit in USDT with its sign, at exactly 2 decimals, in green or red; one that rounds to 0 shows uncoloured. */
export function Profit({ value }: { value: string | number | null | undefined }) {
  const { i18n } = useLingui();
  const shown = profit(value, i18n.locale);
  return (
    <span className={css.profit[/[1-9]/.test(shown) ? trend(value) : 'flat']} data-figure="quote">
      {shown}
    </span>
  );
}
