import type { CodeName } from '../../contract/codes.ts';
import { customFieldText } from '../../contract/custom-fields.ts';
import type { ParamProblem } from '../kit-types.ts';
import type { CustomProblem } from './rules.ts';

/** A rule's problem (rules.ts validateCustom) as the code the screens say in zh and en; the field goes beside. */
const problemCode: Record<CustomProblem['reason'], CodeName> = {
  required: 'RequiredFieldMissing',
  format: 'StrategyInvalidParams',
  range: 'StrategyInvalidParams',
  tooMany: 'StrategyInvalidParams',
  unknown: 'StrategyInvalidParams',
  sameSides: 'StrategyInvalidParams',
  noIndicator: 'StrategyInvalidParams',
  noExit: 'RequiredFieldMissing',
  insufficient: 'StrategyInvalidInvestment',
  belowMinimum: 'StrategyOrderBelowMinimum',
  // A trailing exit without its percentage: the take profit or stop loss is missing (as martin's).
  trailingNeedsTakeProfit: 'RequiredFieldMissing',
  trailingStopNeedsStopLoss: 'RequiredFieldMissing',
};

/**
 * A rule's problem said to a trader: its code, its field's path, and the field in words (zh / en), never
 * its path ("entry.conditions.1.right.period"). `words`: the path the words are looked up by when it is
 * not the field's (a DCA start rule is worded as the custom bot's entry rule).
 */
export function ruleProblem(problem: CustomProblem, field: string, words = problem.field): ParamProblem {
  return {
    code: problemCode[problem.reason],
    field,
    // No way out at all: any one of the three will do.
    words:
      problem.reason === 'noExit'
        ? { zh: '止盈、止损或卖出规则（至少一项）', en: 'take profit, stop loss or sell rule (at least one)' }
        : { zh: customFieldText(words, 'zh'), en: customFieldText(words, 'en') },
  };
}
