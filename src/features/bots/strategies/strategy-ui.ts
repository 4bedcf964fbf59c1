import type { ComponentType } from 'react';
import type { I18n, MessageDescriptor } from '@lingui/core';
import type { BotAction, BotDetail, BuiltBotType, ParamsInputOf } from '../../../../contract/bots.ts';
import type { Rule } from '../../../../strategy/custom/rules.ts';
import type { BotCopy } from '../bot-copy.ts';
import type { BotTypeNames } from '../../../shared/bot-types.ts';

/** What a type's create and edit screen is given: the bot to edit, or the exchange and the copied settings of a new one. */
export interface FormPageProps<T extends BuiltBotType = BuiltBotType> {
  id?: string | undefined;
  exchange?: string | undefined;
  /** Its parameters already the type's (`copied`). */
  copy?: BotCopy<ParamsInputOf<T>> | undefined;
}

/** What a type's own part of the detail screen is given: the bot and the pair's tick and step, once known. */
export interface DetailPartProps {
  bot: BotDetail;
  tick: string | undefined;
  step: string | undefined;
}

/**
 * Everything the PWA's shared bot screens need to know of one bot type, so that none of them names a
 * type: each type answers it in strategies/<type>/index.ts and the registry (./index.ts) lists them.
 * Only the bot screens (detail, logs, manual trading, AI, the forms: one chunk, bot-routes.tsx) import
 * the registry; the list, cards and bills read the type's names from src/shared/bot-types.ts.
 */
export interface StrategyUi<T extends BuiltBotType = BuiltBotType> {
  /** The type, as the server and the URL spell it (/strategy/martin). */
  type: T;
  /** How the screens name it and its realised profit (src/shared/bot-types.ts: the rank and the bot list name it too). */
  names: BotTypeNames;
  /** Its create and edit screen (/strategy/$type/{-$id}). */
  FormPage: ComponentType<FormPageProps<T>>;
  /**
   * A copied parameter set (from an address, which anyone can write) as this type's, or undefined when it
   * is not one: checked by the type's own rules (bot-copy.ts flatParams for plain values).
   */
  copied(params: Record<string, unknown>): ParamsInputOf<T> | undefined;
  /** It acts on webhook signals: the detail shows its webhook and its last signals. */
  takesSignals: boolean;
  /** Manual adds and part closes are offered: a grid's coins sit on its levels, with no one position to add to or sell a share of. */
  manualTrading: boolean;
  /** Its ROI counts on the budget only, not also on the funds in use (a grid's whole budget is at work on its levels). */
  roiOnBudgetOnly: boolean;
  /** The detail's figure for the next buy's price (下次补仓价, 下一买入价, 下一安全单价). */
  nextAddLabel: MessageDescriptor;
  /** The chart's line at that price (补仓, 安全单). */
  nextAddLine: MessageDescriptor;
  /** How its log lines name its orders where it has words of its own (a DCA deal's base and safety orders). */
  logTitles?: Partial<Record<BotAction['kind'], MessageDescriptor>>;
  /** Its rules in words, under the detail's summary (a custom bot's rules, a DCA bot's indicator start). */
  DetailRules?: ComponentType<DetailPartProps>;
  /** What only this type shows on the detail, under its operations (a grid's levels). */
  DetailExtras?: ComponentType<DetailPartProps>;
  /** What the AI screen shows of a proposal of this type, and what it says once the bot is made (a grid moved to the price now); only the types the AI proposes. */
  ai?: {
    Summary: ComponentType<{ params: unknown }>;
    startNote?: (proposed: unknown, created: unknown, i18n: I18n) => string | null;
  };
  /** The rules whose indicators its chart draws (a custom bot's entry and exit), none for the others. */
  chartRules?: (params: unknown) => { entry?: Rule | undefined; exit?: Rule | undefined } | undefined;
}
