import { Trans, useLingui } from '@lingui/react/macro';
import type { TradingMode } from '../../../shared/use-trading-mode.ts';
import * as css from '../../../shared/blocks.css.ts';

/** 实盘 | 模拟: which bots a list or a bill shows. */
export function ModeSwitch({ mode, onChange }: { mode: TradingMode | undefined; onChange: (m: TradingMode) => void }) {
  const { t } = useLingui();
  return (
    <div className={css.chips} role="tablist" aria-label={t`实盘或模拟`} data-testid="mode-switch">
      <button type="button" role="tab" aria-selected={mode === 'live'} className={css.chip} onClick={() => onChange('live')} data-testid="mode-live">
        <Trans>实盘</Trans>
      </button>
      <button type="button" role="tab" aria-selected={mode === 'simulation'} className={css.chip} onClick={() => onChange('simulation')} data-testid="mode-simulation">
        <Trans>模拟</Trans>
      </button>
    </div>
  );
}
