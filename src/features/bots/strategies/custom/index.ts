import { msg } from '@lingui/core/macro';
import { lazyRouteComponent } from '@tanstack/react-router';
import type { CustomParams } from '../../../../../strategy/custom/rules.ts';
import { botTypeNames } from '../../../../shared/bot-types.ts';
import type { StrategyUi } from '../strategy-ui.ts';

/** Custom: buys and sells on the trader's own indicator rules (or webhook signals). */
export const custom: StrategyUi<'custom'> = {
  type: 'custom',
  name: botTypeNames.custom,
  serverNames: ['Custom', '自定义'],
  FormPage: lazyRouteComponent(() => import('./custom-form-page.tsx'), 'CustomFormPage'),
  takesSignals: true,
  manualTrading: true,
  roiOnBudgetOnly: false,
  gridProfit: false,
  nextAddLabel: msg`下次补仓价`,
  nextAddLine: msg`补仓`,
  DetailRules: lazyRouteComponent(() => import('./custom-detail-rules.tsx'), 'CustomDetailRules'),
  chartRules: (params) => {
    const p = params as Partial<CustomParams>;
    return { entry: p.entry, exit: p.exit };
  },
};
