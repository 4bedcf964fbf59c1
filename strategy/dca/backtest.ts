import type Decimal from 'decimal.js';
import { DEFAULT_SLIPPAGE, replayCandles, slipper, type BacktestFill, type CandleColumns, type FillModel, type Walker } from '../backtest.ts';
import { buyAmount } from '../martin/plan.ts';
import { money } from '../money.ts';
import { botId, type Intent } from '../types.ts';
import { dcaOpenAt, dcaTriggers, decideDca, initialDcaState, type DcaState, type DcaView } from './strategy.ts';

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

  constructor(view: DcaView, fill: FillModel, time: Float64Array | undefined) {
    this.view = view;
    this.time = time;
    this.slip = slipper(fill.slippage);
    this.state = initialDcaState(botId('backtest'));
  }

  act(at: number | 'down' | 'up', candle: number): boolean {
    const s = this.state;
    const time = this.time?.[candle];
    // Waiting for a later start: nothing to ask before that time (a comparison per candle).
    if (s.phase === 'waiting' && (typeof at !== 'number' || (this.openAt !== null && this.openAt !== -Infinity && (time === undefined || time < this.openAt)))) return false;
    const price = at === 'down' ? this.downAt! : at === 'up' ? this.upAt! : money(String(at));
    const view = this.view;
    let acted = false;
    for (let guard = 0; guard < 100; guard++) {
      const asked = decideDca(this.state, { type: 'PriceTicked', price, at: time }, view);
      this.state = asked.state;
      const order = asked.intents.find((i) => i.type === 'PlaceOrder');
      if (order?.type !== 'PlaceOrder') break;
      acted = true;
      const fillPrice = this.slip(price, order.side);
      const amount = order.side === 'buy' ? buyAmount(order.quote!, fillPrice, view.market.stepSize) : order.amount!;
      this.fills.push({ candle, reason: order.reason, side: order.side, price: fillPrice.toFixed(), amount: amount.toFixed() });
      const filled = decideDca(this.state, { type: 'OrderFilled', clientOrderId: order.clientOrderId, side: order.side, price: fillPrice, amount }, view);
      this.state = filled.state;
      for (const intent of filled.intents as Intent[]) if (intent.type === 'CycleClosed') this.cycles++;
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
 * at once and a scheduled bot never starts.
 */
export function backtestDca(view: DcaView, candles: CandleColumns & { time?: Float64Array }, fill: FillModel = { slippage: DEFAULT_SLIPPAGE }): DcaBacktestResult {
  const walker = new DcaWalker(view, fill, candles.time);
  replayCandles(candles, walker);
  return { fills: walker.fills, cycles: walker.cycles, realized: walker.state.realized.toFixed(), state: walker.state };
}
