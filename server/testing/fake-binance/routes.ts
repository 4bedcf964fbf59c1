import type Decimal from 'decimal.js';
import { accountJson, bookTickerJson, canceledJson, newOrderJson, orderJson, priceJson, type ResponseType, ticker24Json, tradeJson } from './answers.ts';
import { type Balance, type Book, isOpen, type OrderRequest, type OrderType, type Side, type TimeInForce } from './book.ts';
import { dayStats, INTERVALS, klines } from './candles.ts';
import {
  eitherMandatory,
  illegalCharacters,
  illegalClientId,
  invalidInterval,
  invalidOrderType,
  invalidSide,
  invalidTimeInForce,
  mandatory,
  noSuchOrder,
  notRequired,
  tooMuchPrecision,
  unknownOrder,
} from './errors.ts';
import type { FaultPlan } from './faults.ts';
import type { RateLimits } from './rate-limits.ts';
import { type Market, ORDER_TYPES, symbolInfo } from './markets.ts';
import { decimalParam, dec } from './numbers.ts';

/**
 * The endpoints ccxt's binance class calls for this engine, with Binance's request weights (its
 * documentation, spot REST API), whether they are signed, and what they answer. Nothing else is served:
 * any other path is a 404, so a test learns at once that ccxt asked for something unexpected.
 */

export interface Context {
  book: Book;
  faults: FaultPlan;
  params: URLSearchParams;
  method: string;
  path: string;
  now: number;
  limits: RateLimits;
}

export interface Route {
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  signed: boolean;
  /** Counts towards the order limits (a new order). */
  isOrder?: boolean;
  weight: (params: URLSearchParams) => number;
  handle: (ctx: Context) => unknown;
}

const CLIENT_ID = /^[.A-Z:/a-z0-9_-]{1,36}$/;

const text = (params: URLSearchParams, name: string): string | null => {
  const v = params.get(name);
  return v === null || v === '' ? null : v;
};

const need = (params: URLSearchParams, name: string): string => {
  const v = text(params, name);
  if (v === null) throw mandatory(name);
  return v;
};

const decimal = (params: URLSearchParams, name: string): Decimal | null => {
  const v = text(params, name);
  if (v === null) return null;
  const parsed = decimalParam(v);
  if ('wrong' in parsed) throw parsed.wrong === 'precision' ? tooMuchPrecision(name) : illegalCharacters(name);
  return parsed.value;
};

const integer = (params: URLSearchParams, name: string): number | null => {
  const v = text(params, name);
  if (v === null) return null;
  if (!/^\d+$/.test(v)) throw illegalCharacters(name);
  return Number(v);
};

const limitOf = (params: URLSearchParams, fallback: number, max: number) => Math.min(integer(params, 'limit') ?? fallback, max);

/** `symbol`, `symbols` (a JSON list) or neither (every market). */
function symbolsOf(book: Book, params: URLSearchParams): { markets: Market[]; single: boolean } {
  const one = text(params, 'symbol');
  if (one !== null) return { markets: [book.market(one)], single: true };
  const many = text(params, 'symbols');
  if (many === null) return { markets: [...book.markets.values()], single: false };
  let ids: unknown;
  try {
    ids = JSON.parse(many);
  } catch {
    throw illegalCharacters('symbols');
  }
  if (!Array.isArray(ids)) throw illegalCharacters('symbols');
  return { markets: ids.map((id) => book.market(String(id))), single: false };
}

const countOf = (params: URLSearchParams): number | null => {
  const many = text(params, 'symbols');
  if (text(params, 'symbol') !== null) return 1;
  if (many === null) return null;
  try {
    const ids = JSON.parse(many);
    return Array.isArray(ids) ? ids.length : 1;
  } catch {
    return 1;
  }
};

/** What a ticker endpoint answers: one object for `symbol`, a list otherwise. */
const perSymbol = (params: URLSearchParams, ctx: Context, answer: (m: Market) => unknown) => {
  const { markets, single } = symbolsOf(ctx.book, params);
  return single ? answer(markets[0]!) : markets.map(answer);
};

/** The most recent `limit` of `items` (ascending), or the first `limit` from `fromId` on. */
function window<T>(items: T[], idOf: (t: T) => number, fromId: number | null, limit: number): T[] {
  if (fromId !== null) return items.filter((t) => idOf(t) >= fromId).slice(0, limit);
  return items.slice(Math.max(0, items.length - limit));
}

