import type Decimal from 'decimal.js';

/** Typed ids: a bot id and a client order id are both strings, never interchangeable. */
export type BotId = string & { readonly __brand: 'BotId' };
export type ClientOrderId = string & { readonly __brand: 'ClientOrderId' };

export const botId = (id: string) => id as BotId;

/** Deterministic client order id: bot, cycle, sequence. A retry after a crash reuses it, never a new one. */
export function clientOrderId(bot: BotId, cycle: number, seq: number): ClientOrderId {
  return `${bot}-${cycle}-${seq}` as ClientOrderId;
}

export type Side = 'buy' | 'sell';

// ---- events (past tense): what happened ----
export interface BotStarted {
  type: 'BotStarted';
  price: Decimal;
}
export interface PriceTicked {
  type: 'PriceTicked';
  price: Decimal;
  /**
   * The round's own price when the bot is asked at a trigger price the round crossed (`price` is then
   * that trigger: server/engine/bot-book.ts): what an indicator's feed records, the market's price.
   */
  market?: Decimal | undefined;
  /** The market's time of the price (ms since the epoch), for strategies that act on time (a DCA bot's schedule and cooldown); absent: unknown. */
  at?: number | undefined;
}
export interface OrderFilled {
  type: 'OrderFilled';
  clientOrderId: ClientOrderId;
  side: Side;
  price: Decimal;
  amount: Decimal;
  /** It rested on the venue's book and was filled there: it paid the maker fee (MarketRules.makerFeeRate). */
  maker?: boolean | undefined;
}
export interface OrderRejected {
  type: 'OrderRejected';
  clientOrderId: ClientOrderId;
  reason: string;
}
export interface ManualAddRequested {
  type: 'ManualAddRequested';
  price: Decimal;
  /** The quote to spend, when the trader chose it (else the strategy's next order size). */
  quote?: Decimal | undefined;
}
export interface ManualCloseRequested {
  type: 'ManualCloseRequested';
  price: Decimal;
  /** A partial close (martin): the base to sell, fewer than all held, and its share in percent for the log; absent: everything. */
  part?: { amount: Decimal; share: string } | undefined;
}
/**
 * An outside signal (a webhook's alert) for a DCA or custom bot: buy = enter (open a deal),
 * sell / close = exit at market. Recorded before it reaches the strategy, which decides on it like any
 * event; `signal` is the stored signal's id (the decision's transaction marks it acted on, once).
 */
export interface SignalReceived {
  type: 'SignalReceived';
  action: 'buy' | 'sell' | 'close';
  price: Decimal;
  signal: string;
  /** The alert's own id (its `id`), for the action log. */
  alert: string;
}
export type EngineEvent = BotStarted | PriceTicked | OrderFilled | OrderRejected | ManualAddRequested | ManualCloseRequested | SignalReceived;

// ---- intents (imperative): what the strategy asks the engine to do ----
/** A market buy spends `quote`; a market sell sells `amount` of base. */
export interface PlaceOrder {
  type: 'PlaceOrder';
  clientOrderId: ClientOrderId;
  side: Side;
  quote?: Decimal;
  amount?: Decimal;
  /** Why, for the action log: open, add, manual_add, close (take profit), stop (stop loss), manual_close, signal_close (a sell or close signal), exit_rule (a custom bot's sell rule held). */
  reason: 'open' | 'add' | 'manual_add' | 'close' | 'stop' | 'manual_close' | 'signal_close' | 'exit_rule';
  /**
   * The trigger price the order rests at (set by the engine, not the strategy, when a price round
   * crossed one of the bot's trigger prices and the bot decided at it): the backtest's fill model,
   * an order resting on the book at its trigger. Paper fills it there, never better than the market
   * (server/exchanges/paper-fill.ts); a live exchange gets a market order.
   */
  at?: Decimal;
}
export interface CycleClosed {
  type: 'CycleClosed';
  cycle: number;
  profit: Decimal;
}
/** A partial close sold part of the open cycle's position: its profit is realised now, the cycle goes on with the rest. */
export interface PositionReduced {
  type: 'PositionReduced';
  cycle: number;
  profit: Decimal;
  /** The share sold, in percent of what was held ("50"). */
  share: string;
}
export interface PauseBot {
  type: 'PauseBot';
  reason: string;
}
/**
 * A trailing exit moved (trailing.ts): armed (the take-profit price was reached), its high raised, or
 * fired (the sale placed with it). The engine stores the state with it (the high survives a restart)
 * and logs arming and firing.
 */
export interface TrailingMoved {
  type: 'TrailingMoved';
  exit: 'take_profit' | 'stop_loss';
  step: 'armed' | 'raised' | 'fired';
  /** The high followed (since arming; since the entry for a stop). */
  high: Decimal;
  /** The sale's price line now: high x (1 - percent), floored to the tick. */
  line: Decimal;
}
/**
 * The decision changed what the bot must still know after a restart (a reference price it set), with
 * nothing to place or log: the engine commits a decision only when it has intents, and this one asks for
 * the state to be stored like any other's.
 */
export interface StateKept {
  type: 'StateKept';
}
/**
 * A range bot's fill took it to an edge of its range (a grid: no buy level left below the price, `low`, or
 * nothing left to sell above it, `high`): the trader is told, once, that it trades no more that way.
 */
export interface RangeEdgeReached {
  type: 'RangeEdgeReached';
  side: 'low' | 'high';
  /** The edge: its lowest or highest price. */
  price: Decimal;
}
export type Intent = PlaceOrder | CycleClosed | PositionReduced | PauseBot | TrailingMoved | StateKept | RangeEdgeReached;

/**
 * The prices and the time that make a bot act, as its kit tells them (kit-types.ts `triggers`): the live
 * engine's price book (server/engine/bot-book.ts) and the backtest's walk (backtest.ts walkKit) both ask a
 * bot only there, so that both ask it at the same prices.
 */
export interface Triggers {
  /**
   * Asked when the price is >= up: its up trigger price (upAt: a take profit, a grid's sell level), or a
   * trailing exit's high when that is lower (any price above it moves the exit's line); Infinity: never.
   */
  up: number;
  /** Asked when the price is <= down (an add, a stop, a trailing line, a buy level); -Infinity: never. */
  down: number;
  /** Asked at any price: it waits to open (or reads every price round, an indicator's feed). */
  asks: boolean;
  /**
   * The trigger prices themselves, at which a round that crossed them is decided and its order rests
   * (PlaceOrder.at); absent: the round's own price (a strategy without them). upAt null while `up` is
   * finite, or above `up`: `up` is a followed high.
   */
  upAt?: Decimal | null;
  downAt?: Decimal | null;
  /**
   * While it waits to open: the market time (ms) before which no price can open it (a schedule's next
   * start, a cooldown's end); absent: any time. The walk does not ask it before then.
   */
  after?: number | undefined;
}

/** A strategy: pure, no I/O, no clock, no randomness. The engine persists state and carries out intents. */
export type Decide<S, V> = (state: S, event: EngineEvent, view: V) => { state: S; intents: Intent[] };
