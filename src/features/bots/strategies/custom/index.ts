import { msg } from '@lingui/core/macro';
import { botTypes } from '../../../../shared/bot-types.ts';
import { type CustomParams, validateCustom } from '../../../../../strategy/custom/rules.ts';
import type { StrategyUi } from '../strategy-ui.ts';
import { CustomFormPage } from './custom-form-page.tsx';
import { CustomDetailRules } from './custom-detail-rules.tsx';

/** Custom: buys and sells on the trader's own indicator rules (or webhook signals). */
export const custom: StrategyUi<'custom'> = {
  type: 'custom',
  names: botTypes.custom,
  FormPage: CustomFormPage,
  // Its rules are nested: taken only when the strategy finds nothing wrong with them (a null exit, an empty stop: none).
  copied: (params) => {
    const { exit, takeProfit, stopLoss, ...rest } = params;
    const own = { ...rest, ...(exit ? { exit } : {}), ...(takeProfit ? { takeProfit } : {}), ...(stopLoss ? { stopLoss } : {}) };
    return 'entry' in own && validateCustom(own).length === 0 ? (own as CustomParams) : undefined;
  },
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