function orderRequest(params: URLSearchParams): { request: OrderRequest; responseType: ResponseType } {
  const symbol = need(params, 'symbol');
  const side = need(params, 'side');
  const type = need(params, 'type');
  if (side !== 'BUY' && side !== 'SELL') throw invalidSide();
  if (!(ORDER_TYPES as readonly string[]).includes(type)) throw invalidOrderType();
  const tif = text(params, 'timeInForce');
  const quantity = decimal(params, 'quantity');
  const quoteOrderQty = decimal(params, 'quoteOrderQty');
  const price = decimal(params, 'price');
  const request: OrderRequest = { symbol, side: side as Side, type: type as OrderType };
  if (type === 'LIMIT') {
    if (tif === null) throw mandatory('timeInForce');
    if (tif !== 'GTC' && tif !== 'IOC' && tif !== 'FOK') throw invalidTimeInForce();
    if (quantity === null) throw mandatory('quantity');
    if (price === null) throw mandatory('price');
    if (quoteOrderQty !== null) throw notRequired('quoteOrderQty');
    Object.assign(request, { timeInForce: tif as TimeInForce, quantity, price });
  } else if (type === 'LIMIT_MAKER') {
    if (tif !== null) throw notRequired('timeInForce');
    if (quantity === null) throw mandatory('quantity');
    if (price === null) throw mandatory('price');
    if (quoteOrderQty !== null) throw notRequired('quoteOrderQty');
    Object.assign(request, { quantity, price });
  } else {
    if (tif !== null) throw notRequired('timeInForce');
    if (price !== null) throw notRequired('price');
    if (quantity === null && quoteOrderQty === null) throw eitherMandatory('quantity', 'quoteOrderQty');
    if (quantity !== null && quoteOrderQty !== null) throw notRequired('quoteOrderQty');
    if (quantity !== null) request.quantity = quantity;
    else request.quoteOrderQty = quoteOrderQty!;
  }
  const clientId = text(params, 'newClientOrderId');
  if (clientId !== null) {
    if (!CLIENT_ID.test(clientId)) throw illegalClientId('newClientOrderId');
    request.newClientOrderId = clientId;
  }
  const asked = text(params, 'newOrderRespType');
  const responseType: ResponseType = asked === 'ACK' || asked === 'RESULT' || asked === 'FULL' ? asked : type === 'LIMIT_MAKER' ? 'ACK' : 'FULL';
  return { request, responseType };
}

/** The order an id or client id names (-2013 if none), with the "does not exist" fault for one that does. */
function existing(ctx: Context) {
  const { params, book } = ctx;
  const order = book.find(need(params, 'symbol'), text(params, 'orderId'), text(params, 'origClientOrderId'));
  if (!order || ctx.faults.take('orderNotFound', ctx.method, ctx.path)) throw noSuchOrder();
  return order;
}

