import type Decimal from 'decimal.js';
import { floorTo } from '../../strategy/money.ts';
import { hashString } from '../market/random.ts';
import { type LimitOrderRequest, type MarketInfo, WOULD_CROSS } from './port.ts';

/** What a fill does to an account: balance changes by currency, and the locks it releases. */
export interface LimitFill {
  price: Decimal;
  amount: Decimal;
  cost: Decimal;
  fee: { currency: string; amount: Decimal };
  maker: boolean;
  changes: Map<string, Decimal>;
  /** The locks released by currency (a resting order's own, as it fills). */
  unlocks: Map<string, Decimal>;
}

/** What a new limit order does at the market's price (Paper's rules, as a venue's). */
export type LimitOutcome =
  | { kind: 'rejected'; reason: string }
  /** It crosses the market: filled at once at the market's price (better than its limit), as a taker. */
  | { kind: 'filled'; fill: LimitFill }
  /** An IOC or FOK order that could not fill at once: ended with nothing filled. */
  | { kind: 'expired' }
  /** It rests at its price, holding what it would spend. */
  | { kind: 'rests'; lock: { currency: string; amount: Decimal } };

/** What a limit order holds while it rests: a buy its quote at its price, a sell its base. */
export function lockOf(m: MarketInfo, side: 'buy' | 'sell', price: Decimal, amount: Decimal): { currency: string; amount: Decimal } {
  return side === 'buy' ? { currency: m.quote, amount: amount.mul(price) } : { currency: m.base, amount };
}

/**
 * A fill of `amount` at `price`: a buy pays the quote and gets the base less the fee (charged in the coin
 * received, as Binance does), a sell the reverse; the maker rate for an order that rested, the taker's for
 * one that filled at once. A resting order's fill releases its share of the lock (at its own price).
 */
export function fillOf(m: MarketInfo, side: 'buy' | 'sell', price: Decimal, amount: Decimal, maker: { limit: Decimal } | null): LimitFill {
  const rate = maker ? (m.makerFeeRate ?? m.feeRate) : m.feeRate;
  const cost = amount.mul(price);
  const buy = side === 'buy';
  const fee = buy ? { currency: m.base, amount: amount.mul(rate) } : { currency: m.quote, amount: cost.mul(rate) };
  const changes = buy
    ? new Map([
        [m.quote, cost.neg()],
        [m.base, amount.minus(fee.amount)],
      ])
    : new Map([
        [m.base, amount.neg()],
        [m.quote, cost.minus(fee.amount)],
      ]);
  const unlocks = new Map<string, Decimal>();
  if (maker) {
    const lock = lockOf(m, side, maker.limit, amount);
    unlocks.set(lock.currency, lock.amount);
  }
  return { price, amount, cost, fee, maker: maker !== null, changes, unlocks };
}

/**
 * A new limit order at the market's price `market`, against the account's free balances (what no open
 * order holds): refused when its price is off the tick, its amount off the step or below the minimums, a
 * post-only order would fill at once, or the free balance cannot cover it; filled at once at the market's
 * price when it crosses; an IOC or FOK order that does not cross expires; any other rests.
 */
export function limitOutcome(m: MarketInfo, market: Decimal, request: LimitOrderRequest, freeOf: (currency: string) => Decimal): LimitOutcome {
  const { price, amount, side } = request;
  if (!price.gt(0) || !floorTo(price, m.tickSize).eq(price)) return { kind: 'rejected', reason: 'price not on tick' };
  if (!amount.gt(0) || !floorTo(amount, m.stepSize).eq(amount)) return { kind: 'rejected', reason: 'amount not on step' };
  if (amount.lt(m.minAmount) || amount.mul(price).lt(m.minCost)) return { kind: 'rejected', reason: 'amount too small' };
  const crosses = side === 'buy' ? price.gte(market) : price.lte(market);
  if (crosses && request.postOnly) return { kind: 'rejected', reason: WOULD_CROSS };
  if (crosses) {
    const fill = fillOf(m, side, market, amount, null);
    const spends = side === 'buy' ? fill.cost : amount;
    if (freeOf(side === 'buy' ? m.quote : m.base).lt(spends)) return { kind: 'rejected', reason: 'insufficient balance' };
    return { kind: 'filled', fill };
  }
  if (request.timeInForce === 'IOC' || request.timeInForce === 'FOK') return { kind: 'expired' };
  const lock = lockOf(m, side, price, amount);
  if (freeOf(lock.currency).lt(lock.amount)) return { kind: 'rejected', reason: 'insufficient balance' };
  return { kind: 'rests', lock };
}

/** Whether a resting order is reached by the market's price: a buy at or above it, a sell at or below. */
export const reached = (side: 'buy' | 'sell', limit: Decimal, market: Decimal) => (side === 'buy' ? market.lte(limit) : market.gte(limit));

/**
 * How much of a resting order one match fills: Paper fills a reached order whole unless a volume model
 * says otherwise. `seededVolume` is deterministic (the same seed, order and fill so far give the same
 * part), so a test of partial fills always sees the same ones.
 */
export type VolumeModel = (order: { clientOrderId: string; amount: Decimal; filled: Decimal }) => Decimal;

/**
 * A seeded volume model: each match fills between `min` and all (as shares) of what is left, the share
 * drawn from a hash of the seed, the order's amount and what it has filled so far (two orders of one size
 * fill alike under one seed).
 */
export function seededVolume(seed: string, min = 0.25): VolumeModel {
  return ({ amount, filled }) => {
    const h = hashString(`${seed}|${amount.toFixed()}|${filled.toFixed()}`);
    const share = min + ((h % 1000) / 1000) * (1 - min);
    return amount.minus(filled).mul(share.toFixed(3));
  };
}
