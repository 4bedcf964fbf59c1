import type Decimal from 'decimal.js';
import type { MarketRules } from './martin/rules.ts';
import type { BotId, ClientOrderId, CycleClosed, Decide, PlaceOrder } from './types.ts';

// The kit's interfaces on their own: a strategy's kit (custom/kit.ts, ...) implements them without
// importing the registry (kit.ts) that lists it, so no import cycle ties a strategy to the list.

export type BotType = 'martin' | 'grid' | 'dca' | 'custom';

/** What the engine needs of any strategy's state. */
export interface KitState {
  bot: BotId;
  phase: string;
  seq: number;
  pending: { id: ClientOrderId; reason: PlaceOrder['reason'] } | null;
  realized: Decimal;
}

/**
 * A strategy as the engine runs it (one engine, many strategies): its pure decide
 * function, its state's storage form, and the prices that make it act. The runner, the price book and
 * the persistence know strategies only through this.
 */
export interface StrategyKit<S extends KitState = KitState, V = unknown> {
  type: BotType;
  view(params: unknown, market: MarketRules): V;
  initial(bot: BotId): S;
  decide: Decide<S, V>;
  decode(id: string, stored: unknown, view: V): S;
  encode(state: S): unknown;
  /**
   * Ask the strategy when the price is >= up or <= down; `asks`: at any price (it waits to open).
   * `upAt` / `downAt`: the trigger prices themselves (a take profit or a grid's sell level; an add, a
   * stop, a trailing line or a buy level), at which a round that crossed them is decided and its order
   * rests (`PlaceOrder.at`); absent: the round's own price (a followed high, a strategy without them).
   */
  triggers(state: S, view: V): Triggers;
  /** The cycle number new orders and closed cycles are filed under. */
  cycle(state: S): number;
  /** What a closed cycle held: entries, base amount and its cost (bot_cycles). */
  cycleFigures(before: S, closed: CycleClosed): { entries: number; amount: Decimal; cost: Decimal };
  /** The state with its trigger prices recomputed for new parameters. */
  retarget(state: S, view: V): S;
  /**
   * The quote the bot may still spend on buys it has not made, at worst: what a running bot reserves of
   * its account's free balance, so that other bots cannot commit it too (martin: every add left in the
   * cycle, or the whole cycle while it waits to open; DCA: the safety orders left, or a whole deal; grid:
   * its buy levels not filled, or the investment before it starts; custom: one entry while it waits).
   * An order in flight is not spent yet: it is still reserved. Nothing once the bot is done.
   */
  reserved(state: S, view: V): Decimal;
}

export interface Triggers {
  up: number;
  down: number;
  asks: boolean;
  upAt?: Decimal | null;
  downAt?: Decimal | null;
}
