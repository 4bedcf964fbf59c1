import { msg } from '@lingui/core/macro';
import type { I18n } from '@lingui/core';
import { Trans, useLingui } from '@lingui/react/macro';
import type { GridParamsInput } from '../../../../../contract/bots.ts';
import { price } from '../../../../shared/format.ts';

/** An AI proposal's grid parameters in one line. */
export function GridAiSummary({ params }: { params: unknown }) {
  const { t, i18n } = useLingui();
  const l = i18n.locale;
  const g = params as GridParamsInput;
  return (
    <Trans>
      区间 {price(g.lower, l)} ~ {price(g.upper, l)} · {g.grids} 格 · {g.spacing === 'geometric' ? t`等比` : t`等差`}
    </Trans>
  );
}

/** The server moves a grid whose range the price has left to the price now (same width and grids): said when it did. */
export function gridRangeMoved(proposed: unknown, created: unknown, i18n: I18n): string | null {
  const p = proposed as GridParamsInput;
  const g = created as GridParamsInput;
  if (g.lower === p.lower && g.upper === p.upper) return null;
  return i18n._(msg`价格已变化，网格区间已按当前价格调整为 ${price(g.lower, i18n.locale)} ~ ${price(g.upper, i18n.locale)}`);
}
