import type { BuiltBotType } from '../../../../contract/bots.ts';
import { custom } from './custom/index.ts';
import { dca } from './dca/index.ts';
import { dip } from './dip/index.ts';
import { grid } from './grid/index.ts';
import { martin } from './martin/index.ts';
import type { StrategyUi } from './strategy-ui.ts';

/**
 * The bot types the PWA offers, one line each: every shared bot screen reads a type's answers here
 * instead of naming it. A new type is its folder, a line here and its names in src/shared/bot-types.ts.
 *
 * The types' screens are imported, not loaded on demand: the bot screens (one chunk) carry all four
 * forms, as they did before the registry. A chunk per form (and per detail part) cost 11 kB more gzip
 * in all (many small files compress worse than one), past the precache budget (tests/budget.test.ts).
 */
export const strategies: { readonly [T in BuiltBotType]: StrategyUi<T> } = { martin, grid, dca, custom, dip };

/** Every type, in the screens' order (the list's filter chips). */
export const strategyList: readonly StrategyUi[] = Object.values(strategies);

/** The type of that name, or undefined for a name the PWA does not know (an old link, a mistyped URL). */
export function strategyOf(type: string): StrategyUi | undefined {
  return Object.hasOwn(strategies, type) ? strategies[type as BuiltBotType] : undefined;
}
