import type Decimal from 'decimal.js';
import type { ZodType } from 'zod';
import type { Replay } from './backtest-report.ts';
import type { BotDetail } from '../contract/bots.ts';
import type { CodeName } from '../contract/codes.ts';
import type { CustomFeed } from './custom/feed.ts';
import type { Rule } from './custom/rules.ts';
import type { CloseAsk, CloseSize } from './core/position.ts';
import type { MarketRules } from './core/market.ts';
import type { BuiltBotType } from './params.ts';
import type { CandleClosed } from './custom/strategy.ts';
import type { RestingKit } from './resting.ts';
import type { BotId, ClientOrderId, CycleClosed, Decide, Intent, PlaceOrder, Triggers } from './types.ts';

// The kit's interfaces on their own: a strategy's kit (custom/kit.ts, ...) implements them without
// importing the registry (kit.ts) that lists it, so no import cycle ties a strategy to the list.

/** A bot type: one of those whose parameters the API takes (params.ts). */
export type BotType = BuiltBotType;

/**
 * What every type's stored state keeps alike (its state-codec.ts), which the server's store reads
 * without asking the type: its phase, and the order in flight (null when none).
 */
export interface StoredKitState {
  phase: string;
  pending: { id: string; reason: PlaceOrder['reason'] } | null;
}

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
export interface StrategyKit<S extends KitState = KitState, V = unknown, P = unknown, I = unknown> {
  type: BotType;
  view(params: unknown, market: MarketRules): V;
  initial(bot: BotId): S;
  decide: Decide<S, V>;
  decode(id: string, stored: unknown, view: V): S;
  encode(state: S): StoredKitState;
  /**
   * The prices (and the time) at which it is asked (types.ts Triggers): the live engine's price book and
   * the backtest's walk read them alike.
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

  // What the services and the queries need of a bot type, so that none of them branches on one.

  /** The parameters' schema as the create, update and backtest calls take them (contract/bots.ts). */
  paramsSchema: ZodType<I>;
  /** The parameters as stored, from the form's (checked by paramsSchema): the optional exits left out when off. */
  stored(input: I): P;
  /** The stored parameters as the form sends them (the edit screen, a copy of a shared bot). */
  input(params: P): I;
  /** The parameters a copy of a shared bot takes: what depends on its owner's clock told in UTC. */
  shared?(input: I): I;
  /** A parameter's path (below `params`) in words, where the path would mean nothing to a trader (a rule's nested fields); absent: the envelope names it. */
  fieldWords?(path: string): { zh: string; en: string };
  /** The first thing the market and the price now refuse in the parameters; null when a bot can run on them. */
  problem(params: P, market: MarketRules, price: Decimal): ParamProblem | null;
  /** An AI proposal moved to the price now as its search would have placed it; null when it cannot be (absent: the AI does not propose this type). */
  refit?(params: P, market: MarketRules, price: Decimal): { params: P; moved: boolean } | null;
  /** What the bot holds, read from its stored state (or an encoded one) without the market: the lists' and the positions' figures. */
  held(params: P, stored: unknown): Held;
  /** The floating PnL of what the stored state holds at `price`, net of the sell fee (asked only when it holds something). */
  floating(stored: unknown, market: MarketRules, price: Decimal): Decimal;
  /** The bot's part of the detail screen: its position at `price`, its trigger prices and its plan. */
  detail(state: S, view: V, price: Decimal): KitDetail;
  /**
   * What a manual close may sell: 'sized' a share or a base amount of the position (`book` gives it),
   * 'whole' only all of it, 'none' no part at all (StrategyPartCloseGrid).
   */
  partClose: 'sized' | 'whole' | 'none';
  /** The buys a sized close sells from, with the coin an earlier close carried. */
  book?(state: S): CloseBook;
  /** Whether it commits its whole budget at the start (a grid): then its ROI is on the budget alone, no "used funds". */
  commitsBudget: boolean;
  /** Whether it takes buy and sell signals (a webhook, the signal bus). */
  takesSignals: boolean;
  /** Its indicator rules, whose candles are warmed up from history and cost indicator budget; absent: none. */
  indicators?: {
    rules(params: P): IndicatorRules | null;
    feed(state: S, view: V): CustomFeed | null;
    /** A closed 1-minute candle, as a backtest replays them: the feed takes it and the rules are checked (live, the prices build the candles). */
    closed(state: S, candle: CandleClosed, view: V): { state: S; intents: Intent[] };
  };
  /**
   * Its limit orders resting on the venue at its trigger prices (resting.ts), where the venue takes them;
   * absent: every order is a market order sent when the price crosses its trigger.
   */
  resting?: RestingKit<S, V>;
  /** Its replay on candles (a backtest, the AI search): the same decide function on backtest.ts's price path and fill model. */
  backtest: Replay<V>;
  /** The coin the stored state keeps below the market's step (a close's carry, a grid's dust); '0' when none. */
  dust(stored: unknown): string;
  /** The stored state's fields that clear its dust once the account swept it into the quote. */
  sweptDust: Record<string, string>;
}

/** Rules whose indicators need candles: a custom bot's, or a DCA indicator start's rule read as an entry rule. */
export interface IndicatorRules {
  entry: Rule;
  exit?: Rule | undefined;
}

/** A parameter the market refuses: the code the screens say, the field, and the field in words where its path would mean nothing to a trader. */
export interface ParamProblem {
  code: CodeName;
  field: string;
  words?: { zh: string; en: string };
}

/** What a bot holds by its state. */
export interface Held {
  /** The cycle its new orders are filed under. */
  cycle: number;
  /** Buys held (a grid: its filled levels waiting to sell), and the most it may hold. */
  entries: number;
  maxEntries: number;
  /** Base held, the quote it cost, its average buy price (null when flat). */
  amount: Decimal;
  cost: Decimal;
  average: Decimal | null;
}

/** The buys a close sells from and the coin (with its cost) an earlier close carried. */
export interface CloseBook {
  fills: { price: Decimal; amount: Decimal }[];
  carry: Decimal;
  carryCost: Decimal;
}

/** A bot type's part of botDetail. */
export type KitDetail = Pick<BotDetail, 'amount' | 'dust' | 'unrealized' | 'takeProfitPrice' | 'stopLossPrice' | 'nextAddPrice' | 'averagePrice' | 'fills' | 'levels'> &
  Partial<Pick<BotDetail, 'trailing' | 'grid' | 'close'>>;

export type { CloseAsk, CloseSize, Triggers };
