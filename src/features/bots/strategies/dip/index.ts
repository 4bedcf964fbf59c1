import { msg } from '@lingui/core/macro';
import { botTypes } from '../../../../shared/bot-types.ts';
import { flatParams } from '../../bot-copy.ts';
import type { StrategyUi } from '../strategy-ui.ts';
import { DipFormPage } from './dip-form-page.tsx';

/** Buy the dip, once: one buy at a line below the start, sold at its take profit. */
export const dip: StrategyUi<'dip'> = {
  type: 'dip',
  names: botTypes.dip,
  FormPage: DipFormPage,
  copied: (params) => flatParams(params, ['dip']),
  takesSignals: false,
  manualTrading: false,
  roiOnBudgetOnly: false,
  nextAddLabel: msg`买入价`,
  nextAddLine: msg`买入`,
};
