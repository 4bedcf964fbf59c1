import { Trans } from '@lingui/react/macro';
import type { MartinParamsInput } from '../../../../../contract/bots.ts';

/** An AI proposal's martin parameters in one line. */
export function MartinAiSummary({ params }: { params: unknown }) {
  const m = params as MartinParamsInput;
  return (
    <Trans>
      首单 {m.firstOrder} USDT · 倍数 {m.multiplier} · 最多 {m.maxPositions} 单 · 跌 {m.addTrigger}% 补仓 · 止盈 {m.takeProfit}%
    </Trans>
  );
}
