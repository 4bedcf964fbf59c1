import { Trans } from '@lingui/react/macro';
import Decimal from 'decimal.js';
import { num } from '../../../shared/format.ts';
import * as ui from '../../../components/ui/ui.css.ts';
import * as css from './bots.css.ts';

/**
 * What the account has free beside the investment field, and a warning when the bot's worst case is
 * more: the start would be refused. Shows nothing while the balance is unknown.
 */
export function AvailableHint({ available, quote, needed, locale }: { available: string | null; quote: string; needed: string | null; locale: string }) {
  if (available === null) return null;
  const short = needed !== null && /^\d+(\.\d+)?$/.test(needed) && new Decimal(needed).gt(available);
  return (
    <div className={css.availableHint} data-testid="available-hint">
      <span className={ui.muted}>
        <Trans>
          可用 {num(available, locale, 2)} {quote}
        </Trans>
      </span>
      {short ? (
        <span role="alert" className={css.availableShort}>
          <Trans>超过可用余额：启动时会被拒绝，请减少投资或先充值。</Trans>
        </span>
      ) : null}
    </div>
  );
}
