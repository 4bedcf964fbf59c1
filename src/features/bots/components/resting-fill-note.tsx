import { Trans, useLingui } from '@lingui/react/macro';
import type { BuiltBotType } from '../../../../contract/bots.ts';
import { botTypes } from '../../../shared/bot-types.ts';

/**
 * What a backtest's fill model says of the types whose orders rested on the book (as the live engine rests
 * them): filled at their own price at the maker's fee, with no slippage; exits at market. Nothing when none rested.
 */
export function RestingFillNote({ resting }: { resting: readonly BuiltBotType[] }) {
  const { i18n } = useLingui();
  if (resting.length === 0) return null;
  const types = resting.map((type) => i18n._(botTypes[type].name)).join(i18n.locale.startsWith('zh') ? '、' : ', ');
  return (
    <>
      {' '}
      <Trans>{types}的挂单在其价格按挂单（maker）费率成交，不计滑点；止损等离场按市价。</Trans>
    </>
  );
}
