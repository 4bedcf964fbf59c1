import { type CandleColumns, DEFAULT_SLIPPAGE, type FillModel, type WalkResult, walkKit } from '../backtest.ts';
import type { Candle } from '../custom/feed.ts';
import { dcaKit } from './kit.ts';
import type { DcaState, DcaView } from './strategy.ts';

/** Its fills, the deals closed (by take profit, stop loss), its realised profit and its state at the end. */
export type DcaBacktestResult = WalkResult<DcaState>;

/**
 * Replays a DCA bot over candles through its kit on the one walk (../backtest.ts walkKit). `time` (each
 * candle's open time, ms) is the clock of its schedule and cooldown: waiting, it opens a deal at the open
 * of the first candle at or after its start's time (without `time`, a deal re-opens at once and a
 * scheduled or indicator bot never starts). An indicator start reads 1-minute candles (its rule checked
 * at each close, README.md "Deal start"), warmed up by `warmUp` as the custom bot's backtest.
 */
export function backtestDca(
  view: DcaView,
  candles: CandleColumns & { time?: Float64Array },
  fill: FillModel = { slippage: DEFAULT_SLIPPAGE },
  warmUp?: Partial<Record<string, readonly Candle[]>>,
): DcaBacktestResult {
  return walkKit(dcaKit, view, candles, fill, warmUp);
}
