import { Trans, useLingui } from '@lingui/react/macro';
import type { BotSummary } from '../../../../contract/bots.ts';
import { pct, trend } from '../../../shared/format.ts';
import { Figure, Profit } from './figure.tsx';
// The runtime's words live in src/shared (the rank shows runtimes too).
import { Runtime } from '../../../shared/runtime.tsx';

export { Runtime };
import * as css from '../../../shared/blocks.css.ts';
import * as ui from '../../../components/ui/ui.css.ts';

const DAY = 86_400;

/** A percentage with its sign, always 2 decimals ("+0.00%" not "0%"), green or red; null shows a dash. */
export function Percent({ value }: { value: string | null | undefined }) {
  const { i18n } = useLingui();
  if (value === null || value === undefined) return <span>—</span>;
  return (
    <span className={css.profit[trend(value)]} data-figure="percent">
      {pct(value, i18n.locale)}
    </span>
  );
}

/** APR, or why there is none yet (under a day of runtime: docs/engine.md "Returns"). */
export function Apr({ apr, runtime }: { apr: string | null; runtime: number }) {
  const { t } = useLingui();
  // Said in words, not a dash with a tooltip no phone shows: an APR of minutes would be a wild guess.
  if (apr === null && runtime < DAY) return <span className={ui.muted} data-testid="apr-later">{t`运行满 24 小时后显示`}</span>;
  return <Percent value={apr} />;
}

/**
 * A bot's returns: total PnL (USDT), ROI on its investment (the budget), and, for a bot that spends its
 * budget step by step (martin, DCA, custom), ROI on the funds it actually used (`usedRoi`: its largest
 * cycle's spend), APR, runtime. Both ROIs say what they are on.
 */
export function BotReturns({ bot, usedRoi }: { bot: Pick<BotSummary, 'totalProfit' | 'roi' | 'apr' | 'runtime'>; usedRoi?: string | null | undefined }) {
  return (
    <div className={css.figures} data-testid="bot-returns">
      <Figure label={<Trans>总收益 (USDT)</Trans>} testId="bot-total-profit">
        <Profit value={bot.totalProfit} />
      </Figure>
      <Figure label={usedRoi === undefined ? <Trans>收益率</Trans> : <Trans>收益率 · 按投资额</Trans>} testId="bot-roi">
        <Percent value={bot.roi} />
      </Figure>
      {usedRoi !== undefined && usedRoi !== null ? (
        <Figure label={<Trans>收益率 · 按已用资金</Trans>} testId="bot-used-roi">
          <Percent value={usedRoi} />
        </Figure>
      ) : null}
      <Figure
        label={
          <Trans>
            年化 · <Runtime seconds={bot.runtime} />
          </Trans>
        }
        testId="bot-apr"
      >
        <Apr apr={bot.apr} runtime={bot.runtime} />
      </Figure>
    </div>
  );
}
