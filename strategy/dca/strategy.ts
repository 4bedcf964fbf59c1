import type Decimal from 'decimal.js';
import { floorTo, money } from '../money.ts';
import { stepTrailingStop, stepTrailingTakeProfit, trailLine } from '../trailing.ts';
import { averagePrice, closeCycle, reducePosition, sellableAmount, soldShare, takeProfitPrice, type Fill } from '../core/position.ts';
import type { MarketRules } from '../core/market.ts';
import { CustomFeed, MINUTE } from '../custom/feed.ts';
import type { CandleClosed } from '../custom/strategy.ts';
import { clientOrderId, type BotId, type ClientOrderId, type EngineEvent, type Intent, type PlaceOrder } from '../types.ts';
import { dcaStopPrice, dealOrderQuote, nextSlot, safetyPrice } from './plan.ts';
import type { DcaParams } from './rules.ts';

/**
 * The DCA bot's state between events (README.md). One deal at a time, one order in flight at a time
 * (`pending`), so a crash is reconciled by client order id as for martin and grid.
 */
export interface DcaState {
  bot: BotId;
  /** waiting: no deal open (it opens when the start condition holds); holding: a deal is open. */
  phase: 'waiting' | 'holding';
  /** The deal number: new orders and closed deals are filed under it. */
  cycle: number;
  seq: number;
  /** The deal's buys: the base order first, then safety orders and manual adds. */
  fills: Fill[];
  /** Safety orders filled in the open deal (manual adds do not count). */
  safeties: number;
  /** `share` and `rested` as martin's (../martin/strategy.ts). */
  pending: { id: ClientOrderId; reason: PlaceOrder['reason']; share?: string; rested?: true } | null;
  /** Prices that trigger the next move, computed once per fill (a price tick only compares). */
  targets: { takeProfit: Decimal; stopLoss: Decimal | null; nextSafety: Decimal | null } | null;
  realized: Decimal;
  /** Base a close left below the step, sold with the next close, and its cost (as martin). */
  carry: Decimal;
  carryCost: Decimal;
  /** Profit of partial closes in the open deal (already in `realized`), counted in the deal's profit when it closes. */
  booked: Decimal;
  /**
   * A market time (ms) the next deal's start counts from (dcaOpenAt): when the last deal's closing order
   * was placed (after a deal), or when a scheduled bot was first asked (before its first deal); null: not
   * known. A fact, not a deadline: the deadline follows the parameters as they are now (an edit moves it).
   */
  since: number | null;
  /** Trailing take profit: the high since it armed; null: not armed (README.md "Trailing take profit"). */
  trail: Decimal | null;
  /** Trailing stop loss: the high since the deal's base order; null: off, or not moved yet (the highest fill then). */
  stopHigh: Decimal | null;
  /**
   * An indicator start's market memory (the custom bot's CustomFeed over the start rule): mutable, never
   * stored, null until first needed (dcaFeedOf); the engine warms a loaded bot's up from candle history.
   */
  feed: CustomFeed | null;
}

export interface DcaView {
  params: DcaParams;
  market: MarketRules;
}

type Result = { state: DcaState; intents: Intent[] };

export function initialDcaState(bot: BotId): DcaState {
  return {
    bot,
    phase: 'waiting',
    cycle: 1,
    seq: 0,
    fills: [],
    safeties: 0,
    pending: null,
    targets: null,
    realized: money(0),
    carry: money(0),
    carryCost: money(0),
    booked: money(0),
    since: null,
    trail: null,
    stopHigh: null,
    feed: null,
  };
}

/** The rules an indicator start's feed is built for: the start rule as the custom bot's entry rule; null for another start. */
export const startRules = (params: DcaParams) => (params.start.kind === 'indicator' ? { entry: params.start.rule } : null);

