import { msg } from '@lingui/core/macro';
import { lazyRouteComponent } from '@tanstack/react-router';
import { botTypeNames } from '../../../../shared/bot-types.ts';
import type { StrategyUi } from '../strategy-ui.ts';
import { MartinAiSummary } from './ai-summary.tsx';

/** Martingale: buys more as the price falls, sells the whole position at its take profit. */
export const martin: StrategyUi<'martin'> = {
  type: 'martin',
  name: botTypeNames.martin,
  serverNames: ['Martin', 'Martingale', '马丁格尔'],
  FormPage: lazyRouteComponent(() => import('./martin-form-page.tsx'), 'MartinFormPage'),
  takesSignals: false,
  manualTrading: true,
  roiOnBudgetOnly: false,
  gridProfit: false,
  nextAddLabel: msg`下次补仓价`,
  nextAddLine: msg`补仓`,
  ai: { Summary: MartinAiSummary },
};
