import type Decimal from 'decimal.js';
import { money } from '../money.ts';
import { averagePrice, closeCycle, sellableAmount, stopLossPrice, takeProfitPrice, type Fill } from '../core/position.ts';
import type { MarketRules } from '../core/market.ts';
import { stepTrailingStop, stepTrailingTakeProfit, trailLine } from '../trailing.ts';
import { clientOrderId, type BotId, type ClientOrderId, type EngineEvent, type Intent, type PlaceOrder } from '../types.ts';
import { CustomFeed, type Candle } from './feed.ts';
import type { CustomParams } from './rules.ts';

export interface CustomView {
  params: CustomParams;
  market: MarketRules;
}

/**
 * A closed 1-minute candle (open time in ms, prices as doubles): the custom bot's market clock. Its
 * conditions are checked at each one's close; take profit and stop loss act at any price (PriceTicked).
 */
export interface CandleClosed extends Candle {
  type: 'CandleClosed';
}
export type CustomEvent = EngineEvent | CandleClosed;

/**
 * The custom bot's state between events. One position at a time: 'waiting' for the entry rule,
 * 'holding' until an exit (take profit, stop loss, exit rule, or by hand), 'done' after an exit
 * without repeat. `feed` is the market memory (candles, indicators, last check): mutable, never
 * stored, rebuilt from candle history when the bot is loaded (README.md "Registering").
 */
export interface CustomState {
  bot: BotId;
  phase: 'waiting' | 'holding' | 'done';
  cycle: number;
  seq: number;
  fills: Fill[];
  pending: { id: ClientOrderId; reason: PlaceOrder['reason'] } | null;
  /**
   * Prices that end the position: take profit and (fixed) stop loss over the average entry, computed once
   * per fill; `up`, `down`, `follow`: the trigger prices now as doubles (customTriggers: the take profit,
   * Infinity while a trailing take profit is armed; the highest of the stop, fixed or trailing, and the
   * armed line; the high a trailing exit follows, Infinity: none), moved with the trailing highs.
   */
  targets: { takeProfit: Decimal | null; stopLoss: Decimal | null; up: number; down: number; follow: number } | null;
  realized: Decimal;
  /** Base left below the step by the last exit, and its cost (as martin's). */
  carry: Decimal;
  carryCost: Decimal;
  /** Trailing take profit: the high since it armed; null: not armed (README.md "Trailing exits"). */
  trail: Decimal | null;
  /** Trailing stop loss: the high since the entry; null: off (or not set yet: the highest fill then). */
  stopHigh: Decimal | null;
  /** Null until first needed (feedOf): a new or loaded bot's market memory is built for its parameters. */
  feed: CustomFeed | null;
}

/** A fresh bot: waiting for its entry rule to hold (cycle 1). */
export function initialCustomState(bot: BotId): CustomState {
  return {
    bot,
    phase: 'waiting',
    cycle: 1,
    seq: 0,
    fills: [],
    pending: null,
    targets: null,
    realized: money(0),
    carry: money(0),
    carryCost: money(0),
    trail: null,
    stopHigh: null,
    feed: null,
  };
}

/** The state's feed, made for the view's rules when it has none yet (the engine seeds it from history here). */
export function feedOf(state: CustomState, view: CustomView): CustomFeed {
  if (!state.feed) state.feed = new CustomFeed(view.params);
  return state.feed;
}

/** The quote one entry spends: the fixed quote, or the share of the investment (exact). */
export function entryQuote(params: CustomParams): Decimal {
  return params.size.kind === 'fixed' ? money(params.size.quote) : money(params.investment).mul(params.size.percent).div(100);
}

/** Take profit and stop loss over the average entry (martin's formulas: rounded to the tick, up and down), without trailing. */
export function targetsOf(fills: readonly Fill[], { params, market }: CustomView): NonNullable<CustomState['targets']> {
  const avg = averagePrice(fills);
  const takeProfit = params.takeProfit ? takeProfitPrice(avg, params.takeProfit, market.tickSize) : null;
  const stopLoss = params.stopLoss ? stopLossPrice(avg, params.stopLoss, market.tickSize) : null;
  // The same prices as doubles, to compare a candle's close without a decimal (same order as the decimals).
  return { takeProfit, stopLoss, up: takeProfit ? num(takeProfit) : Infinity, down: stopLoss ? num(stopLoss) : -Infinity, follow: Infinity };
}