/** An indicator start's feed, made for the view's rule when the state has none yet; null for any other start. */
export function dcaFeedOf(state: DcaState, view: DcaView): CustomFeed | null {
  const rules = startRules(view.params);
  if (!rules) return null;
  if (!state.feed) state.feed = new CustomFeed(rules);
  return state.feed;
}

function place(state: DcaState, order: Omit<PlaceOrder, 'type' | 'clientOrderId'>, share?: string): Result {
  const seq = state.seq + 1;
  const id = clientOrderId(state.bot, state.cycle, seq);
  return { state: { ...state, seq, pending: { id, reason: order.reason, ...(share !== undefined ? { share } : {}) } }, intents: [{ type: 'PlaceOrder', clientOrderId: id, ...order }] };
}

/** Take profit over the average cost; stop loss and the next safety order from the base order's price. */
function targetsOf(fills: readonly Fill[], safeties: number, { params, market }: DcaView): NonNullable<DcaState['targets']> {
  const base = fills[0]!.price;
  return {
    takeProfit: takeProfitPrice(averagePrice(fills), params.takeProfit, market.tickSize),
    stopLoss: params.stopLoss ? dcaStopPrice(base, params.stopLoss, market.tickSize) : null,
    nextSafety: safeties < params.maxSafetyOrders ? safetyPrice(base, params, safeties + 1, market.tickSize) : null,
  };
}

/** The state with its trigger prices recomputed for `view` (after loading it, or new parameters); a trailing exit turned off forgets its high, another start rule its feed. */
export function retargetDca(state: DcaState, view: DcaView): DcaState {
  const rules = startRules(view.params);
  const feed = rules && state.feed && state.feed.rules === CustomFeed.rulesOf(rules) ? state.feed : null;
  return {
    ...state,
    targets: state.fills.length > 0 ? targetsOf(state.fills, state.safeties, view) : null,
    trail: view.params.trailingDeviation ? state.trail : null,
    stopHigh: trailingStopOf(view.params) ? state.stopHigh : null,
    feed,
  };
}

/** The trailing stop's percent (the stop loss's), or null when it is off. */
const trailingStopOf = (params: DcaParams) => (params.trailingStop && params.stopLoss ? params.stopLoss : null);
/** The highest fill of the deal: where a trailing stop's high starts (the base order's price, unless a manual add paid more). */
const topFill = (fills: readonly Fill[]) => fills.reduce((top: Decimal, f) => (f.price.gt(top) ? f.price : top), fills[0]!.price);

/**
 * The deal's stop loss as the engine acts on it (what the detail screen shows): fixed, `stopLoss`% below
 * the base order's price, or trailing, `stopLoss`% below the high since the base order (with that high).
 * Null without a deal or a stop loss.
 */
export function dcaStop(state: DcaState, { params, market }: DcaView): { price: Decimal; high: Decimal | null } | null {
  if (state.fills.length === 0) return null;
  const pct = trailingStopOf(params);
  if (pct === null) return state.targets?.stopLoss ? { price: state.targets.stopLoss, high: null } : null;
  const high = state.stopHigh ?? topFill(state.fills);
  return { price: trailLine(high, pct, market.tickSize), high };
}

/** An armed trailing take profit's high and sale line (what the detail screen draws), or null. */
export function dcaTrailing(state: DcaState, { params, market }: DcaView): { high: Decimal; line: Decimal } | null {
  return params.trailingDeviation && state.trail ? { high: state.trail, line: trailLine(state.trail, params.trailingDeviation, market.tickSize) } : null;
}

/**
 * The prices that make a holding deal act, for the engine's book and the backtest's walk: `up`, the
 * take-profit price (null while a trailing take profit is armed); `down`, the higher of the stop loss
 * (fixed or trailing) and the armed trailing line or, not armed, the next safety order; `follow`, the
 * lower of an armed trailing take profit's high and a trailing stop's high (asked at any price above
 * it: a new high moves a line). Null without a deal, or with an order in flight.
 */
