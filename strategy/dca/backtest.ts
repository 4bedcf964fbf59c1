import type Decimal from 'decimal.js';
import { type BacktestFill, type CandleColumns, cursorOf, DEFAULT_SLIPPAGE, type FillModel, marketAt, type PathCursor, priceOf, replayCandles, slipper, type Walker } from '../backtest.ts';
import { restingFill } from '../resting-fill.ts';
import { buyAmount } from '../martin/plan.ts';
import { botId, type Intent, type PriceTicked } from '../types.ts';
import type { Candle } from '../custom/feed.ts';
import type { CandleClosed } from '../custom/strategy.ts';
import { dcaFeedOf, dcaOpenAt, dcaTriggers, decideDca, initialDcaState, type DcaState, type DcaView } from './strategy.ts';

export interface DcaBacktestResult {
  fills: BacktestFill[];
  /** Deals closed (by take profit, stop loss). */
  cycles: number;
  realized: string;
  state: DcaState;
}

const num = (d: Decimal) => Number(d.toString());

/**
 * The DCA bot on the walk (../README.md "The fill model"): its triggers are the take profit (up) and the
 * higher of the stop loss and the next safety order (down). Without a deal it waits for its start: the
 * strategy is told each candle's open time (`at`), so a cooldown or a schedule opens the next deal at the
 * open of the first candle at or after that time (a deal with neither re-opens where the last closed).
 */
class DcaWalker implements Walker {
  down = Infinity;
  up = -Infinity;
  follow = Infinity;
  done = false;
  /** Waiting: the earliest time the next deal may open (dcaOpenAt; null: not known yet). */
  private openAt: number | null = -Infinity;
  state: DcaState;
  readonly fills: BacktestFill[] = [];
  cycles = 0;
  private downAt: Decimal | null = null;
  private upAt: Decimal | null = null;
  private readonly slip: (price: Decimal, side: 'buy' | 'sell') => Decimal;
  private readonly view: DcaView;
  private readonly time: Float64Array | undefined;
  private readonly cursor: PathCursor | undefined;
  /** An indicator start: deals open at candle closes only (closed), and the path's prices carry no time (the feed takes whole candles). */
  readonly indicator: boolean;

  constructor(view: DcaView, fill: FillModel, time: Float64Array | undefined, cursor?: PathCursor) {
    this.view = view;
    this.time = time;
    this.cursor = cursor;
    this.slip = slipper(fill.slippage);
    this.state = initialDcaState(botId('backtest'));
    this.indicator = view.params.start.kind === 'indicator';
  }

  act(at: number | 'down' | 'up', candle: number, past?: number): boolean {
    const s = this.state;
    const time = this.time?.[candle];
    // Waiting for a later start: nothing to ask before that time (a comparison per candle); an indicator start waits for a close.
    if (s.phase === 'waiting' && (this.indicator || typeof at !== 'number' || (this.openAt !== null && this.openAt !== -Infinity && (time === undefined || time < this.openAt)))) return false;
    const price = at === 'down' ? this.downAt! : at === 'up' ? this.upAt! : priceOf(at);
    // With a path: the market at the second that reached the trigger, and at the next, where a closed deal re-opens.
    const { market, next } = marketAt(this.cursor, at, candle, price, past);
    // With an indicator start the close a deal ends at is known by its candle: its time is the close's (see closed).
    return this.ask({ type: 'PriceTicked', price, at: this.indicator ? undefined : time }, price, candle, market, next, past !== undefined);
  }

  /**
   * An indicator start: candle `i` closed. The feed takes it and the start rule is checked; a deal it
   * opens fills at the close (live: at the next minute's first price, the same when the market does not
   * jump). A deal that ended in this candle counts its cooldown from the candle's start.
   */
  closed(candles: CandleColumns & { time: Float64Array }, i: number, event: CandleClosed): void {
    event.time = candles.time[i]!;
    event.open = candles.open[i]!;
    event.high = candles.high[i]!;
    event.low = candles.low[i]!;
    event.close = candles.close[i]!;
    this.ask(event, priceOf(event.close), i);
  }

