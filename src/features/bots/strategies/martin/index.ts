import { msg } from '@lingui/core/macro';
import { botTypes } from '../../../../shared/bot-types.ts';
import { flatParams } from '../../bot-copy.ts';
import type { StrategyUi } from '../strategy-ui.ts';
import { MartinFormPage } from './martin-form-page.tsx';
import { MartinAiSummary } from './ai-summary.tsx';

/** Martingale: buys more as the price falls, sells the whole position at its take profit. */
export const martin: StrategyUi<'martin'> = {
  type: 'martin',
  names: botTypes.martin,
  FormPage: MartinFormPage,
  copied: (params) => flatParams(params, ['firstOrder']),
  takesSignals: false,
  manualTrading: true,
  roiOnBudgetOnly: false,
  nextAddLabel: msg`下次补仓价`,
  nextAddLine: msg`补仓`,
  ai: { Summary: MartinAiSummary },
};