export function dcaTriggers(state: DcaState, view: DcaView): { up: Decimal | null; down: Decimal | null; follow: Decimal | null } | null {
  const t = state.targets;
  if (!t || state.pending || state.phase !== 'holding') return null;
  const armed = dcaTrailing(state, view);
  const stop = dcaStop(state, view);
  const second = armed ? armed.line : t.nextSafety;
  const down = stop && (!second || stop.price.gt(second)) ? stop.price : second;
  const highs = [armed?.high ?? null, stop?.high ?? null].filter((h): h is Decimal => h !== null);
  const follow = highs.reduce<Decimal | null>((a, b) => (!a || b.lt(a) ? b : a), null);
  return { up: armed ? null : t.takeProfit, down, follow };
}

/**
 * The earliest market time (ms) a waiting bot's next deal may open under `params` (README.md "Deal
 * start"): -Infinity at once; null when it needs a time it does not know yet (`since`). The first deal
 * opens at once (`now`) or at the first scheduled start at or after `since`; a later one `cooldown`
 * after the last close (`since`), and with a schedule at the first start strictly after the close and
 * not before the cooldown's end.
 */
export function dcaOpenAt(state: Pick<DcaState, 'cycle' | 'since'>, params: DcaParams): number | null {
  const start = params.start;
  const cooldown = (params.cooldown ?? 0) * 1000;
  // An indicator start as `now`: the earliest time its rule may open a deal (startDue waits for a check where it holds).
  if (start.kind !== 'schedule' && (state.cycle === 1 || (state.since === null && cooldown === 0))) return -Infinity;
  if (state.since === null) return null;
  if (state.cycle === 1) return start.kind === 'schedule' ? nextSlot(state.since, start) : -Infinity;
  const cooled = state.since + cooldown;
  return start.kind === 'schedule' ? nextSlot(Math.max(cooled, state.since + 1), start) : cooled;
}

/**
 * Whether a deal may open at `at` (the one place the start condition is decided), and the state with the
 * time its start counts from recorded when it was not known.
 */
function startDue(state: DcaState, at: number | undefined, params: DcaParams, check: number | null): { due: boolean; state: DcaState } {
  // Signals only: a deal opens on a buy signal (SignalReceived), never by itself.
  if (params.start.kind === 'signal') return { due: false, state };
  let s = state;
  let openAt = dcaOpenAt(s, params);
  if (openAt === null) {
    if (at === undefined) return { due: false, state };
    s = { ...s, since: at };
    openAt = dcaOpenAt(s, params)!;
  }
  // An indicator start opens only at a check where its rule holds (`check`: the end of the minute just checked).
  if (params.start.kind === 'indicator' && (check === null || !s.feed?.entryHolds)) return { due: false, state: s };
  if (openAt === -Infinity) return { due: true, state: s };
  // At a check the cooldown counts whole minutes, from the start of the close's minute: a backtest, which
  // knows candles only, then opens at the same check as the live bot.
  if (check !== null) return { due: check >= minuteOf(s.since!) + (params.cooldown ?? 0) * 1000, state: s };
  return { due: at !== undefined && at >= openAt, state: s };
}

/** The start of the minute holding `t` (ms). */
const minuteOf = (t: number) => t - (t % MINUTE);

function sellAll(state: DcaState, view: DcaView, reason: 'close' | 'stop', at: number | undefined): Result {
  const amount = sellableAmount(state.fills, view.market, state.carry);
  return place({ ...state, since: at ?? null }, { side: 'sell', amount, reason });
}

const withMoved = (moved: Intent[], r: Result): Result => ({ state: r.state, intents: [...moved, ...r.intents] });

