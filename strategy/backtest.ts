import type Decimal from 'decimal.js';
import { money } from './money.ts';
import { botId, type Intent } from './types.ts';
import { buyAmount } from './martin/plan.ts';
import { decideMartin, initialMartinState, type MartinState, type MartinView } from './martin/strategy.ts';

/** Candles as columns of numbers (fast to scan); prices are the decimal strings' nearest doubles. */
export interface CandleColumns {
  open: Float64Array;
  high: Float64Array;
  low: Float64Array;
  close: Float64Array;
}

/** Candles as answered by an exchange (decimal strings or numbers), as columns with their open times. */
export function columnsOf(rows: readonly { time: number; open: string | number; high: string | number; low: string | number; close: string | number }[]): CandleColumns & { time: Float64Array } {
  const col = (k: 'time' | 'open' | 'high' | 'low' | 'close') => Float64Array.from(rows, (r) => Number(r[k]));
  return { time: col('time'), open: col('open'), high: col('high'), low: col('low'), close: col('close') };
}

export interface BacktestFill {
  candle: number;
  reason: string;
  side: 'buy' | 'sell';
  price: string;
  amount: string;
}

export interface BacktestResult {
  fills: BacktestFill[];
  cycles: number;
  realized: string;
  state: MartinState;
}

/**
 * The price path inside each candle, as every backtest walks it: open, low, high, close on a green
 * candle; open, high, low, close on a red one. Stops when `done`.
 */
export function replayCandles(candles: CandleColumns, tick: (price: number, index: number) => void, done: () => boolean): void {
  const n = candles.open.length;
  for (let i = 0; i < n; i++) {
    const o = candles.open[i]!;
    const c = candles.close[i]!;
    tick(o, i);
    if (done()) return;
    if (c >= o) {
      tick(candles.low[i]!, i);
      tick(candles.high[i]!, i);
    } else {
      tick(candles.high[i]!, i);
      tick(candles.low[i]!, i);
    }
    tick(c, i);
    if (done()) return;
  }
}

/**
 * Replays a martin bot over candles with the same pure strategy the live engine runs. Inside a candle
 * the price path is open -> low -> high -> close on a green candle and open -> high -> low -> close on a
 * red one; a market order fills at the price that triggered it. The strategy is only asked when a price
 * crosses one of its trigger prices: doubles of two decimal strings compare in the same order as the
 * decimals themselves, so skipping the other ticks changes nothing and keeps a scan at millions of
 * candles a second.
 */
export function backtestMartin(view: MartinView, candles: CandleColumns): BacktestResult {
  let state = initialMartinState(botId('backtest'));
  const fills: BacktestFill[] = [];
  let cycles = 0;
  let tp = Infinity;
  let sl = -Infinity;
  let add = -Infinity;
  const refresh = () => {
    const t = state.targets;
    tp = t ? Number(t.takeProfit.toString()) : Infinity;
    sl = t?.stopLoss ? Number(t.stopLoss.toString()) : -Infinity;
    add = t?.nextAdd ? Number(t.nextAdd.toString()) : -Infinity;
  };
  const tick = (price: number, index: number) => {
    const waiting = state.phase === 'waiting';
    if (!waiting && price < tp && price > sl && price > add) return;
    const p: Decimal = money(String(price));
    const first = decideMartin(state, { type: 'PriceTicked', price: p }, view);
    state = first.state;
    let events: Intent[] = first.intents;
    while (events.length > 0) {
      const next: Intent[] = [];
      for (const intent of events) {
        if (intent.type === 'CycleClosed') cycles++;
        if (intent.type !== 'PlaceOrder') continue;
        const amount = intent.side === 'buy' ? buyAmount(intent.quote!, p, view.market.stepSize) : intent.amount!;
        fills.push({ candle: index, reason: intent.reason, side: intent.side, price: p.toFixed(), amount: amount.toFixed() });
        const out = decideMartin(state, { type: 'OrderFilled', clientOrderId: intent.clientOrderId, side: intent.side, price: p, amount }, view);
        state = out.state;
        next.push(...out.intents);
      }
      events = next;
    }
    refresh();
  };
  // A function, not an inline test: `tick` changes `state` behind the type checker's back.
  replayCandles(candles, tick, () => state.phase === 'done');
  return { fills, cycles, realized: state.realized.toFixed(), state };
}
