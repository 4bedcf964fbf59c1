import type Decimal from 'decimal.js';
import { type BacktestFill, type CandleColumns, cursorOf, DEFAULT_SLIPPAGE, type FillModel, marketAt, priceOf, slipper } from '../backtest.ts';
import { restingFill } from '../resting-fill.ts';
import { buyAmount } from '../martin/plan.ts';
import { botId, type PlaceOrder } from '../types.ts';
import type { Candle } from './feed.ts';
import { customTriggers, decideCustom, feedOf, initialCustomState, type CandleClosed, type CustomEvent, type CustomState, type CustomView } from './strategy.ts';

export interface CustomBacktestResult {
  fills: BacktestFill[];
  cycles: number;
  realized: string;
  state: CustomState;
}

/**
 * Replays a custom bot over 1-minute candles with the same decide function and feed the live engine
 * runs. Each candle: first its price path (the fill model of ../README.md: the jump to the open, then
 * open -> low -> high -> close or open -> high -> low -> close, or the path's order) for take profit and
 * stop loss, decided at their price as the engine's round past them is: the take profit fills there (past
 * a gap too: its order waited there), a stop at its line, at the open below it past a gap, and at the
 * price of the second that reached it when the candles' path knows it; a trailing exit is armed at the
 * take-profit price, its high raised to the top of each rise, and it sells at its line on a fall (as
 * asking at every price would: ../backtest.ts replayCandles); then the candle's close, where the rules
 * are checked and an entry or a rule's exit fills at the close. Slippage as in every backtest.
 * `warmUp`: closed candles of the conditions' timeframes before the first minute (CustomFeed.seed).
 */
export function backtestCustom(
  view: CustomView,
  candles: CandleColumns & { time: Float64Array },
  fill: FillModel = { slippage: DEFAULT_SLIPPAGE },
  warmUp?: Partial<Record<string, readonly Candle[]>>,
): CustomBacktestResult {
  const slip = slipper(fill.slippage);
  let state = initialCustomState(botId('backtest'));
  const feed = feedOf(state, view);
  if (warmUp) for (const tf of feed.timeframes()) if (warmUp[tf]) feed.seed(tf, warmUp[tf]!);
  const fills: BacktestFill[] = [];
  let cycles = 0;
  // Exit prices as doubles (no position: never reached); `follow`: a trailing exit's high, any price above it moves it.
  let up = Infinity;
  let down = -Infinity;
  let follow = Infinity;
  const refresh = () => {
    up = state.targets?.up ?? Infinity;
    down = state.targets?.down ?? -Infinity;
    follow = state.targets?.follow ?? Infinity;
  };
  /** Asks the strategy and fills the order it places at `price` (of that order); true when it placed one. */
  const ask = (event: CustomEvent, price: (order: PlaceOrder) => Decimal, candle: number): boolean => {
    const asked = decideCustom(state, event, view);
    state = asked.state;
    const order = asked.intents.find((i) => i.type === 'PlaceOrder');
    if (order?.type !== 'PlaceOrder') {
      // A trailing step moved the exit prices.
      if (asked.intents.length > 0) refresh();
      return false;
    }
    execute(order, price(order), candle);
    return true;
  };
  const execute = (order: PlaceOrder, at: Decimal, candle: number) => {
    const fillPrice = slip(at, order.side);
    const amount = order.side === 'buy' ? buyAmount(order.quote!, fillPrice, view.market.stepSize) : order.amount!;
    fills.push({ candle, reason: order.reason, side: order.side, price: fillPrice.toFixed(), amount: amount.toFixed() });
    const filled = decideCustom(state, { type: 'OrderFilled', clientOrderId: order.clientOrderId, side: order.side, price: fillPrice, amount }, view);
    state = filled.state;
    if (filled.intents[0]?.type === 'CycleClosed') cycles++;
    refresh();
  };
  // With the market's seconds: where the walk is in them (../backtest.ts PathCursor).
  const cursor = cursorOf(candles);
  /** Asks at `at`; its order fills there, or by restingFill against `market` (the second that reached it, or an open past it). */
  const atPrice = (at: Decimal, candle: number, market?: Decimal) => ask({ type: 'PriceTicked', price: at }, (order) => (market ? restingFill(at, market, order.side) : at), candle);
  /** Asks at a trigger the walk reached (`past`: the candle opened past it), filled as the engine's order resting there would be. */
  const atTrigger = (trigger: Decimal, dir: 'up' | 'down', candle: number, past?: number) => atPrice(trigger, candle, marketAt(cursor, dir, candle, trigger, past).market);
  /** A followed high raised to a price the walk rose or opened to. */
  const raise = (to: number, candle: number) => {
    const price = priceOf(to);
    marketAt(cursor, to, candle, price);
    atPrice(price, candle);
  };
  // A position ends at most once per path point; after it the bot waits for the next close. A rise
  // reaching the take profit acts there (it sells, or arms a trailing take profit), then a followed
  // high is raised to the rise's top (nothing sells on a rise); a fall acts at the highest exit line
  // it reaches (stop or trailing line): a stop sells at the second that reached it when the path knows it.
  const reach = (to: number, rising: boolean, candle: number) => {
    if (rising) {
      if (up <= to) atTrigger(state.targets!.takeProfit!, 'up', candle);
      if (to > follow) raise(to, candle);
    } else if (down >= to) atTrigger(customTriggers(state, view)!.down!, 'down', candle);
  };

  const { time, open, high, low, close } = candles;
  const event: CandleClosed = { type: 'CandleClosed', time: 0, open: 0, high: 0, low: 0, close: 0 };
  const closePrice = () => priceOf(event.close);
  const lowFirst = candles.path?.lowFirst;
  const n = open.length;
  for (let i = 0; i < n; i++) {
    const o = open[i]!;
    const h = high[i]!;
    const l = low[i]!;
    const c = close[i]!;
    if (up !== Infinity || down !== -Infinity || follow !== Infinity) {
      // Opened past an exit: decided at it, as the engine's round past it (a take profit waited there; a stop sells at the open).
      if (o <= down) atTrigger(customTriggers(state, view)!.down!, 'down', i, o);
      else if (o >= up) atTrigger(state.targets!.takeProfit!, 'up', i, o);
      if (o > follow) raise(o, i);
      if (lowFirst ? lowFirst[i] === 1 : c >= o) {
        reach(l, false, i);
        reach(h, true, i);
        reach(c, false, i);
      } else {
        reach(h, true, i);
        reach(l, false, i);
        reach(c, true, i);
      }
    }
    event.time = time[i]!;
    event.open = o;
    event.high = h;
    event.low = l;
    event.close = c;
    ask(event, closePrice, i);
    if (state.phase === 'done') break;
  }
  return { fills, cycles, realized: state.realized.toFixed(), state };
}