const num = (d: Decimal) => Number(d.toString());

/** The trailing take profit's deviation (percent), or null when it is off (it trails a take profit). */
const trailingDeviation = (params: CustomParams) => (params.trailingDeviation && params.takeProfit ? params.trailingDeviation : null);
/** The trailing stop loss's percent (the stop loss's), or null when it is off. */
const trailingStop = (params: CustomParams) => (params.trailingStop && params.stopLoss ? params.stopLoss : null);
/** The highest fill price of the position: where a trailing stop's high starts. */
const topFill = (fills: readonly Fill[]) => fills.reduce((top: Decimal, f) => (f.price.gt(top) ? f.price : top), fills[0]!.price);

/**
 * A holding bot's exit lines with its trailing exits (what the detail screen draws): `armed`, an armed
 * trailing take profit's high and sale line; `stop`, the stop loss (trailing the high since the entry
 * when on: `stopHigh`), or null without one.
 */
export function customLines(state: CustomState, { params, market }: CustomView): { armed: { high: Decimal; line: Decimal } | null; stop: Decimal | null; stopHigh: Decimal | null } {
  const deviation = trailingDeviation(params);
  const armed = deviation !== null && state.trail ? { high: state.trail, line: trailLine(state.trail, deviation, market.tickSize) } : null;
  const stopPct = trailingStop(params);
  const stopHigh = stopPct !== null && state.fills.length > 0 ? (state.stopHigh ?? topFill(state.fills)) : null;
  const stop = stopHigh ? trailLine(stopHigh, stopPct!, market.tickSize) : (state.targets?.stopLoss ?? null);
  return { armed, stop, stopHigh };
}

/**
 * The prices that make a holding bot act, for the engine's book and the backtest's walk (martin's
 * martinTriggers): `up`, the take-profit price (null while a trailing take profit is armed, or without
 * one); `down`, the higher of the stop (fixed or trailing) and the armed trailing line; `follow`, the
 * lower of the highs a trailing exit follows (the bot acts at any price above it). Null when not
 * holding.
 */
export function customTriggers(state: CustomState, view: CustomView): { up: Decimal | null; down: Decimal | null; follow: Decimal | null } | null {
  const t = state.targets;
  if (!t || state.phase !== 'holding') return null;
  const lines = customLines(state, view);
  const line = lines.armed?.line ?? null;
  const down = lines.stop && (!line || lines.stop.gt(line)) ? lines.stop : line;
  const high = lines.armed?.high ?? null;
  const follow = high && (!lines.stopHigh || high.lt(lines.stopHigh)) ? high : lines.stopHigh;
  return { up: lines.armed ? null : t.takeProfit, down, follow };
}

/** The state with its trigger doubles (`targets.up`, `down`, `follow`) moved to its trailing highs. */
function retrigger(state: CustomState, view: CustomView): CustomState {
  const t = state.targets;
  const now = customTriggers(state, view);
  if (!t || !now) return state;
  return { ...state, targets: { ...t, up: now.up ? num(now.up) : Infinity, down: now.down ? num(now.down) : -Infinity, follow: now.follow ? num(now.follow) : Infinity } };
}

/** The state with its exit prices recomputed for `view` (after loading it, or new parameters); a trailing exit turned off forgets its high. */
export function retargetCustom(state: CustomState, view: CustomView): CustomState {
  // New rules need a new feed (warmed up again); the same rules keep theirs.
  const feed = state.feed && state.feed.rules === CustomFeed.rulesOf(view.params) ? state.feed : null;
  const trail = trailingDeviation(view.params) === null ? null : state.trail;
  const stopHigh = trailingStop(view.params) === null ? null : state.stopHigh;
  return retrigger({ ...state, feed, trail, stopHigh, targets: state.fills.length > 0 ? targetsOf(state.fills, view) : null }, view);
}

