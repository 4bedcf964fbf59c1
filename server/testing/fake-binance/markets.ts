import type Decimal from 'decimal.js';
import { filterFailure } from './errors.ts';
import { dec, onStep } from './numbers.ts';

/** A spot market as a test describes it; amounts are decimal strings. */
export interface MarketSpec {
  base: string;
  quote: string;
  tickSize: string;
  stepSize: string;
  /** Smallest quantity (LOT_SIZE minQty); one step unless given. */
  minQty?: string;
  maxQty?: string;
  /** Smallest order value in the quote coin (NOTIONAL minNotional). */
  minNotional?: string;
}

export interface Market {
  /** Binance's id: base and quote run together ("BTCUSDT"). */
  id: string;
  /** ccxt's unified symbol ("BTC/USDT"). */
  symbol: string;
  base: string;
  quote: string;
  tickSize: Decimal;
  stepSize: Decimal;
  minQty: Decimal;
  maxQty: Decimal;
  minPrice: Decimal;
  maxPrice: Decimal;
  minNotional: Decimal;
  maxNotional: Decimal;
}

/** The order types the fake executes; ccxt refuses any other type itself, reading this list. */
export const ORDER_TYPES = ['LIMIT', 'LIMIT_MAKER', 'MARKET'] as const;

/** Binance's real rules for these pairs (tick, step, 5 USDT minimum). */
export const DEFAULT_MARKETS: MarketSpec[] = [
  { base: 'BTC', quote: 'USDT', tickSize: '0.01', stepSize: '0.00001', minNotional: '5' },
  { base: 'ETH', quote: 'USDT', tickSize: '0.01', stepSize: '0.0001', minNotional: '5' },
  { base: 'SOL', quote: 'USDT', tickSize: '0.01', stepSize: '0.001', minNotional: '5' },
  { base: 'XRP', quote: 'USDT', tickSize: '0.0001', stepSize: '0.1', minNotional: '5' },
];

export function toMarket(spec: MarketSpec): Market {
  const stepSize = dec(spec.stepSize);
  return {
    id: `${spec.base}${spec.quote}`,
    symbol: `${spec.base}/${spec.quote}`,
    base: spec.base,
    quote: spec.quote,
    tickSize: dec(spec.tickSize),
    stepSize,
    minQty: dec(spec.minQty ?? stepSize),
    maxQty: dec(spec.maxQty ?? '9000000'),
    minPrice: dec(spec.tickSize),
    maxPrice: dec('1000000'),
    minNotional: dec(spec.minNotional ?? '5'),
    maxNotional: dec('9000000'),
  };
}

/** PRICE_FILTER: within bounds and on the tick. */
export function checkPrice(m: Market, price: Decimal): void {
  if (price.lt(m.minPrice) || price.gt(m.maxPrice) || !onStep(price, m.tickSize)) throw filterFailure('PRICE_FILTER');
}

/** LOT_SIZE (MARKET_LOT_SIZE for market orders, whose bounds are the same here): within bounds and on the step. */
export function checkQuantity(m: Market, quantity: Decimal, isMarket: boolean): void {
  if (quantity.lt(m.minQty) || quantity.gt(m.maxQty) || !onStep(quantity, m.stepSize)) throw filterFailure(isMarket ? 'MARKET_LOT_SIZE' : 'LOT_SIZE');
}

/** NOTIONAL: the order's value (at its limit, or at the market price for a market order) within bounds. */
export function checkNotional(m: Market, value: Decimal): void {
  if (value.lt(m.minNotional) || value.gt(m.maxNotional)) throw filterFailure('NOTIONAL');
}

/** A symbol as `/api/v3/exchangeInfo` lists it: what ccxt's parseMarket reads (filters, order types, precisions). */
export function symbolInfo(m: Market) {
  const f = (d: Decimal) => d.toFixed(8);
  return {
    symbol: m.id,
    status: 'TRADING',
    baseAsset: m.base,
    baseAssetPrecision: 8,
    quoteAsset: m.quote,
    quotePrecision: 8,
    quoteAssetPrecision: 8,
    baseCommissionPrecision: 8,
    quoteCommissionPrecision: 8,
    orderTypes: [...ORDER_TYPES],
    icebergAllowed: false,
    ocoAllowed: false,
    otoAllowed: false,
    quoteOrderQtyMarketAllowed: true,
    allowTrailingStop: false,
    cancelReplaceAllowed: false,
    amendAllowed: false,
    isSpotTradingAllowed: true,
    isMarginTradingAllowed: false,
    filters: [
      { filterType: 'PRICE_FILTER', minPrice: f(m.minPrice), maxPrice: f(m.maxPrice), tickSize: f(m.tickSize) },
      { filterType: 'LOT_SIZE', minQty: f(m.minQty), maxQty: f(m.maxQty), stepSize: f(m.stepSize) },
      { filterType: 'MARKET_LOT_SIZE', minQty: f(m.minQty), maxQty: f(m.maxQty), stepSize: f(m.stepSize) },
      { filterType: 'NOTIONAL', minNotional: f(m.minNotional), applyMinToMarket: true, maxNotional: f(m.maxNotional), applyMaxToMarket: false, avgPriceMins: 5 },
    ],
    permissions: [],
    permissionSets: [['SPOT']],
    defaultSelfTradePreventionMode: 'EXPIRE_MAKER',
    allowedSelfTradePreventionModes: ['NONE', 'EXPIRE_TAKER', 'EXPIRE_MAKER', 'EXPIRE_BOTH'],
  };
}
