import type Decimal from 'decimal.js';
import { money } from '../money.ts';
import { replayCandles, type BacktestFill, type CandleColumns } from '../backtest.ts';
import { botId, type Intent } from '../types.ts';
import { decideGrid, gridTriggers, initialGridState, type GridState, type GridView } from './strategy.ts';

export interface GridBacktestResult {
  fills: BacktestFill[];
  trades: number;
  realized: string;
  state: GridState;
}

/**
 * Replays a grid bot over candles with the same pure strategy the engine runs (the price path inside a
 * candle as for martin: open, low, high, close on a green candle; open, high, low, close on a red one).
 * A market order fills at the price that triggered it; after a fill the strategy is asked again at that
 * price, so a candle that crosses several levels fills each of them. Between triggers nothing is asked.
 */
export function backtestGrid(view: GridView, candles: CandleColumns): GridBacktestResult {
  let state = initialGridState(botId('backtest'));
  const fills: BacktestFill[] = [];
  let trades = 0;
  let down = Infinity; // waiting: ask at the first price
  let up = -Infinity;
  const refresh = () => {
    const t = gridTriggers(state, view);
    down = t.down ? Number(t.down.toString()) : -Infinity;
    up = t.up ? Number(t.up.toString()) : Infinity;
  };
  const tick = (price: number, index: number) => {
    if (state.phase === 'done' || (price > down && price < up)) return;
    const p: Decimal = money(String(price));
    for (let guard = 0; guard < 1000; guard++) {
      const asked = decideGrid(state, { type: 'PriceTicked', price: p }, view);
      state = asked.state;
      const order = asked.intents.find((i) => i.type === 'PlaceOrder');
      if (order?.type !== 'PlaceOrder') break;
      const amount = order.side === 'buy' ? order.quote!.div(p).toDecimalPlaces(view.market.stepSize.decimalPlaces(), 1) : order.amount!;
      fills.push({ candle: index, reason: order.reason, side: order.side, price: p.toFixed(), amount: amount.toFixed() });
      const filled = decideGrid(state, { type: 'OrderFilled', clientOrderId: order.clientOrderId, side: order.side, price: p, amount }, view);
      state = filled.state;
      trades += filled.intents.filter((i: Intent) => i.type === 'CycleClosed').length;
    }
    refresh();
  };
  replayCandles(candles, tick, () => state.phase === 'done');
  return { fills, trades, realized: state.realized.toFixed(), state };
}