type Decision = { state: CustomState; intents: Intent[] };
const NOTHING: Intent[] = [];

function place(state: CustomState, order: Omit<PlaceOrder, 'type' | 'clientOrderId'>): Decision {
  const seq = state.seq + 1;
  const id = clientOrderId(state.bot, state.cycle, seq);
  return { state: { ...state, seq, pending: { id, reason: order.reason } }, intents: [{ type: 'PlaceOrder', clientOrderId: id, ...order }] };
}

const sellAll = (state: CustomState, view: CustomView, reason: PlaceOrder['reason']) => place(state, { side: 'sell', amount: sellableAmount(state.fills, view.market, state.carry), reason });
/** `moved` (trailing steps) before a decision's intents. */
const withMoved = (moved: Intent[], d: Decision): Decision => (moved.length === 0 ? d : { state: d.state, intents: [...moved, ...d.intents] });
const placesOrder = (d: Decision) => d.intents.some((i) => i.type === 'PlaceOrder');

/**
 * Take profit (at once, or trailing: armed, raised, fired) or stop loss (fixed, or trailing the high
 * since the entry) at `price`, when holding (README.md "Trailing exits"). A trailing step comes as a
 * TrailingMoved intent: the engine stores the state with its high and logs arming and firing.
 */
function onPrice(state: CustomState, price: Decimal, view: CustomView): Decision {
  if (state.phase !== 'holding' || state.pending || !state.targets) return { state, intents: NOTHING };
  const { params, market } = view;
  const { takeProfit, stopLoss } = state.targets;
  let next = state;
  const moved: Intent[] = [];
  const deviation = trailingDeviation(params);
  if (takeProfit && deviation === null) {
    if (price.gte(takeProfit)) return sellAll(state, view, 'close');
  } else if (takeProfit && deviation !== null) {
    const step = stepTrailingTakeProfit(state.trail, price, takeProfit, deviation, market.tickSize);
    if (step.kind !== 'idle' && step.kind !== 'held') {
      next = { ...next, trail: step.high };
      moved.push({ type: 'TrailingMoved', exit: 'take_profit', step: step.kind, high: step.high, line: step.line });
      if (step.kind === 'fired') return withMoved(moved, sellAll(next, view, 'close'));
    }
  }
  const stopPct = trailingStop(params);
  if (stopPct !== null) {
    const before = state.stopHigh;
    const step = stepTrailingStop(before ?? topFill(state.fills), price, stopPct, market.tickSize);
    if (step.kind === 'raised' || before === null) {
      next = { ...next, stopHigh: step.high };
      if (step.kind !== 'fired') moved.push({ type: 'TrailingMoved', exit: 'stop_loss', step: 'raised', high: step.high, line: step.line });
    }
    if (step.kind === 'fired') return withMoved([...moved, { type: 'TrailingMoved', exit: 'stop_loss', step: 'fired', high: step.high, line: step.line }], sellAll(next, view, 'stop'));
  } else if (stopLoss && price.lte(stopLoss)) return withMoved(moved, sellAll(next, view, 'stop'));
  return moved.length === 0 ? { state, intents: NOTHING } : { state: retrigger(next, view), intents: moved };
}

/** A 1-minute close was pushed into the feed: the rules (and take profit / stop loss at the close). */
function onMinute(state: CustomState, close: number, view: CustomView): Decision {
  const feed = state.feed!;
  if (state.pending || state.phase === 'done') return { state, intents: NOTHING };
  // A signals-only bot enters on a buy signal (SignalReceived), never by its entry rule.
  if (state.phase === 'waiting') return feed.entryHolds && !view.params.signalsOnly ? place(state, { side: 'buy', quote: entryQuote(view.params), reason: 'open' }) : { state, intents: NOTHING };
  const t = state.targets;
  let checked: Decision = { state, intents: NOTHING };
  if (t && (close >= t.up || close <= t.down || close > t.follow)) {
    checked = onPrice(state, money(String(close)), view);
    if (placesOrder(checked)) return checked;
  }
  return feed.exitHolds ? withMoved(checked.intents, sellAll(checked.state, view, 'exit_rule')) : checked;
}

