import type Decimal from 'decimal.js';
import { floorTo, money } from '../../strategy/money.ts';
import { restingFill } from '../../strategy/resting-fill.ts';
import type { MarketInfo, MarketOrderRequest, OrderState } from './port.ts';

import { PAPER_FEE_RATE, PAPER_MAKER_FEE_RATE, PAPER_MIN_COST } from '../market/paper-rules.ts';

export { PAPER_FEE_RATE, PAPER_MAKER_FEE_RATE, PAPER_MIN_COST };
/** What a new Paper account holds. */
export const PAPER_START_BALANCE = { USDT: '10000' } as const;

/** The market rules Paper applies to a simulated symbol. */
export function paperMarket(symbol: string, tick: string, step: string): MarketInfo {
  const [base, quote] = symbol.split('/') as [string, string];
  return {
    symbol,
    base,
    quote,
    tickSize: money(tick),
    stepSize: money(step),
    minAmount: money(step),
    minCost: money(PAPER_MIN_COST),
    feeRate: money(PAPER_FEE_RATE),
    makerFeeRate: money(PAPER_MAKER_FEE_RATE),
  };
}

export interface PaperFill {
  order: OrderState;
  /** Balance changes to apply, by currency (none when rejected). */
  changes: Map<string, Decimal>;
}

const rejected = (m: MarketInfo, request: MarketOrderRequest, reason: string): PaperFill => ({
  order: { clientOrderId: request.clientOrderId, symbol: m.symbol, side: request.side, status: 'rejected', price: null, filled: money(0), cost: money(0), fee: null, reason },
  changes: new Map(),
});

/**
 * The price Paper fills an order at when the market is at `price`: an order resting at a trigger
 * (`request.at`: a bot's add, take profit or grid level the market moved through) by the backtest's
 * rule (strategy/resting-fill.ts: at the trigger, never better than the market), so the engine can
 * never buy below or sell above the market by naming a price. Without `at`: the market's price.
 */
export function paperFillPrice(price: Decimal, request: Pick<MarketOrderRequest, 'side' | 'at'>): Decimal {
  return request.at?.gt(0) ? restingFill(request.at, price, request.side) : price;
}

/**
 * A market order on Paper, as pure arithmetic: it fills at once at `price` (the market's; an order
 * resting at a trigger: paperFillPrice), with the taker fee in base
 * on buys and in quote on sells (as Binance charges); a buy is sized by cost and floored to the step.
 * Refused when below the minimum or when the balance does not cover it: a balance never goes negative.
 */
export function fillMarketOrder(m: MarketInfo, market: Decimal, request: MarketOrderRequest, balanceOf: (currency: string) => Decimal): PaperFill {
  const price = paperFillPrice(market, request);
  const buy = request.side === 'buy';
  const amount = buy ? floorTo((request.quote ?? money(0)).div(price), m.stepSize) : floorTo(request.amount ?? money(0), m.stepSize);
  const cost = amount.mul(price);
  if (amount.lt(m.minAmount) || cost.lt(m.minCost)) return rejected(m, request, 'amount too small');
  if (buy ? balanceOf(m.quote).lt(cost) : balanceOf(m.base).lt(amount)) return rejected(m, request, 'insufficient balance');
  const fee = buy ? amount.mul(m.feeRate) : cost.mul(m.feeRate);
  const changes = buy
    ? new Map([
        [m.quote, cost.neg()],
        [m.base, amount.minus(fee)],
      ])
    : new Map([
        [m.base, amount.neg()],
        [m.quote, cost.minus(fee)],
      ]);
  return {
    order: { clientOrderId: request.clientOrderId, symbol: m.symbol, side: request.side, status: 'closed', price, filled: amount, cost, fee: { currency: buy ? m.base : m.quote, amount: fee } },
    changes,
  };
}
