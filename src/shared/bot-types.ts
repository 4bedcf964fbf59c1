import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import type { BuiltBotType } from '../../contract/bots.ts';

/**
 * A bot type as the screens name it (马丁格尔 / Martingale, never "Martin"). Here, not in the bots
 * feature's registry, because the strategy rank names a type too and a feature never reaches into
 * another; its texts are in the shared catalog, which every logged-in screen has. A type's form is
 * /strategy/$type/{-$id}, so a link needs no more than the type.
 */
export const botTypeNames = {
  martin: msg`马丁格尔`,
  grid: msg`网格`,
  dca: msg`DCA`,
  custom: msg`自定义`,
} as const satisfies Record<BuiltBotType, MessageDescriptor>;
