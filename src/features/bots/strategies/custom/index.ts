import { msg } from '@lingui/core/macro';
import type { CustomParams } from '../../../../../strategy/custom/rules.ts';
import { botTypes } from '../../../../shared/bot-types.ts';
import type { StrategyUi } from '../strategy-ui.ts';
import { CustomFormPage } from './custom-form-page.tsx';
import { CustomDetailRules } from './custom-detail-rules.tsx';

/** Custom: buys and sells on the trader's own indicator rules (or webhook signals). */
export const custom: StrategyUi<'custom'> = {
  type: 'custom',
  names: botTypes.custom,
  FormPage: CustomFormPage,
  takesSignals: true,
  manualTrading: true,
  roiOnBudgetOnly: false,
  nextAddLabel: msg`下次补仓价`,
  nextAddLine: msg`补仓`,
  DetailRules: CustomDetailRules,
  chartRules: (params) => {
    const p = params as Partial<CustomParams>;
    return { entry: p.entry, exit: p.exit };
  },
};
