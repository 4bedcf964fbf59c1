import { type CandleColumns, DEFAULT_SLIPPAGE, type FillModel, type WalkResult, walkKit } from '../backtest.ts';
import type { Candle } from './feed.ts';
import { customKit } from './kit.ts';
import type { CustomState, CustomView } from './strategy.ts';

/** Its fills, the positions closed, its realised profit and its state at the end. */
export type CustomBacktestResult = WalkResult<CustomState>;

/**
 * Replays a custom bot over 1-minute candles through its kit on the one walk (../backtest.ts walkKit),
 * with the decide function and feed the live engine runs. Each candle: first its price path for take
 * profit and stop loss (the trailing lines, a followed high raised to the top of each rise), decided at
 * their price as the engine's round past them is; then its close, where the rules are checked and an
 * entry or a rule's exit fills at the close. `warmUp`: closed candles of the conditions' timeframes
 * before the first minute (CustomFeed.seed).
 */
export function backtestCustom(
  view: CustomView,
  candles: CandleColumns & { time: Float64Array },
  fill: FillModel = { slippage: DEFAULT_SLIPPAGE },
  warmUp?: Partial<Record<string, readonly Candle[]>>,
): CustomBacktestResult {
  return walkKit(customKit, view, candles, fill, warmUp);
}
