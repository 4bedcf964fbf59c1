import { Trans } from '@lingui/react/macro';
import Decimal from 'decimal.js';
import { usdt } from '../../../shared/format.ts';
import * as ui from '../../../components/ui/ui.css.ts';
import * as css from './bots.css.ts';

/**
 * What the account has free and the trader's other bots have not reserved, beside the investment field,
 * with what they reserve; a warning when the bot's worst case is more: the start would be refused. Shows
 * nothing while the balance is unknown.
 */
export function AvailableHint({ available, reserved = '0', quote, needed, locale }: { available: string | null; reserved?: string; quote: string; needed: string | null; locale: string }) {
  if (available === null) return null;
  const short = needed !== null && /^\d+(\.\d+)?$/.test(needed) && new Decimal(needed).gt(available);
  const held = new Decimal(reserved).gt(0);
  return (
    <div className={css.availableHint} data-testid="available-hint">
      <span className={ui.muted}>
        <Trans>
          可用 {usdt(available, locale)} {quote}（未被其他策略预留）
        </Trans>
      </span>
      {held ? (
        <span className={ui.muted} data-testid="available-reserved">
          <Trans>
            运行中的策略已预留 {usdt(reserved, locale)} {quote}，用于它们尚未成交的加仓和买单。
          </Trans>
        </span>
      ) : null}
      {short ? (
        <span role="alert" className={css.availableShort}>
          <Trans>超过可用余额：启动时会被拒绝，请减少投资、停止其他策略或先充值。</Trans>
        </span>
      ) : null}
    </div>
  );
}
