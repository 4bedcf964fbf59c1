import { PAPER_FEE_RATE, PAPER_MAKER_FEE_RATE, PAPER_MIN_COST } from './paper-rules.ts';
import type { SymbolInfo, Ticker } from '../../contract/market.ts';
import { money } from '../../strategy/money.ts';
import type { SimulatedMarket } from './simulated.ts';
import type { Timeframe } from './symbols.ts';

const DAY_MS = 86_400_000;

/** A symbol's price now and its change over 24 hours, from one shared feed (not one per caller). */
export function ticker(feed: SimulatedMarket, symbol: string, now: number): Ticker {
  // The feed's string keeps the tick's decimals ("64715.80"); Decimal is only for the change.
  const text = feed.priceAt(symbol, now);
  const price = money(text);
  const before = money(feed.priceAt(symbol, now - DAY_MS));
  return { symbol, price: text, change24h: price.minus(before).div(before).mul(100).toDecimalPlaces(2).toFixed(2) };
}

/** The tradable symbols of the simulated market, with history when asked. */
export function symbolList(feed: SimulatedMarket, now: number, history?: { timeframe: Timeframe; limit: number }, only?: string): SymbolInfo[] {
  return feed
    .symbols()
    .filter((s) => only === undefined || s.symbol === only)
    .map((s) => ({
      ...ticker(feed, s.symbol, now),
      exchange: 'paper',
      tickSize: s.tick,
      stepSize: s.step,
      minAmount: s.step,
      minCost: PAPER_MIN_COST,
      feeRate: PAPER_FEE_RATE,
      makerFeeRate: PAPER_MAKER_FEE_RATE,
      // The candles as they stand at the price above: a chart's last close is the price shown beside it.
      ...(history ? { history: feed.candlesAt(s.symbol, history.timeframe, now, history.limit) } : {}),
    }));
}
