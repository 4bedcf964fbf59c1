import { type BacktestFill, type CandleColumns, DEFAULT_SLIPPAGE, type FillModel, walkKit } from '../backtest.ts';
import { gridKit } from './kit.ts';
import type { GridState, GridView } from './strategy.ts';

export interface GridBacktestResult {
  fills: BacktestFill[];
  /** Grids completed (a level bought and sold), and exits. */
  trades: number;
  realized: string;
  state: GridState;
}

/**
 * Replays a grid bot over candles through its kit on the one walk (../backtest.ts walkKit): a buy on each
 * level the price falls to, a sell on each level it rises to, in the order the price meets them, each at
 * its level (at the open when the candle opened past it), with the slippage against the trader.
 */
export function backtestGrid(view: GridView, candles: CandleColumns, fill: FillModel = { slippage: DEFAULT_SLIPPAGE }): GridBacktestResult {
  const { cycles, ...run } = walkKit(gridKit, view, candles, fill);
  return { ...run, trades: cycles };
}