/**
 * The custom strategy as a pure function of (state, event) (README.md "The rules"): at each 1-minute
 * close the feed moves on and the rules are checked; the entry rule opens a position when waiting, the
 * exit rule (or take profit / stop loss at the close) ends it when holding. Prices between closes only
 * reach take profit and stop loss.
 */
export function decideCustom(state: CustomState, event: CustomEvent, view: CustomView): Decision {
  switch (event.type) {
    case 'CandleClosed':
      return feedOf(state, view).push(event.time, event.open, event.high, event.low, event.close) ? onMinute(state, event.close, view) : { state, intents: NOTHING };
    case 'PriceTicked':
      // With its market time, a live price also builds the 1-minute candles; the first price of a minute
      // closes the one before, whose check comes first (an order it places waits for its answer).
      if (event.at !== undefined && feedOf(state, view).tick(event.at, Number((event.market ?? event.price).toString()))) {
        const checked = onMinute(state, state.feed!.price, view);
        if (placesOrder(checked)) return checked;
        return withMoved(checked.intents, onPrice(checked.state, event.price, view));
      }
      return onPrice(state, event.price, view);
    case 'BotStarted':
      return onPrice(state, event.price, view);
    case 'SignalReceived':
      // README "Signals": buy enters when flat (waiting, or done after an exit without repeat); sell and close exit the whole position.
      if (state.pending) return { state, intents: NOTHING };
      if (event.action === 'buy')
        return state.phase === 'holding' ? { state, intents: NOTHING } : place({ ...state, phase: 'waiting' }, { side: 'buy', quote: entryQuote(view.params), reason: 'open' });
      return state.phase === 'holding' ? sellAll(state, view, 'signal_close') : { state, intents: NOTHING };
    case 'ManualAddRequested':
      if (state.phase === 'done' || state.pending) return { state, intents: NOTHING };
      return place(state, { side: 'buy', quote: event.quote ?? entryQuote(view.params), reason: 'manual_add' });
    case 'ManualCloseRequested':
      if (state.phase !== 'holding' || state.pending) return { state, intents: NOTHING };
      return sellAll(state, view, 'manual_close');
    case 'OrderRejected':
      if (state.pending?.id !== event.clientOrderId) return { state, intents: NOTHING };
      return { state: { ...state, pending: null }, intents: [{ type: 'PauseBot', reason: event.reason }] };
    case 'OrderFilled': {
      if (state.pending?.id !== event.clientOrderId) return { state, intents: NOTHING };
      if (event.side === 'buy') {
        const fills = [...state.fills, { price: event.price, amount: event.amount }];
        // A buy moves the take profit: an armed trailing take profit is disarmed (it arms again at the new
        // one); a trailing stop's high is at least the new fill's price.
        const before = state.stopHigh ?? (state.fills.length > 0 ? topFill(state.fills) : null);
        const stopHigh = trailingStop(view.params) === null ? null : before?.gt(event.price) ? before : event.price;
        return { state: retrigger({ ...state, phase: 'holding', pending: null, fills, targets: targetsOf(fills, view), trail: null, stopHigh }, view), intents: NOTHING };
      }
      // Books in the quote (core/position.ts closeCycle): the coin it could not sell is carried at no cost.
      const { profit, dust } = closeCycle(state.fills, event.price, view.market, { amount: state.carry, cost: state.carryCost }, event.amount);
      const next: CustomState = {
        ...state,
        phase: view.params.repeat ? 'waiting' : 'done',
        cycle: state.cycle + 1,
        seq: 0,
        fills: [],
        pending: null,
        targets: null,
        realized: state.realized.plus(profit),
        carry: dust,
        carryCost: money(0),
        trail: null,
        stopHigh: null,
      };
      return { state: next, intents: [{ type: 'CycleClosed', cycle: state.cycle, profit }] };
    }
  }
}
