import Decimal from 'decimal.js';
import { abovePercent, belowPercent, ceilTo, floorTo, money } from '../money.ts';
import type { MarketRules } from './market.ts';

// The trading maths every bot type shares: a position's fills and their average, the prices a target
// sets around it, what a close can sell and what it books (fees, the step's dust carried into the next
// close, partial closes).

const ONE = money(1);

/** The take-profit price: `takeProfit`% above the average entry, rounded up so the target is met. */
export function takeProfitPrice(average: Decimal, takeProfit: string, tick: Decimal): Decimal {
  return ceilTo(average.mul(abovePercent(takeProfit)), tick);
}

/** The stop-loss price: `stopLoss`% below the average entry, floored to the tick. */
export function stopLossPrice(average: Decimal, stopLoss: string, tick: Decimal): Decimal {
  return floorTo(average.mul(belowPercent(stopLoss)), tick);
}

export interface Fill {
  price: Decimal;
  /** Base amount bought (gross, before a fee taken in base). */
  amount: Decimal;
}

/** Average entry price: total cost over total amount (exact; display rounding is the screen's). */
export function averagePrice(fills: readonly Fill[]): Decimal {
  let cost = money(0);
  let amount = money(0);
  for (const f of fills) {
    cost = cost.plus(f.price.mul(f.amount));
    amount = amount.plus(f.amount);
  }
  if (amount.isZero()) throw new RangeError('no fills');
  return cost.div(amount);
}

/** The base amount an order of `quote` buys at `price`, floored to the market's step. */
export function buyAmount(quote: Decimal, price: Decimal, step: Decimal): Decimal {
  return floorTo(quote.div(price), step);
}
/**
 * Base the buys left after fees taken in base, plus the dust an earlier close left (`carry`), floored
 * to the step: what a close can sell.
 */
export function sellableAmount(fills: readonly Fill[], market: MarketRules, carry: Decimal = money(0)): Decimal {
  let held = carry;
  const net = ONE.minus(market.feeRate);
  for (const f of fills) held = held.plus(f.amount.mul(net));
  return floorTo(held, market.stepSize);
}

/** Base a close could not sell (below the step) and the cost basis that goes with it, into the next close. */
export interface Carry {
  amount: Decimal;
  cost: Decimal;
}
export const NO_CARRY: Carry = { amount: money(0), cost: money(0) };
/** Cost bases are kept to 8 decimals of the quote: every quote currency's precision or finer. */
const COST_PLACES = 8;

export interface CloseResult {
  /** Base sold: what the buys left after fees taken in base, floored to the step (or what the exchange sold). */
  sellAmount: Decimal;
  /** Base left over (stays in the account, sold with the next close). */
  dust: Decimal;
  /** Quote received, net of the sell fee. */
  proceeds: Decimal;
  /** Quote spent on this cycle's buys. */
  cost: Decimal;
  /** The cost counted against what was sold: a cycle's close, all of it (carried cost + this cycle's cost); a partial close, its share, x sold / held. */
  costSold: Decimal;
  /** The cost the rest keeps (a partial close's remainder; 0 when a cycle closes: its dust is carried at no cost). */
  dustCost: Decimal;
  profit: Decimal;
}

/**
 * Closing a cycle at `price`: buy fees are taken in base (as Binance does), the sell fee in quote. The
 * books are kept in the quote: the cycle's profit is the quote received less every quote spent on it
 * (its buys and what a coin carried in from the last cycle still cost), fees included. What cannot be
 * sold (below the step) stays in the account as the bot's coin, carried into the next close at no cost,
 * so that close's profit counts it when it is sold; over several cycles every quote spent and received
 * is counted once, and no cycle books coin it did not sell. `sold` is the exchange's figure when it
 * differs from the plan.
 */
export function closeCycle(fills: readonly Fill[], price: Decimal, market: MarketRules, carry: Carry = NO_CARRY, sold?: Decimal): CloseResult {
  const part = closePart(fills, price, market, carry, sold);
  return { ...part, costSold: part.costSold.plus(part.dustCost), dustCost: money(0), profit: part.profit.minus(part.dustCost) };
}

/**
 * The floating PnL of an open position at `price`: everything held (the carried coin included, what the
 * step would leave too) valued at the price less the sell fee, less all it cost. A close books only what
 * it sells (closeCycle); the coin a close would leave is still worth its price while the bot holds it.
 */
export function floatingPnl(fills: readonly Fill[], price: Decimal, market: MarketRules, carry: Carry = NO_CARRY): Decimal {
  const net = ONE.minus(market.feeRate);
  let held = carry.amount;
  let basis = carry.cost;
  for (const f of fills) {
    held = held.plus(f.amount.mul(net));
    basis = basis.plus(f.amount.mul(f.price));
  }
  return held.mul(price).mul(net).minus(basis).toDecimalPlaces(COST_PLACES, Decimal.ROUND_HALF_EVEN);
}

/**
 * Selling `sold` (default: all that the step allows) of a position that stays open: the sold part
 * carries its share of the cost (average cost), `costSold = round8(basis x sold / held)`, and the rest
 * keeps the remainder (a partial close; README.md "Partial close").
 */
function closePart(fills: readonly Fill[], price: Decimal, market: MarketRules, carry: Carry, sold?: Decimal): CloseResult {
  let held = carry.amount;
  let cost = money(0);
  const net = ONE.minus(market.feeRate);
  for (const f of fills) {
    held = held.plus(f.amount.mul(net));
    cost = cost.plus(f.amount.mul(f.price));
  }
  const basis = cost.plus(carry.cost);
  const sellAmount = sold ?? floorTo(held, market.stepSize);
  const share = held.isZero() || sellAmount.gte(held) ? ONE : sellAmount.div(held);
  const costSold = share.eq(ONE) ? basis : basis.mul(share).toDecimalPlaces(COST_PLACES, Decimal.ROUND_HALF_EVEN);
  const proceeds = sellAmount.mul(price).mul(net);
  const dust = held.minus(sellAmount);
  return { sellAmount, dust: dust.gt(0) ? dust : money(0), proceeds, cost, costSold, dustCost: basis.minus(costSold), profit: proceeds.minus(costSold) };
}

