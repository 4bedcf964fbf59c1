import { msg } from '@lingui/core/macro';
import { botTypes } from '../../../../shared/bot-types.ts';
import { flatParams } from '../../bot-copy.ts';
import type { StrategyUi } from '../strategy-ui.ts';
import { GridFormPage } from './grid-form-page.tsx';
import { GridDetail } from './grid-detail.tsx';
import { GridAiSummary, gridRangeMoved } from './ai-summary.tsx';

/** Grid: a buy and a sell order on each level of a price range; its coins wait on its sell levels. */
export const grid: StrategyUi<'grid'> = {
  type: 'grid',
  names: botTypes.grid,
  FormPage: GridFormPage,
  copied: (params) => flatParams(params, ['lower']),
  takesSignals: false,
  manualTrading: false,
  roiOnBudgetOnly: true,
  nextAddLabel: msg`下一买入价`,
  nextAddLine: msg`补仓`,
  ai: { Summary: GridAiSummary, startNote: gridRangeMoved },
  DetailExtras: GridDetail,
};
