import type Decimal from 'decimal.js';
import type { Balance, Order, Trade } from './book.ts';
import type { DayStats } from './candles.ts';
import type { Market } from './markets.ts';
import { fmt, ZERO } from './numbers.ts';

/** Binance's answer shapes, field for field as the spot REST API writes them (what ccxt's parsers read). */

const STP = 'EXPIRE_MAKER';

const isWorking = (o: Order) => o.type !== 'MARKET' && o.status !== 'EXPIRED';

/** GET /api/v3/order, /openOrders, /allOrders. */
export function orderJson(o: Order) {
  return {
    symbol: o.symbol,
    orderId: o.orderId,
    orderListId: -1,
    clientOrderId: o.clientOrderId,
    price: fmt(o.price),
    origQty: fmt(o.origQty),
    executedQty: fmt(o.executedQty),
    cummulativeQuoteQty: fmt(o.cummulativeQuoteQty),
    status: o.status,
    timeInForce: o.timeInForce,
    type: o.type,
    side: o.side,
    stopPrice: fmt(ZERO),
    icebergQty: fmt(ZERO),
    time: o.time,
    updateTime: o.updateTime,
    isWorking: isWorking(o),
    workingTime: o.time,
    origQuoteOrderQty: fmt(o.origQuoteOrderQty),
    selfTradePreventionMode: STP,
  };
}

export type ResponseType = 'ACK' | 'RESULT' | 'FULL';

/** POST /api/v3/order, as `newOrderRespType` asks (market and limit orders default to FULL, as on Binance). */
export function newOrderJson(o: Order, trades: readonly Trade[], type: ResponseType) {
  const ack = { symbol: o.symbol, orderId: o.orderId, orderListId: -1, clientOrderId: o.clientOrderId, transactTime: o.time };
  if (type === 'ACK') return ack;
  const result = {
    ...ack,
    price: fmt(o.price),
    origQty: fmt(o.origQty),
    executedQty: fmt(o.executedQty),
    origQuoteOrderQty: fmt(o.origQuoteOrderQty),
    cummulativeQuoteQty: fmt(o.cummulativeQuoteQty),
    status: o.status,
    timeInForce: o.timeInForce,
    type: o.type,
    side: o.side,
    workingTime: o.time,
    selfTradePreventionMode: STP,
  };
  if (type === 'RESULT') return result;
  return {
    ...result,
    fills: trades.map((t) => ({ price: fmt(t.price), qty: fmt(t.qty), commission: fmt(t.commission), commissionAsset: t.commissionAsset, tradeId: t.id })),
  };
}

/** DELETE /api/v3/order: `clientOrderId` is the cancel request's own id, the order's is `origClientOrderId`. */
export function canceledJson(o: Order, cancelClientId: string, transactTime: number) {
  return {
    symbol: o.symbol,
    origClientOrderId: o.clientOrderId,
    orderId: o.orderId,
    orderListId: -1,
    clientOrderId: cancelClientId,
    transactTime,
    price: fmt(o.price),
    origQty: fmt(o.origQty),
    executedQty: fmt(o.executedQty),
    origQuoteOrderQty: fmt(o.origQuoteOrderQty),
    cummulativeQuoteQty: fmt(o.cummulativeQuoteQty),
    status: o.status,
    timeInForce: o.timeInForce,
    type: o.type,
    side: o.side,
    selfTradePreventionMode: STP,
  };
}

/** GET /api/v3/myTrades. */
export function tradeJson(t: Trade) {
  return {
    symbol: t.symbol,
    id: t.id,
    orderId: t.orderId,
    orderListId: -1,
    price: fmt(t.price),
    qty: fmt(t.qty),
    quoteQty: fmt(t.quoteQty),
    commission: fmt(t.commission),
    commissionAsset: t.commissionAsset,
    time: t.time,
    isBuyer: t.isBuyer,
    isMaker: t.isMaker,
    isBestMatch: true,
  };
}

export interface AccountView {
  balances: [string, Balance][];
  maker: Decimal;
  taker: Decimal;
  updateTime: number;
}

/** GET /api/v3/account. */
export function accountJson(a: AccountView) {
  const bips = (rate: Decimal) => rate.mul(10_000).toNumber();
  return {
    makerCommission: bips(a.maker),
    takerCommission: bips(a.taker),
    buyerCommission: 0,
    sellerCommission: 0,
    commissionRates: { maker: fmt(a.maker), taker: fmt(a.taker), buyer: fmt(ZERO), seller: fmt(ZERO) },
    canTrade: true,
    canWithdraw: true,
    canDeposit: true,
    brokered: false,
    requireSelfTradePrevention: false,
    preventSor: false,
    updateTime: a.updateTime,
    accountType: 'SPOT',
    balances: a.balances.map(([asset, b]) => ({ asset, free: fmt(b.free), locked: fmt(b.locked) })),
    permissions: ['SPOT'],
    uid: 100000001,
  };
}

/** GET /api/v3/ticker/24hr (FULL). Bid and ask are the price itself: the fake's market has no spread. */
export function ticker24Json(m: Market, s: DayStats, offer: Decimal) {
  const change = s.last.minus(s.open);
  const weighted = s.volume.gt(0) ? s.quoteVolume.div(s.volume) : s.last;
  return {
    symbol: m.id,
    priceChange: fmt(change),
    priceChangePercent: change.div(s.open).mul(100).toFixed(3),
    weightedAvgPrice: fmt(weighted),
    prevClosePrice: fmt(s.prevClose),
    lastPrice: fmt(s.last),
    lastQty: fmt(s.trades[s.trades.length - 1]?.qty ?? ZERO),
    bidPrice: fmt(s.last),
    bidQty: fmt(offer),
    askPrice: fmt(s.last),
    askQty: fmt(offer),
    openPrice: fmt(s.open),
    highPrice: fmt(s.high),
    lowPrice: fmt(s.low),
    volume: fmt(s.volume),
    quoteVolume: fmt(s.quoteVolume),
    openTime: s.openTime,
    closeTime: s.closeTime,
    firstId: s.trades[0]?.id ?? -1,
    lastId: s.trades[s.trades.length - 1]?.id ?? -1,
    count: s.trades.length,
  };
}

export const priceJson = (m: Market, price: Decimal) => ({ symbol: m.id, price: fmt(price) });

export const bookTickerJson = (m: Market, price: Decimal, offer: Decimal) => ({ symbol: m.id, bidPrice: fmt(price), bidQty: fmt(offer), askPrice: fmt(price), askQty: fmt(offer) });
