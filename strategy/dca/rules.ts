import type { Rule } from '../custom/rules.ts';

/**
 * When a DCA bot opens a deal (README.md "Deal start"). `now`: at once, and again as soon as the last
 * deal closed and the cooldown passed. `schedule`: a recurring buy at a time of day (`HH:MM` at the
 * trader's `utcOffset` minutes east of UTC), every day or every week on an ISO weekday (1 Monday ..
 * 7 Sunday). `indicator`: at a 1-minute close where `rule` holds (the custom bot's rules, checked by
 * the custom bot's own feed: ../custom/README.md "The rules"), once the cooldown passed. `signal`: only
 * when a buy signal comes (the webhook, README.md "Signals"), never by itself. `startDue` in strategy.ts
 * is the one place that decides whether a deal may open.
 */
export type DcaStart =
  | { kind: 'now' }
  | { kind: 'signal' }
  | { kind: 'schedule'; every: 'day' | 'week'; weekday?: number | undefined; time: string; utcOffset: number }
  | { kind: 'indicator'; rule: Rule };

/** The parameters a trader sets for a DCA bot (strings: exact decimals, percentages as "2" for 2%). */
export interface DcaParams {
  /** Quote set aside for the bot: at least the funds one deal can need (every order filled). */
  investment: string;
  /** Quote spent by the base order that opens a deal. */
  baseOrder: string;
  /** Quote spent by the first safety order; the n-th spends safetyOrder x volumeScale^(n-1). */
  safetyOrder: string;
  /** Safety orders per deal, N (0: the base order alone). */
  maxSafetyOrders: number;
  /** d: the first safety order waits d% below the base order's price. */
  deviation: string;
  /** s: each safety order's step below the previous one is s times the step before it. */
  stepScale: string;
  /** v: each safety order spends v times the previous one. */
  volumeScale: string;
  /** Close the deal when the price is this many percent above the average cost. */
  takeProfit: string;
  /**
   * Trailing take profit (../trailing.ts): reaching the take-profit price arms it, and the deal sells when
   * the price falls this many percent from the high since; absent: sell at the take-profit price.
   */
  trailingDeviation?: string | undefined;
  /** Close at a loss when the price is this many percent below the base order's price; absent: never. */
  stopLoss?: string | undefined;
  /** Trailing stop loss (README.md "Trailing stop loss"): the stop is `stopLoss`% below the high since the base order, not below the base price. Needs a stop loss. */
  trailingStop?: boolean | undefined;
  /** Seconds to wait after a deal closes before the next one may open (0 or absent: none). */
  cooldown?: number | undefined;
  start: DcaStart;
}

/** Bounds the product sets (3Commas-like ranges). */
export const dcaBounds = {
  maxSafetyOrders: { min: 0, max: 50 },
  deviation: { min: '0.1', max: '50' },
  stepScale: { min: '0.1', max: '10' },
  volumeScale: { min: '0.1', max: '10' },
  takeProfit: { min: '0.1', max: '100' },
  stopLoss: { min: '0.1', max: '99' },
  trailingDeviation: { min: '0.1', max: '20' },
  /** The last safety order's total deviation, in percent: it must stay above a price of zero. */
  maxTotalDeviation: '99',
  /** Cooldown: up to 30 days, in seconds. */
  cooldown: { min: 0, max: 2_592_000 },
  utcOffset: { min: -720, max: 840 },
} as const;

/** The number of concurrent deals a DCA bot keeps: one (README.md "One deal at a time"). */
export const DCA_CONCURRENT_DEALS = 1;