/**
 * Significant digits of the share of each fill a partial close keeps. Every fill is scaled by the same
 * short factor, exactly (no rounding of the products), so the fills keep their proportions and the
 * average entry is the very same number: a take profit on a tick (59184 x 1.015 = 60071.76) stays on
 * it. What the factor's rounding leaves (under 1e-8 of the rest) is carried, with its cost.
 */
const KEEP_DIGITS = 8;

export interface ReducedPosition {
  /** The sold part as a close counts it: proceeds, its share of the cost (average cost), profit. */
  close: CloseResult;
  /** The same fills, each scaled down to the share kept: the average entry and the last fill's price do not move. */
  fills: Fill[];
  /** What the scaled fills leave of the exact rest (the earlier carry and the factor's rounding), with its cost. */
  carry: Carry;
}

/**
 * Selling `sold`, fewer than all held, at `price` (a partial close): the profit is closePart's for that
 * amount, and the rest keeps the average cost: held' = held - sold and basis' = basis - costSold exactly
 * (README.md "Partial close").
 */
export function reducePosition(fills: readonly Fill[], price: Decimal, market: MarketRules, carry: Carry, sold: Decimal): ReducedPosition {
  const close = closePart(fills, price, market, carry, sold);
  const keep = close.dust.div(close.dust.plus(close.sellAmount)).toSignificantDigits(KEEP_DIGITS, Decimal.ROUND_DOWN);
  const kept = fills.map((f) => ({ price: f.price, amount: f.amount.mul(keep) }));
  let net = money(0);
  let cost = money(0);
  for (const f of kept) {
    net = net.plus(f.amount.mul(ONE.minus(market.feeRate)));
    cost = cost.plus(f.amount.mul(f.price));
  }
  return { close, fills: kept, carry: { amount: close.dust.minus(net), cost: close.dustCost.minus(cost) } };
}

/** What the trader asks a close to sell: a share in percent of the position (1-100), or an amount of the base coin. */
export type CloseAsk = { percent: Decimal } | { amount: Decimal };

export type CloseSize =
  | {
      ok: true;
      /** Everything held is sold: the cycle closes, exactly as a full manual close. */
      all: boolean;
      /** Base to sell, rounded down to the step. */
      amount: Decimal;
      /** The share sold in percent, as the log shows it ("50"; an amount's share to 2 decimals, rounded down). */
      share: string;
      /** The estimate at `price`: closeCycle for that amount. */
      close: CloseResult;
      /** What a partial close leaves that a later close can sell (0 when all is sold). */
      rest: Decimal;
    }
  | {
      ok: false;
      /** share: not 1-100; aboveHeld: more than the position; belowMinimum: the sale is below the market's minimum order; restBelowMinimum: the rest would be. */
      problem: 'share' | 'aboveHeld' | 'belowMinimum' | 'restBelowMinimum';
      /** What a close can sell now. */
      held: Decimal;
      /** The rest a partial close would leave. */
      rest: Decimal;
    };

const HUNDRED_PCT = money(100);

/**
 * Sizes a manual close of part of a martin position, the same for the server's check and the
 * confirmation's estimate: the amount is rounded down to the step; 100 % (or the whole amount) is the
 * full close; a sale or a rest below the market's minimum order (amount or cost at `price`) is refused,
 * since neither could be sold on its own.
 */
export function sizeClose(fills: readonly Fill[], market: MarketRules, carry: Carry, price: Decimal, ask: CloseAsk): CloseSize {
  const held = sellableAmount(fills, market, carry.amount);
  const refuse = (problem: 'share' | 'aboveHeld' | 'belowMinimum' | 'restBelowMinimum', rest = money(0)): CloseSize => ({ ok: false, problem, held, rest });
  if ('percent' in ask && (ask.percent.lt(1) || ask.percent.gt(HUNDRED_PCT))) return refuse('share');
  if ('amount' in ask && ask.amount.gt(held)) return refuse('aboveHeld');
  const amount = 'percent' in ask ? floorTo(held.mul(ask.percent).div(HUNDRED_PCT), market.stepSize) : floorTo(ask.amount, market.stepSize);
  if (amount.gte(held)) return { ok: true, all: true, amount: held, share: '100', close: closeCycle(fills, price, market, carry), rest: money(0) };
  const small = (a: Decimal) => a.lte(0) || a.lt(market.minAmount) || a.mul(price).lt(market.minCost);
  const close = closePart(fills, price, market, carry, amount);
  const rest = floorTo(close.dust, market.stepSize);
  if (small(amount)) return refuse('belowMinimum', rest);
  if (small(rest)) return refuse('restBelowMinimum', rest);
  const ofHeld = amount.div(held).mul(HUNDRED_PCT).toDecimalPlaces(2, Decimal.ROUND_DOWN);
  const share = 'percent' in ask ? ask.percent.toFixed() : (ofHeld.gt(0) ? ofHeld : money('0.01')).toFixed();
  return { ok: true, all: false, amount, share, close, rest };
}

/** The share (percent, 2 places) a sale of `sold` is of `sellable`: the log's figure for a take profit filled in part. */
export function soldShare(sold: Decimal, sellable: Decimal): string {
  return sellable.gt(0) ? sold.div(sellable).mul(100).toDecimalPlaces(2, 1).toFixed() : '0';
}
