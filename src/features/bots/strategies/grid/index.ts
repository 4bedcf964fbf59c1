import { msg } from '@lingui/core/macro';
import { lazyRouteComponent } from '@tanstack/react-router';
import { botTypeNames } from '../../../../shared/bot-types.ts';
import type { StrategyUi } from '../strategy-ui.ts';
import { GridAiSummary, gridRangeMoved } from './ai-summary.tsx';

/** Grid: a buy and a sell order on each level of a price range; its coins wait on its sell levels. */
export const grid: StrategyUi<'grid'> = {
  type: 'grid',
  name: botTypeNames.grid,
  serverNames: ['Grid', '网格'],
  FormPage: lazyRouteComponent(() => import('./grid-form-page.tsx'), 'GridFormPage'),
  takesSignals: false,
  manualTrading: false,
  roiOnBudgetOnly: true,
  gridProfit: true,
  nextAddLabel: msg`下一买入价`,
  nextAddLine: msg`补仓`,
  ai: { Summary: GridAiSummary, startNote: gridRangeMoved },
  DetailExtras: lazyRouteComponent(() => import('./grid-detail.tsx'), 'GridDetail'),
};
