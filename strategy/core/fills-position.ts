import type Decimal from 'decimal.js';
import type { Held, KitDetail } from '../kit-types.ts';
import { averagePrice, closeCycle, floatingPnl, type Fill } from './position.ts';
import type { MarketRules } from './market.ts';
import { money } from '../money.ts';

// The position of a bot whose buys are its fills (martin, DCA, custom): what the lists, the positions and
// the detail screen show of it, computed the one way the engine books it (core/position.ts closeCycle).

/** The stored form of such a state, as far as its position goes (states stored before carry existed have none). */
interface StoredFills {
  cycle: number;
  fills: { price: string; amount: string }[];
  carry?: string;
  carryCost?: string;
}

const fillsOf = (stored: unknown): Fill[] => {
  const s = stored as Partial<StoredFills> | null | undefined;
  return Array.isArray(s?.fills) ? s.fills.map((f) => ({ price: money(f.price), amount: money(f.amount) })) : [];
};
const carryOf = (stored: unknown) => {
  const s = stored as Partial<StoredFills>;
  return { amount: money(s.carry ?? '0'), cost: money(s.carryCost ?? '0') };
};

/** The open cycle's buys, base and cost from the stored state; `maxEntries`: the most buys a cycle may have. */
export function fillsHeld(stored: unknown, maxEntries: number): Held {
  const fills = fillsOf(stored);
  let cost = money(0);
  let amount = money(0);
  for (const f of fills) {
    cost = cost.plus(f.price.mul(f.amount));
    amount = amount.plus(f.amount);
  }
  return {
    cycle: (stored as Partial<StoredFills>).cycle ?? 1,
    entries: fills.length,
    maxEntries,
    amount,
    cost,
    average: amount.isZero() ? null : cost.div(amount).toDecimalPlaces(12),
  };
}

/** The floating PnL of the stored buys (and the coin carried) at `price`, net of the sell fee. */
export function fillsFloating(stored: unknown, market: MarketRules, price: Decimal): Decimal {
  const fills = fillsOf(stored);
  return fills.length === 0 ? money(0) : floatingPnl(fills, price, market, carryOf(stored));
}

/** The decoded state's position as far as the detail needs it. */
export interface FillsPosition {
  fills: Fill[];
  carry: Decimal;
  carryCost: Decimal;
}

/** The trigger prices the engine acts on now, as the strategy computes them. */
export interface FillsLines {
  takeProfit: Decimal | null | undefined;
  stop: Decimal | null | undefined;
  nextAdd: Decimal | null | undefined;
  /** An armed trailing take profit: the high since it armed and the line the sale fires at. */
  armed: { high: Decimal; line: Decimal } | null | undefined;
}

/**
 * The detail of such a bot at `price`: what a close sells and would book, the coin carried below the step
 * (sold with this cycle's sale once it adds up to a step), its lines, its buys, the market's rules (the
 * confirmation of a partial close estimates with them) and its planned levels.
 */
export function fillsDetail(state: FillsPosition, market: MarketRules, price: Decimal, lines: FillsLines, levels: KitDetail['levels']): KitDetail {
  const holding = state.fills.length > 0;
  const carry = { amount: state.carry, cost: state.carryCost };
  const close = holding ? closeCycle(state.fills, price, market, carry) : null;
  return {
    amount: close ? close.sellAmount.toFixed() : '0',
    dust: state.carry.toFixed(),
    unrealized: holding ? floatingPnl(state.fills, price, market, carry).toFixed() : '0',
    takeProfitPrice: lines.takeProfit?.toFixed() ?? null,
    stopLossPrice: lines.stop?.toFixed() ?? null,
    nextAddPrice: lines.nextAdd?.toFixed() ?? null,
    ...(lines.armed ? { trailing: { high: lines.armed.high.toFixed(), price: lines.armed.line.toFixed() } } : {}),
    averagePrice: holding
      ? averagePrice(state.fills)
          .toDecimalPlaces(market.tickSize.decimalPlaces() + 4)
          .toFixed()
      : null,
    fills: state.fills.map((f) => ({ price: f.price.toFixed(), amount: f.amount.toFixed() })),
    close: {
      carry: state.carry.toFixed(),
      carryCost: state.carryCost.toFixed(),
      tickSize: market.tickSize.toFixed(),
      stepSize: market.stepSize.toFixed(),
      minAmount: market.minAmount.toFixed(),
      minCost: market.minCost.toFixed(),
      feeRate: market.feeRate.toFixed(),
    },
    levels,
  };
}

/** A plan's orders as the detail lists them. */
export const levelsOf = (orders: { index: number; price: Decimal; quote: Decimal; amount: Decimal }[]): KitDetail['levels'] =>
  orders.map((o) => ({ index: o.index, price: o.price.toFixed(), quote: o.quote.toFixed(), amount: o.amount.toFixed() }));
