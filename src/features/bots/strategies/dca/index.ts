import { msg } from '@lingui/core/macro';
import { botTypes } from '../../../../shared/bot-types.ts';
import type { StrategyUi } from '../strategy-ui.ts';
import { DcaFormPage } from './dca-form-page.tsx';
import { DcaDetailRules } from './dca-detail-rules.tsx';

/** DCA: a deal opens with its base order (at once, on a schedule, on an indicator or a signal), then safety orders as the price falls. */
export const dca: StrategyUi<'dca'> = {
  type: 'dca',
  names: botTypes.dca,
  FormPage: DcaFormPage,
  takesSignals: true,
  manualTrading: true,
  roiOnBudgetOnly: false,
  nextAddLabel: msg`下一安全单价`,
  nextAddLine: msg`安全单`,
  // A DCA bot's deal opens with its base order; its adds are its safety orders.
  logTitles: { open: msg`底仓买入`, add: msg`安全单买入` },
  DetailRules: DcaDetailRules,
};