function onPrice(state: DcaState, price: Decimal, at: number | undefined, view: DcaView, check: number | null = null): Result {
  if (state.pending) return { state, intents: [] };
  if (state.phase === 'waiting' || !state.targets) {
    const start = startDue(state, at, view.params, check);
    if (!start.due) return { state: start.state, intents: [] };
    return place({ ...start.state, since: null }, { side: 'buy', quote: dealOrderQuote(view.params, 0), reason: 'open' });
  }
  const { takeProfit, stopLoss, nextSafety } = state.targets;
  const deviation = view.params.trailingDeviation;
  const moved: Intent[] = [];
  let next = state;
  if (!deviation) {
    if (price.gte(takeProfit)) return sellAll(state, view, 'close', at);
  } else {
    // Trailing (../trailing.ts): armed at the take-profit price, the high followed, sold on the fall.
    const step = stepTrailingTakeProfit(state.trail, price, takeProfit, deviation, view.market.tickSize);
    if (step.kind !== 'idle' && step.kind !== 'held') {
      next = { ...state, trail: step.high };
      moved.push({ type: 'TrailingMoved', exit: 'take_profit', step: step.kind, high: step.high, line: step.line });
      if (step.kind === 'fired') return withMoved(moved, sellAll(next, view, 'close', at));
    }
  }
  const stopPct = trailingStopOf(view.params);
  if (stopPct !== null) {
    // Trailing stop (README.md "Trailing stop loss"): the high since the base order only rises; the stop follows it.
    const before = state.stopHigh;
    const step = stepTrailingStop(before ?? topFill(state.fills), price, stopPct, view.market.tickSize);
    if (step.kind === 'raised' || before === null) {
      next = { ...next, stopHigh: step.high };
      if (step.kind !== 'fired') moved.push({ type: 'TrailingMoved', exit: 'stop_loss', step: 'raised', high: step.high, line: step.line });
    }
    if (step.kind === 'fired') return withMoved([...moved, { type: 'TrailingMoved', exit: 'stop_loss', step: 'fired', high: step.high, line: step.line }], sellAll(next, view, 'stop', at));
  } else if (stopLoss && price.lte(stopLoss)) return withMoved(moved, sellAll(next, view, 'stop', at));
  // Armed, the deal is being sold: no safety order.
  if (!next.trail && nextSafety && price.lte(nextSafety)) return place(next, { side: 'buy', quote: dealOrderQuote(view.params, state.safeties + 1), reason: 'add' });
  return { state: next, intents: moved };
}

function onFilled(state: DcaState, event: { side: 'buy' | 'sell'; price: Decimal; amount: Decimal }, view: DcaView): Result {
  const pending = state.pending!;
  if (event.side === 'buy') {
    const fills = [...state.fills, { price: event.price, amount: event.amount }];
    const safeties = state.safeties + (pending.reason === 'add' ? 1 : 0);
    // A buy moves the take profit: an armed trailing take profit is disarmed (it arms again at the new one).
    // A trailing stop's high starts at the base order's price (a manual add paying more raises it).
    const stopHigh = trailingStopOf(view.params) === null ? null : state.stopHigh?.gt(event.price) ? state.stopHigh : event.price;
    return { state: { ...state, phase: 'holding', pending: null, fills, safeties, targets: targetsOf(fills, safeties, view), trail: null, stopHigh }, intents: [] };
  }
  const carried = { amount: state.carry, cost: state.carryCost };
  if (pending.share !== undefined || pending.rested) {
    // A partial close (as martin's): the sold part's profit is realised now, the rest keeps its average cost.
    // So is a resting take profit filled in part, its rest cancelled (README.md "Resting orders").
    const part = reducePosition(state.fills, event.price, view.market, carried, event.amount);
    if (floorTo(part.close.dust, view.market.stepSize).gt(0)) {
      const profit = part.close.profit;
      const next: DcaState = {
        ...state,
        pending: null,
        fills: part.fills,
        targets: targetsOf(part.fills, state.safeties, view),
        realized: state.realized.plus(profit),
        carry: part.carry.amount,
        carryCost: part.carry.cost,
        booked: state.booked.plus(profit),
      };
      const share = pending.share ?? soldShare(event.amount, sellableAmount(state.fills, view.market, state.carry));
      return { state: next, intents: [{ type: 'PositionReduced', cycle: state.cycle, profit, share }] };
    }
  }
  // Books in the quote (core/position.ts closeCycle): the coin it could not sell is carried at no cost.
  const { profit, dust } = closeCycle(state.fills, event.price, view.market, carried, event.amount);
  const next: DcaState = {
    ...state,
    phase: 'waiting',
    cycle: state.cycle + 1,
    seq: 0,
    fills: [],
    safeties: 0,
    pending: null,
    targets: null,
    realized: state.realized.plus(profit),
    carry: dust,
    carryCost: money(0),
    booked: money(0),
    trail: null,
    stopHigh: null,
  };
  return { state: next, intents: [{ type: 'CycleClosed', cycle: state.cycle, profit: state.booked.plus(profit) }] };
}

