import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import type { BotDetail } from '../../../../contract/bots.ts';

/** An order resting on the exchange (a grid level's, a martin or DCA add or take profit), its state in words. */
export const restingStateWords: Record<NonNullable<BotDetail['resting']>[number]['state'], MessageDescriptor> = {
  resting: msg`挂单中`,
  placing: msg`提交中`,
  cancelling: msg`撤单中`,
  unknown: msg`核实中`,
  refused: msg`被拒绝`,
};
