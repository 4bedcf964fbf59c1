import type Decimal from 'decimal.js';
import { type BacktestFill, type CandleColumns, cursorOf, DEFAULT_SLIPPAGE, type FillModel, marketAt, type PathCursor, priceOf, replayCandles, slipper, type Walker } from '../backtest.ts';
import { restingFill } from '../resting-fill.ts';
import { botId, type Intent } from '../types.ts';
import { decideGrid, gridTriggers, initialGridState, type GridState, type GridView } from './strategy.ts';

export interface GridBacktestResult {
  fills: BacktestFill[];
  trades: number;
  realized: string;
  state: GridState;
}

/**
 * The grid bot on the walk: its triggers are the highest buy level or the stop loss (down), the lowest
 * sell level or the take profit (up) and a trailing exit's high (follow): gridTriggers, as the engine's.
 */
class GridWalker implements Walker {
  down = Infinity; // waiting: acts at the first price
  up = -Infinity;
  follow = Infinity;
  done = false;
  state: GridState;
  readonly fills: BacktestFill[] = [];
  trades = 0;
  private downAt: Decimal | null = null;
  private upAt: Decimal | null = null;
  private readonly view: GridView;
  private readonly slip: (price: Decimal, side: 'buy' | 'sell') => Decimal;
  private readonly cursor: PathCursor | undefined;

  constructor(view: GridView, fill: FillModel, cursor?: PathCursor) {
    this.view = view;
    this.cursor = cursor;
    this.slip = slipper(fill.slippage);
    this.state = initialGridState(botId('backtest'));
  }

  act(at: number | 'down' | 'up', candle: number, past?: number): boolean {
    const price = at === 'down' ? this.downAt! : at === 'up' ? this.upAt! : priceOf(at);
    // With a path: the market at the second that reached the trigger (a stop or a take profit sells at it).
    const { market } = marketAt(this.cursor, at, candle, price, past);
    const view = this.view;
    const decimals = view.market.stepSize.decimalPlaces();
    let acted = false;
    // After a fill the strategy is asked again at the same price: a price on several levels fills each.
    for (let guard = 0; guard < 1000; guard++) {
      const asked = decideGrid(this.state, { type: 'PriceTicked', price }, view);
      this.state = asked.state;
      const order = asked.intents.find((i) => i.type === 'PlaceOrder');
      if (order?.type !== 'PlaceOrder') break;
      acted = true;
      const fillPrice = this.slip(restingFill(price, market, order.side), order.side);
      const amount = order.side === 'buy' ? order.quote!.div(fillPrice).toDecimalPlaces(decimals, 1) : order.amount!;
      this.fills.push({ candle, reason: order.reason, side: order.side, price: fillPrice.toFixed(), amount: amount.toFixed() });
      const filled = decideGrid(this.state, { type: 'OrderFilled', clientOrderId: order.clientOrderId, side: order.side, price: fillPrice, amount }, view);
      this.state = filled.state;
      for (const intent of filled.intents as Intent[]) if (intent.type === 'CycleClosed') this.trades++;
      // Past a gap, one decision: the jump asks again as the engine's next round would (backtest.ts jump).
      if (past !== undefined) break;
    }
    this.refresh();
    return acted;
  }

  private refresh(): void {
    const s = this.state;
    this.done = s.phase === 'done';
    if (s.phase === 'waiting') {
      this.down = Infinity;
      this.up = -Infinity;
      this.follow = Infinity;
      return;
    }
    const t = gridTriggers(s, this.view);
    this.downAt = t.down;
    this.upAt = t.up;
    this.down = t.down ? Number(t.down.toString()) : -Infinity;
    this.up = t.up ? Number(t.up.toString()) : Infinity;
    this.follow = t.follow ? Number(t.follow.toString()) : Infinity;
  }
}

/**
 * Replays a grid bot over candles with the same pure strategy the engine runs, on the price path of
 * `replayCandles` (the jump to each open, then open, low, high, close on a green candle and open,
 * high, low, close on a red one), its orders filled by the fill model: at the level when the price
 * moved through it, at the open when the candle opened past it, with the slippage against the trader
 * (default 0.05 %). A segment that crosses several levels fills each at its own price, in the order the
 * price meets them. Between triggers nothing is asked.
 */
export function backtestGrid(view: GridView, candles: CandleColumns, fill: FillModel = { slippage: DEFAULT_SLIPPAGE }): GridBacktestResult {
  const walker = new GridWalker(view, fill, cursorOf(candles));
  replayCandles(candles, walker);
  return { fills: walker.fills, trades: walker.trades, realized: walker.state.realized.toFixed(), state: walker.state };
}
