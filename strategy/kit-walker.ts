// The one walker lives in backtest.ts beside the price path and fill model it walks: backtestMartin is
// walked by it there, and no module may import one that imports it back.
export { walkKit, type WalkedKit, type WalkResult } from './backtest.ts';
