import { Trans } from '@lingui/react/macro';
import * as css from '../../../shared/blocks.css.ts';

/**
 * On stop, what happens to the coins a bot holds: kept in the account (the default; the bot may be started
 * again or the coins sold by hand) or sold at market to USDT first (Pionex's choice), which counts in the
 * cycle's profit. One bot's stop and a batch stop ask it alike.
 */
export function StopChoice({ sell, onSell, batch = false }: { sell: boolean; onSell: (sell: boolean) => void; batch?: boolean }) {
  return (
    <fieldset className={css.stopChoice} data-testid="stop-choice">
      <legend className={css.figureLabel}>{batch ? <Trans>持仓的策略持有的币</Trans> : <Trans>持有的币</Trans>}</legend>
      <label className={css.choice}>
        <input type="radio" name="stop-coins" checked={!sell} onChange={() => onSell(false)} data-testid="stop-keep" />
        <span>
          <strong>
            <Trans>保留</Trans>
          </strong>
          <span className={css.figureLabel}>
            <Trans>币留在账户中，之后可手动卖出或再次启动策略。</Trans>
          </span>
        </span>
      </label>
      <label className={css.choice}>
        <input type="radio" name="stop-coins" checked={sell} onChange={() => onSell(true)} data-testid="stop-sell" />
        <span>
          <strong>
            <Trans>全部卖出换回 USDT</Trans>
          </strong>
          <span className={css.figureLabel}>
            <Trans>按市价卖出本轮持仓，计入本轮盈亏，然后停止。</Trans>
          </span>
        </span>
      </label>
    </fieldset>
  );
}
