import type Decimal from 'decimal.js';
import { money } from '../money.ts';
import { averagePrice, closeCycle, sellableAmount, stopLossPrice, takeProfitPrice, type Fill } from '../martin/plan.ts';
import type { MarketRules } from '../martin/rules.ts';
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
  /** Prices that end the position, computed once per fill. */
  targets: { takeProfit: Decimal | null; stopLoss: Decimal | null; up: number; down: number } | null;
  realized: Decimal;
  /** Base left below the step by the last exit, and its cost (as martin's). */
  carry: Decimal;
  carryCost: Decimal;
  /** Null until first needed (feedOf): a new or loaded bot's market memory is built for its parameters. */
  feed: CustomFeed | null;
}

/** A fresh bot: waiting for its entry rule to hold (cycle 1). */
export function initialCustomState(bot: BotId): CustomState {
  return { bot, phase: 'waiting', cycle: 1, seq: 0, fills: [], pending: null, targets: null, realized: money(0), carry: money(0), carryCost: money(0), feed: null };
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

/** Take profit and stop loss over the average entry (martin's formulas: rounded to the tick, up and down). */
export function targetsOf(fills: readonly Fill[], { params, market }: CustomView): NonNullable<CustomState['targets']> {
  const avg = averagePrice(fills);
  const takeProfit = params.takeProfit ? takeProfitPrice(avg, params.takeProfit, market.tickSize) : null;
  const stopLoss = params.stopLoss ? stopLossPrice(avg, params.stopLoss, market.tickSize) : null;
  // The same prices as doubles, to compare a candle's close without a decimal (same order as the decimals).
  return { takeProfit, stopLoss, up: takeProfit ? Number(takeProfit.toString()) : Infinity, down: stopLoss ? Number(stopLoss.toString()) : -Infinity };
}

/** The state with its exit prices recomputed for `view` (after loading it, or new parameters). */
export function retargetCustom(state: CustomState, view: CustomView): CustomState {
  // New rules need a new feed (warmed up again); the same rules keep theirs.
  const feed = state.feed && state.feed.rules === CustomFeed.rulesOf(view.params) ? state.feed : null;
  return { ...state, feed, targets: state.fills.length > 0 ? targetsOf(state.fills, view) : null };
}

type Decision = { state: CustomState; intents: Intent[] };
const NOTHING: Intent[] = [];

function place(state: CustomState, order: Omit<PlaceOrder, 'type' | 'clientOrderId'>): Decision {
  const seq = state.seq + 1;
  const id = clientOrderId(state.bot, state.cycle, seq);
  return { state: { ...state, seq, pending: { id, reason: order.reason } }, intents: [{ type: 'PlaceOrder', clientOrderId: id, ...order }] };
}

const sellAll = (state: CustomState, view: CustomView, reason: PlaceOrder['reason']) => place(state, { side: 'sell', amount: sellableAmount(state.fills, view.market, state.carry), reason });

/** Take profit or stop loss at `price`, when holding. */
function onPrice(state: CustomState, price: Decimal, view: CustomView): Decision {
  if (state.phase !== 'holding' || state.pending || !state.targets) return { state, intents: NOTHING };
  const { takeProfit, stopLoss } = state.targets;
  if (takeProfit && price.gte(takeProfit)) return sellAll(state, view, 'close');
  if (stopLoss && price.lte(stopLoss)) return sellAll(state, view, 'stop');
  return { state, intents: NOTHING };
}

/** A 1-minute close was pushed into the feed: the rules (and take profit / stop loss at the close). */
function onMinute(state: CustomState, close: number, view: CustomView): Decision {
  const feed = state.feed!;
  if (state.pending || state.phase === 'done') return { state, intents: NOTHING };
  if (state.phase === 'waiting') return feed.entryHolds ? place(state, { side: 'buy', quote: entryQuote(view.params), reason: 'open' }) : { state, intents: NOTHING };
  const t = state.targets;
  if (t && (close >= t.up || close <= t.down)) return onPrice(state, money(String(close)), view);
  return feed.exitHolds ? sellAll(state, view, 'exit_rule') : { state, intents: NOTHING };
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
      if (event.at !== undefined && feedOf(state, view).tick(event.at, Number(event.price.toString()))) {
        const checked = onMinute(state, state.feed!.price, view);
        if (checked.intents.length > 0) return checked;
      }
      return onPrice(state, event.price, view);
    case 'BotStarted':
      return onPrice(state, event.price, view);
    case 'SignalReceived':
      // README "Signals": buy enters when flat (waiting, or done after an exit without repeat); sell and close exit the whole position.
      if (state.pending) return { state, intents: NOTHING };
      if (event.action === 'buy')
        return state.phase === 'holding' ? { state, intents: NOTHING } : place({ ...state, phase: 'waiting' }, { side: 'buy', quote: entryQuote(view.params), reason: 'open' });
      return state.phase === 'holding' ? sellAll(state, view, 'manual_close') : { state, intents: NOTHING };
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
        return { state: { ...state, phase: 'holding', pending: null, fills, targets: targetsOf(fills, view) }, intents: NOTHING };
      }
      const { profit, dust, dustCost } = closeCycle(state.fills, event.price, view.market, { amount: state.carry, cost: state.carryCost }, event.amount);
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
        carryCost: dust.gt(0) ? dustCost : money(0),
      };
      return { state: next, intents: [{ type: 'CycleClosed', cycle: state.cycle, profit }] };
    }
  }
}
