import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import type { BuiltBotType } from '../../contract/bots.ts';

/** How the screens name a bot type and its realised profit. */
export interface BotTypeNames {
  /** Its name (马丁格尔 / Martingale, never "Martin"). */
  name: MessageDescriptor;
  /** The names the server gives a bot left unnamed, in every language and every version ("BTC/USDT Martin"). */
  serverNames: readonly string[];
  /** Its realised profit is named grid profit (网格利润). */
  gridProfit: boolean;
  /** Its create link among the list's shortcuts (网格策略 / Grid bot). */
  create: MessageDescriptor;
}

/**
 * The bot types by name, one line each, in the order the screens list them. Here, not in the bots
 * feature's registry (src/features/bots/strategies), because the strategy rank names a type too and a
 * feature never reaches into another; and because the bot list, the cards and the bills read these
 * without loading the bot screens the registry brings. Its texts are in the shared catalog, which every
 * logged-in screen has. A type's form is /strategy/$type/{-$id}: a link needs no more than the type.
 */
export const botTypes: { readonly [T in BuiltBotType]: BotTypeNames } = {
  martin: { name: msg`马丁格尔`, serverNames: ['Martin', 'Martingale', '马丁格尔'], gridProfit: false, create: msg`马丁格尔策略` },
  grid: { name: msg`网格`, serverNames: ['Grid', '网格'], gridProfit: true, create: msg`网格策略` },
  dca: { name: msg`DCA`, serverNames: ['DCA'], gridProfit: false, create: msg`DCA 策略` },
  custom: { name: msg`自定义`, serverNames: ['Custom', '自定义'], gridProfit: false, create: msg`自定义策略` },
  dip: { name: msg`抄底`, serverNames: ['Dip', '抄底'], gridProfit: false, create: msg`抄底策略` },
};

/** The types the screens suggest to a trader without bots: the first behind every "create" button, the second beside it. */
export const starterTypes = { first: 'martin', second: 'grid' } as const satisfies Record<string, BuiltBotType>;

/** Every type, in the screens' order (the list's filter). */
export const botTypeList = Object.keys(botTypes) as BuiltBotType[];