  /**
   * Asks the strategy at `at` and fills every order it places there (asked again there until it rests),
   * by restingFill against `market` (the price of the second that reached the trigger, or the open the
   * market `jumped` to: one decision then; by default `at` itself); a deal it closes re-opens at `next` when the path
   * knows the engine's next round. True when it placed an order.
   */
  private ask(first: PriceTicked | CandleClosed, at: Decimal, candle: number, market: Decimal = at, next?: number, jumped = false): boolean {
    const view = this.view;
    let acted = false;
    let price = at;
    let resting = market;
    let gap = jumped;
    let event: PriceTicked | CandleClosed = first;
    for (let guard = 0; guard < 100; guard++) {
      const asked = decideDca(this.state, event, view);
      this.state = asked.state;
      // After a candle's check, the same price asks again as any price of the path would.
      event = first.type === 'CandleClosed' ? { type: 'PriceTicked', price } : first;
      const order = asked.intents.find((i) => i.type === 'PlaceOrder');
      if (order?.type !== 'PlaceOrder') break;
      acted = true;
      const fillPrice = this.slip(restingFill(price, resting, order.side), order.side);
      const amount = order.side === 'buy' ? buyAmount(order.quote!, fillPrice, view.market.stepSize) : order.amount!;
      this.fills.push({ candle, reason: order.reason, side: order.side, price: fillPrice.toFixed(), amount: amount.toFixed() });
      const filled = decideDca(this.state, { type: 'OrderFilled', clientOrderId: order.clientOrderId, side: order.side, price: fillPrice, amount }, view);
      this.state = filled.state;
      for (const intent of filled.intents as Intent[]) if (intent.type === 'CycleClosed') this.cycles++;
      // A deal closed: the next opens on the engine's next round, at its price when the path knows it.
      if (next !== undefined && this.state.phase === 'waiting') {
        price = priceOf(next);
        resting = price;
        gap = false;
        event = { ...(first as PriceTicked), price };
        continue;
      }
      // Past a gap, one decision: the jump asks again as the engine's next round would (../backtest.ts jump).
      if (gap) break;
    }
    this.refresh();
    return acted;
  }

  private refresh(): void {
    if (this.state.phase === 'waiting' || !this.state.targets) {
      this.openAt = dcaOpenAt(this.state, this.view.params);
      this.down = Infinity;
      this.up = -Infinity;
      this.follow = Infinity;
      return;
    }
    // The same trigger prices as the live engine's (dcaTriggers): take profit, stop, trailing line, safety order.
    const t = dcaTriggers(this.state, this.view);
    this.upAt = t?.up ?? null;
    this.up = t?.up ? num(t.up) : Infinity;
    this.downAt = t?.down ?? null;
    this.down = t?.down ? num(t.down) : -Infinity;
    this.follow = t?.follow ? num(t.follow) : Infinity;
  }
}

/**
 * Replays a DCA bot over candles with the same pure strategy the live engine runs, on the price path of
 * `replayCandles`, its orders filled by the fill model (default: at the trigger, 0.05 % slippage).
 * `time` (each candle's open time, ms) feeds the schedule and the cooldown; without it a deal re-opens
 * at once and a scheduled or indicator bot never starts. An indicator start reads 1-minute candles (its
 * rule is checked at each close, README.md "Deal start"): candle by candle, its path then its close;
 * `warmUp`, closed candles of the rule's timeframes before the first one (as the custom bot's backtest).
 */
export function backtestDca(
  view: DcaView,
  candles: CandleColumns & { time?: Float64Array },
  fill: FillModel = { slippage: DEFAULT_SLIPPAGE },
  warmUp?: Partial<Record<string, readonly Candle[]>>,
): DcaBacktestResult {
  const walker = new DcaWalker(view, fill, candles.time, cursorOf(candles));
  const time = candles.time;
  if (!walker.indicator) replayCandles(candles, walker);
  else if (time) {
    const feed = dcaFeedOf(walker.state, view)!;
    if (warmUp) for (const tf of feed.timeframes()) if (warmUp[tf]) feed.seed(tf, warmUp[tf]!);
    const event: CandleClosed = { type: 'CandleClosed', time: 0, open: 0, high: 0, low: 0, close: 0 };
    const all = { ...candles, time };
    for (let i = 0; i < time.length; i++) {
      // One candle's path, then its close.
      replayCandles(all, walker, i, i + 1);
      walker.closed(all, i, event);
    }
  }
  return { fills: walker.fills, cycles: walker.cycles, realized: walker.state.realized.toFixed(), state: walker.state };
}
