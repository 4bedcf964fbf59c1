import { Plural, Trans } from '@lingui/react/macro';
import type { AnswerOf } from '../../../../contract/calls.ts';
import * as ui from '../../../components/ui/ui.css.ts';
import { Profit } from './figure.tsx';
import * as styles from './bots.css.ts';

/**
 * Under the realised profit, the whole of it: realised plus the floating PnL of what the bots hold at
 * the price now (what a close would get), so a bot under water shows as such. Bots whose price cannot be
 * read now are said to be left out, never counted as 0.
 */
export function TotalPnl({ bill, testId }: { bill: AnswerOf<'userBill'> | undefined; testId: string }) {
  // The line is there before its figures (no shift when they arrive).
  const left = bill?.unpriced ?? 0;
  return (
    <div className={styles.totalPnl} data-testid={testId}>
      <span className={ui.muted}>
        <Trans>总盈亏（含浮动）</Trans>
      </span>{' '}
      <strong>
        <Profit value={bill?.totalPnl ?? null} />
      </strong>
      <span className={ui.muted}>
        {' · '}
        <Trans>浮动</Trans> <Profit value={bill?.unrealized ?? null} />
      </span>
      {left > 0 ? (
        <span className={ui.muted}>
          {' '}
          <Plural value={left} one="（# 个策略暂时读不到价格，未计入）" other="（# 个策略暂时读不到价格，未计入）" />
        </span>
      ) : null}
    </div>
  );
}
