import type Decimal from 'decimal.js';
import { customKit } from './custom/kit.ts';
import { dcaKit } from './dca/kit.ts';
import { dipKit } from './dip/kit.ts';
import { gridKit } from './grid/kit.ts';
import { martinKit } from './martin/kit.ts';

// The one list of the bot types: the engine, the services and the queries know a type only through its
// kit (kit-types.ts). A new type is its folder here and one line below.
export type { BotType, CloseBook, Held, IndicatorRules, KitDetail, KitState, ParamProblem, StrategyKit, Triggers } from './kit-types.ts';
import type { BotType, StrategyKit, Triggers } from './kit-types.ts';

export { customKit, dcaKit, gridKit, martinKit };

/**
 * The trigger price `price` is on or past, at which the engine decides the round (server/engine/bot-book.ts):
 * the down one, else the up one (`upAtNumber`: upAt as a double, kept by a caller on a hot path); null when
 * it crossed neither, or the kit gives no trigger prices (then the round's own price).
 */
export function crossedTrigger(t: Pick<Triggers, 'down' | 'upAt' | 'downAt'>, price: number, upAtNumber = t.upAt ? Number(t.upAt.toString()) : Infinity): Decimal | null {
  if (t.downAt && price <= t.down) return t.downAt;
  return t.upAt && price >= upAtNumber ? t.upAt : null;
}

const kits: Record<BotType, StrategyKit> = {
  martin: martinKit as unknown as StrategyKit,
  grid: gridKit as unknown as StrategyKit,
  dca: dcaKit as unknown as StrategyKit,
  custom: customKit as unknown as StrategyKit,
  dip: dipKit as unknown as StrategyKit,
};

/** The bot types the engine can trade: those with a kit. */
export const tradableTypes: readonly string[] = Object.keys(kits);

/** The kit of a bot type (bots.type). */
export function kitOf(type: string): StrategyKit {
  const kit = kits[type as BotType];
  if (!kit) throw new RangeError(`no strategy ${type}`);
  return kit;
}

/** Whether a bot of `type` holds a position by its stored state, as its kit reads it (held: entries). */
export function holdsBy(type: string, params: unknown, stored: unknown): boolean {
  return kitOf(type).held(params, stored).entries > 0;
}

/**
 * Whether a stored state holds a position by the shape every type keeps it in (fills, or sell orders):
 * what server/store/holds-position-sql.ts asks in SQL, for the tests that hold each kit to it.
 */
export function holdsPosition(state: unknown): boolean {
  const s = state as { fills?: unknown[]; orders?: ({ side: string } | null)[] } | null | undefined;
  return (s?.fills?.length ?? 0) > 0 || (s?.orders ?? []).some((o) => o?.side === 'sell');
}
