import { msg } from '@lingui/core/macro';
import { botTypes } from '../../../../shared/bot-types.ts';
import { startRuleProblems } from '../../../../../strategy/dca/plan.ts';
import { flatParams } from '../../bot-copy.ts';
import type { StrategyUi } from '../strategy-ui.ts';
import { DcaFormPage } from './dca-form-page.tsx';
import { DcaDetailRules } from './dca-detail-rules.tsx';

/** A copied start: an object of plain values, or an indicator start whose rule the strategy finds nothing wrong with. */
function copiedStart(v: unknown): boolean {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return false;
  const s = v as Record<string, unknown>;
  return s.kind === 'indicator' ? Object.keys(s).length === 2 && startRuleProblems(s.rule).length === 0 : Object.values(s).every((x) => ['string', 'number', 'boolean'].includes(typeof x));
}

/** DCA: a deal opens with its base order (at once, on a schedule, on an indicator or a signal), then safety orders as the price falls. */
export const dca: StrategyUi<'dca'> = {
  type: 'dca',
  names: botTypes.dca,
  FormPage: DcaFormPage,
  // The start is the one object its parameters carry.
  copied: (params) => flatParams(params, ['baseOrder'], { start: copiedStart }),
  takesSignals: true,
  manualTrading: true,
  roiOnBudgetOnly: false,
  nextAddLabel: msg`下一安全单价`,
  nextAddLine: msg`安全单`,
  // A DCA bot's deal opens with its base order; its adds are its safety orders.
  logTitles: { open: msg`底仓买入`, add: msg`安全单买入` },
  DetailRules: DcaDetailRules,
};