export const ROUTES: Route[] = [
  {
    method: 'GET',
    path: '/api/v3/time',
    signed: false,
    weight: () => 1,
    handle: (ctx) => ({ serverTime: ctx.now }),
  },
  {
    method: 'GET',
    path: '/api/v3/exchangeInfo',
    signed: false,
    weight: () => 20,
    handle: (ctx) => ({
      timezone: 'UTC',
      serverTime: ctx.now,
      rateLimits: [
        { rateLimitType: 'REQUEST_WEIGHT', interval: 'MINUTE', intervalNum: 1, limit: ctx.limits.weightPerMinute },
        { rateLimitType: 'ORDERS', interval: 'SECOND', intervalNum: 10, limit: ctx.limits.ordersPer10s },
        { rateLimitType: 'ORDERS', interval: 'DAY', intervalNum: 1, limit: ctx.limits.ordersPerDay },
        { rateLimitType: 'RAW_REQUESTS', interval: 'MINUTE', intervalNum: 5, limit: 61000 },
      ],
      exchangeFilters: [],
      symbols: symbolsOf(ctx.book, ctx.params).markets.map(symbolInfo),
    }),
  },
  {
    method: 'GET',
    path: '/api/v3/ticker/24hr',
    signed: false,
    weight: (p) => {
      const n = countOf(p);
      return n === null ? 80 : n <= 20 ? 2 : n <= 100 ? 40 : 80;
    },
    handle: (ctx) => perSymbol(ctx.params, ctx, (m) => ticker24Json(m, dayStats(ctx.book.history.get(m.id)!, tradesOf(ctx.book, m), ctx.now), ctx.book.offer(m.id))),
  },
  {
    method: 'GET',
    path: '/api/v3/ticker/price',
    signed: false,
    weight: (p) => (countOf(p) === 1 ? 2 : 4),
    handle: (ctx) => perSymbol(ctx.params, ctx, (m) => priceJson(m, ctx.book.price(m.id))),
  },
  {
    method: 'GET',
    path: '/api/v3/ticker/bookTicker',
    signed: false,
    weight: (p) => (countOf(p) === 1 ? 2 : 4),
    handle: (ctx) => perSymbol(ctx.params, ctx, (m) => bookTickerJson(m, ctx.book.price(m.id), ctx.book.offer(m.id))),
  },
  {
    method: 'GET',
    path: '/api/v3/klines',
    signed: false,
    weight: () => 2,
    handle: (ctx) => {
      const m = ctx.book.market(need(ctx.params, 'symbol'));
      const intervalMs = INTERVALS[need(ctx.params, 'interval')];
      if (intervalMs === undefined) throw invalidInterval();
      return klines(ctx.book.history.get(m.id)!, tradesOf(ctx.book, m), {
        intervalMs,
        startTime: integer(ctx.params, 'startTime'),
        endTime: integer(ctx.params, 'endTime'),
        limit: limitOf(ctx.params, 500, 1000),
        now: ctx.now,
      });
    },
  },
  {
    method: 'GET',
    path: '/api/v3/account',
    signed: true,
    weight: () => 20,
    handle: (ctx) => {
      const skew = ctx.faults.take('balanceSkew', ctx.method, ctx.path);
      const books = [...ctx.book.balances.entries()];
      const shown: [string, Balance][] = skew
        ? [
            ...books.filter(([asset]) => !(asset in skew.balances)),
            ...Object.entries(skew.balances).map(([asset, b]): [string, Balance] => [asset, { free: dec(b.free), locked: dec(b.locked ?? '0') }]),
          ]
        : books;
      const omitZero = text(ctx.params, 'omitZeroBalances') === 'true';
      return accountJson({
        balances: shown.filter(([, b]) => !omitZero || !b.free.plus(b.locked).isZero()).sort(([a], [b]) => a.localeCompare(b)),
        maker: ctx.book.feeRates.maker,
        taker: ctx.book.feeRates.taker,
        updateTime: ctx.now,
      });
    },
  },
  {
    method: 'POST',
    path: '/api/v3/order',
    signed: true,
    isOrder: true,
    weight: () => 1,
    handle: (ctx) => {
      const { request, responseType } = orderRequest(ctx.params);
      const { order, trades } = ctx.book.place(request);
      return newOrderJson(order, trades, responseType);
    },
  },
  {
    method: 'GET',
    path: '/api/v3/order',
    signed: true,
    weight: () => 4,
    handle: (ctx) => orderJson(existing(ctx)),
  },
  {
    method: 'DELETE',
    path: '/api/v3/order',
    signed: true,
    weight: () => 1,
    handle: (ctx) => {
      const { params, book } = ctx;
      const symbol = need(params, 'symbol');
      const order = book.find(symbol, text(params, 'orderId'), text(params, 'origClientOrderId'));
      if (order && isOpen(order) && ctx.faults.take('fillBeforeCancel', ctx.method, ctx.path)) {
        book.fillNow(order);
        throw unknownOrder();
      }
      const canceled = book.cancel(symbol, text(params, 'orderId'), text(params, 'origClientOrderId'));
      const cancelId = text(params, 'newClientOrderId') ?? `cancel${canceled.orderId}`;
      return canceledJson(canceled, cancelId, ctx.now);
    },
  },
  {
    method: 'GET',
    path: '/api/v3/openOrders',
    signed: true,
    weight: (p) => (text(p, 'symbol') === null ? 80 : 6),
    handle: (ctx) => ctx.book.openOrders(text(ctx.params, 'symbol')).map(orderJson),
  },
  {
    method: 'GET',
    path: '/api/v3/allOrders',
    signed: true,
    weight: () => 20,
    handle: (ctx) => {
      const m = ctx.book.market(need(ctx.params, 'symbol'));
      const start = integer(ctx.params, 'startTime');
      const end = integer(ctx.params, 'endTime');
      const orders = ctx.book.orders.filter((o) => o.symbol === m.id && (start === null || o.time >= start) && (end === null || o.time <= end));
      return window(orders, (o) => o.orderId, integer(ctx.params, 'orderId'), limitOf(ctx.params, 500, 1000)).map(orderJson);
    },
  },
  {
    method: 'GET',
    path: '/api/v3/myTrades',
    signed: true,
    weight: (p) => (text(p, 'orderId') === null ? 20 : 5),
    handle: (ctx) => {
      const m = ctx.book.market(need(ctx.params, 'symbol'));
      const orderId = integer(ctx.params, 'orderId');
      const start = integer(ctx.params, 'startTime');
      const end = integer(ctx.params, 'endTime');
      const trades = tradesOf(ctx.book, m).filter((t) => (orderId === null || t.orderId === orderId) && (start === null || t.time >= start) && (end === null || t.time <= end));
      return window(trades, (t) => t.id, integer(ctx.params, 'fromId'), limitOf(ctx.params, 500, 1000)).map(tradeJson);
    },
  },
];

const tradesOf = (book: Book, m: Market) => book.trades.filter((t) => t.symbol === m.id);

/** The route for a request; a path served with another method is as unknown as any other. */
export const routeFor = (method: string, path: string): Route | undefined => ROUTES.find((r) => r.method === method && r.path === path);
