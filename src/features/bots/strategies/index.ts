import type { BuiltBotType } from '../../../../contract/bots.ts';
import { custom } from './custom/index.ts';
import { dca } from './dca/index.ts';
import { grid } from './grid/index.ts';
import { martin } from './martin/index.ts';
import type { StrategyUi } from './strategy-ui.ts';

/**
 * The bot types the PWA offers, one line each, in the order the screens list them: every shared bot
 * screen reads a type's answers here instead of naming it. A new type is its folder and a line here.
 */
export const strategies: { readonly [T in BuiltBotType]: StrategyUi<T> } = { martin, grid, dca, custom };

/** Every type, in the screens' order (the list's filter chips). */
export const strategyList: readonly StrategyUi[] = Object.values(strategies);

/** The type of that name, or undefined for a name the PWA does not know (an old link, a mistyped URL). */
export function strategyOf(type: string): StrategyUi | undefined {
  return Object.hasOwn(strategies, type) ? strategies[type as BuiltBotType] : undefined;
}

/** Loads that type's create and edit screen (the route's loader, so that it renders at once); false for an unknown type. */
export async function preloadForm(type: string): Promise<boolean> {
  const strategy = strategyOf(type);
  if (!strategy) return false;
  await strategy.FormPage.preload?.();
  return true;
}

/** Loads every type's own parts of the detail screen (the detail route's loader, before the bot's type is known), so they show with the rest of it. */
export async function preloadDetailParts(): Promise<void> {
  await Promise.all(strategyList.flatMap((s) => [s.DetailRules?.preload?.(), s.DetailExtras?.preload?.()]));
}