/**
 * The DCA strategy as a pure function of (state, event): see README.md for the rules and formulas. An
 * indicator start's feed takes every price with its market time (PriceTicked.at: the first price of a
 * minute closes the one before, whose check comes first) or, in a backtest, each closed 1-minute candle
 * (CandleClosed); a deal may open at a check, at that price (the backtest: at the candle's close).
 */
export function decideDca(state: DcaState, event: EngineEvent | CandleClosed, view: DcaView): Result {
  switch (event.type) {
    case 'BotStarted':
      return onPrice(state, event.price, undefined, view);
    case 'PriceTicked': {
      const feed = event.at === undefined ? null : dcaFeedOf(state, view);
      const checked = feed?.tick(event.at!, Number((event.market ?? event.price).toString())) === true;
      return onPrice(state, event.price, event.at, view, checked ? feed!.last + MINUTE : null);
    }
    case 'CandleClosed': {
      const feed = dcaFeedOf(state, view);
      if (!feed?.push(event.time, event.open, event.high, event.low, event.close) || state.phase !== 'waiting') return { state, intents: [] };
      return onPrice(state, money(String(event.close)), event.time, view, event.time + MINUTE);
    }
    case 'SignalReceived': {
      // README "Signals": buy opens a deal now when none is open (one deal per bot, whatever the start
      // condition); sell and close sell the whole deal at market. Anything else: nothing.
      if (state.pending) return { state, intents: [] };
      if (event.action === 'buy') {
        if (state.phase !== 'waiting') return { state, intents: [] };
        return place({ ...state, since: null }, { side: 'buy', quote: dealOrderQuote(view.params, 0), reason: 'open' });
      }
      if (state.phase !== 'holding' || state.fills.length === 0) return { state, intents: [] };
      return place(state, { side: 'sell', amount: sellableAmount(state.fills, view.market, state.carry), reason: 'signal_close' });
    }
    case 'ManualAddRequested': {
      if (state.phase !== 'holding' || state.pending) return { state, intents: [] };
      return place(state, { side: 'buy', quote: event.quote ?? dealOrderQuote(view.params, Math.max(1, state.safeties + 1)), reason: 'manual_add' });
    }
    case 'ManualCloseRequested': {
      if (state.phase !== 'holding' || state.pending) return { state, intents: [] };
      const all = sellableAmount(state.fills, view.market, state.carry);
      const part = event.part?.amount.gt(0) && event.part.amount.lt(all) ? event.part : undefined;
      return place(state, { side: 'sell', amount: part ? part.amount : all, reason: 'manual_close' }, part?.share);
    }
    case 'OrderRejected': {
      if (state.pending?.id !== event.clientOrderId) return { state, intents: [] };
      return { state: { ...state, pending: null }, intents: [{ type: 'PauseBot', reason: event.reason }] };
    }
    case 'OrderFilled': {
      if (state.pending?.id !== event.clientOrderId) return { state, intents: [] };
      return onFilled(state, event, view);
    }
  }
}
