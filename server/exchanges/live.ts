import type Decimal from 'decimal.js';
import {
  AccountSuspended,
  AuthenticationError,
  ExchangeError,
  InsufficientFunds,
  PermissionDenied,
  InvalidOrder,
  NetworkError,
  OrderImmediatelyFillable,
  OrderNotFound,
  type Exchange,
  type Order,
} from 'ccxt';
import { money } from '../../strategy/money.ts';
import { dec } from '../market/exchange-number.ts';
import type { ClientOrderId } from '../../strategy/types.ts';
import {
  API_KEY_REFUSED,
  type ExchangePort,
  type LimitOrderRequest,
  type MarketInfo,
  type MarketOrderRequest,
  type OrderState,
  type OrderStatus,
  type OrderTrade,
  type RestingOrderPort,
  WOULD_CROSS,
} from './port.ts';

/**
 * A live exchange through ccxt, behind the same port as Paper. What the recorded
 * exchange answers (server/exchanges/fixtures/ccxt) show, and this adapter handles:
 * - createOrder answers often carry no status, amount or fill (bybit, bitget, okx): an order that is
 *   not plainly final is confirmed with fetchOrder before the engine hears about it;
 * - numbers arrive as numbers, strings or exponent strings: everything becomes an exact Decimal via
 *   its string form, never through float arithmetic;
 * - fees come in the base coin (okx, bitget, bybit buys), as strings, negative (okx, bitget raw), or
 *   only in `fees`: they are summed by currency as absolute values;
 * - market buys are sized by cost (quote) with createMarketBuyOrderWithCost, which all six support;
 * - htx's "partial-canceled" market buy is `canceled` with a fill: kept as a fill (the runner takes a
 *   canceled order with a fill as filled).
 * Errors: a network failure or timeout is rethrown (the outcome is unknown: the engine looks the order
 * up by its client order id later); an exchange's refusal (funds, size, symbol, keys) is a `rejected`
 * order with the exchange's reason, which pauses the bot.
 */

/** What the adapter needs of a ccxt exchange instance (tests pass one whose `fetch` replays recordings). */
export type CcxtExchange = Pick<
  Exchange,
  | 'id'
  | 'has'
  | 'nonce'
  | 'loadMarkets'
  | 'market'
  | 'createOrder'
  | 'createMarketBuyOrderWithCost'
  | 'cancelOrder'
  | 'fetchOrder'
  | 'fetchMyTrades'
  | 'fetchOpenOrders'
  | 'fetchClosedOrders'
  | 'fetchBalance'
  | 'amountToPrecision'
  | 'costToPrecision'
  | 'priceToPrecision'
  | 'precisionMode'
>;

const decOr0 = (value: unknown) => dec(value) ?? money(0);

/** ccxt precision modes: 2 = decimal places, 4 = tick size (all six exchanges today). */
const DECIMAL_PLACES = 2;

/**
 * The exchange's client order id for one of ours: deterministic (a retry finds the same order),
 * unique per installation (`salt`), and valid where each exchange is strict: okx takes letters and
 * digits only (at most 32), gate wants a "t-" prefix and at most 28 characters after it, binance and
 * bybit at most 36. Our ids are `bot-cycle-seq` (digits and dashes): "12-3-4" -> "qba1b2c3cz3z4".
 */
export function exchangeClientId(exchange: string, id: ClientOrderId | string, salt: string): string {
  // Each number in base 35 (0-9, a-y), "z" between them: letters and digits only, and short.
  const packed = id
    .split('-')
    .map((n) => BigInt(n).toString(35))
    .join('z');
  const short = `${salt.replace(/[^A-Za-z0-9]/g, '').slice(0, 6)}${packed}`;
  const body = short.length <= 26 ? `qb${short}` : short;
  if (body.length > 28) throw new Error(`client order id too long for ${exchange}: ${body}`);
  return exchange === 'gate' ? `t-${body}` : body;
}

/**
 * One of our client order ids from the exchange's (exchangeClientId's inverse), or null when the order is
 * not ours: another program's, or another installation's on the same account (`salt`).
 */
export function ourClientOrderId(exchange: string, clientId: string | undefined, salt: string): ClientOrderId | null {
  if (!clientId) return null;
  const body = exchange === 'gate' ? clientId.replace(/^t-/, '') : clientId;
  const prefix = salt.replace(/[^A-Za-z0-9]/g, '').slice(0, 6);
  for (const start of [`qb${prefix}`, prefix]) {
    if (!body.startsWith(start)) continue;
    const parts = body.slice(start.length).split('z');
    if (parts.some((p) => !/^[0-9a-y]+$/.test(p))) continue;
    const id = parts.map((p) => [...p].reduce((n, c) => n * 35n + BigInt(Number.parseInt(c, 35)), 0n).toString()).join('-');
    // Only an id that encodes back to the same text is ours (a prefix shared by chance is not).
    if (exchangeClientId(exchange, id, salt) === clientId) return id as ClientOrderId;
  }
  return null;
}

/** How each exchange looks an order up by its client order id (ccxt maps the unified param on most). */
function byClientId(exchange: string, clientId: string): { id: string | undefined; params: Record<string, unknown> } {
  switch (exchange) {
    case 'okx':
      return { id: undefined, params: { clOrdId: clientId } };
    case 'bybit':
      return { id: undefined, params: { orderLinkId: clientId, acknowledged: true } };
    case 'gate':
      return { id: clientId, params: {} }; // gate accepts the "t-" text where the order id goes
    case 'bitget':
      return { id: undefined, params: { clientOid: clientId } };
    default:
      return { id: undefined, params: { clientOrderId: clientId } }; // binance, htx
  }
}

function statusOf(order: Pick<Order, 'status'>): OrderStatus {
  switch (order.status) {
    case 'closed':
      return 'closed';
    case 'canceled':
    case 'cancelled' as never:
    case 'expired':
      return 'canceled';
    case 'rejected':
      return 'rejected';
    default:
      return 'open'; // 'open', or nothing at all (an acknowledgement)
  }
}

/** The fee of an order: every fee entry (or the single `fee`), absolute values, summed per currency; the largest wins. */
export function feeOf(order: Pick<Order, 'fee'> & { fees?: Order['fee'][] }): OrderState['fee'] {
  const entries = order.fees && order.fees.length > 0 ? order.fees : order.fee ? [order.fee] : [];
  const sums = new Map<string, Decimal>();
  for (const f of entries) {
    const amount = dec(f?.cost);
    if (!f?.currency || amount === null) continue;
    sums.set(f.currency, (sums.get(f.currency) ?? money(0)).plus(amount.abs()));
  }
  let best: OrderState['fee'] = null;
  for (const [currency, amount] of sums) if (!best || amount.gt(best.amount)) best = { currency, amount };
  return best;
}

/** A ccxt order as the engine's order state. */
export function toOrderState(order: Order, clientOrderId: ClientOrderId, symbol: string, side: OrderState['side']): OrderState {
  const status = statusOf(order);
  let filled = dec(order.filled);
  if (filled === null && status === 'closed') filled = dec(order.amount);
  filled ??= money(0);
  const average = dec(order.average);
  let cost = dec(order.cost);
  if ((cost === null || cost.isZero()) && average && filled.gt(0)) cost = filled.mul(average);
  cost ??= money(0);
  const price = filled.gt(0) ? (average ?? (cost.gt(0) ? cost.div(filled) : dec(order.price))) : null;
  const actualSide = (order.side as OrderState['side']) ?? side;
  return {
    clientOrderId,
    symbol,
    side: actualSide,
    status,
    price,
    filled,
    cost,
    fee: feeOf(order) ?? rawFee(order, actualSide, symbol),
    ...(typeof order.timestamp === 'number' && order.timestamp > 0 ? { at: order.timestamp } : {}),
    ...(filled.gt(0) && typeof order.lastTradeTimestamp === 'number' && order.lastTradeTimestamp > 0 ? { filledAt: order.lastTradeTimestamp } : {}),
  };
}

/**
 * The fee from the exchange's own answer where ccxt leaves it out: bybit's `cumExecFee` (today's ccxt
 * drops it on spot orders), charged in the coin received: the base on a buy, the quote on a sell.
 */
function rawFee(order: Order, side: OrderState['side'], symbol: string): OrderState['fee'] {
  const amount = dec((order.info as Record<string, unknown> | undefined)?.cumExecFee);
  if (!amount || amount.isZero()) return null;
  const [base, quote] = symbol.split('/') as [string, string];
  return { currency: side === 'buy' ? base : quote, amount: amount.abs() };
}

const rejected = (request: Pick<MarketOrderRequest, 'clientOrderId' | 'symbol' | 'side'>, reason: string): OrderState => ({
  clientOrderId: request.clientOrderId,
  symbol: request.symbol,
  side: request.side,
  status: 'rejected',
  price: null,
  filled: money(0),
  cost: money(0),
  fee: null,
  reason: reason.slice(0, 200),
});

/** Whether ccxt's answer says all there is to say about a market order. */
const final = (o: Order) => (o.status === 'closed' || o.status === 'canceled' || o.status === 'expired' || o.status === 'rejected') && dec(o.filled) !== null;

export interface LiveExchangeOptions {
  /** Unique per installation: keeps our client order ids apart from another install's on the same account. */
  salt: string;
  /** Waits between confirmations of an order the exchange has not reported final yet. */
  confirmDelaysMs?: readonly number[];
  /**
   * The receive window its order requests are signed with (ExchangePort.orderWindowMs), on an exchange that
   * checks one (Binance); absent: none is used, and an order not found is lost.
   */
  orderWindowMs?: number;
}

/** Exchanges that refuse a signed request once its receive window has passed, at the matching engine too. */
const RECEIVE_WINDOW_EXCHANGES = new Set(['binance']);

/**
 * Binance's refusals of the key itself, whatever class ccxt gives them: after a first signed call has
 * succeeded, ccxt raises its -2015 ("Invalid API-key, IP, or permissions") as DDoSProtection, a network
 * error, taking it for a temporary ban. The request was refused either way: no order was placed, and the
 * trader must look at the key (revoked, its IP list, a ban).
 */
const KEY_REFUSED_BODY = /"code":\s*-(2014|2015|1022)\b/;

/** An exchange's refusal as a rejected order (the key refused: said so), or null when the outcome is unknown or the error is not a refusal. */
function refusalOf(request: Pick<MarketOrderRequest, 'clientOrderId' | 'symbol' | 'side'>, error: unknown): OrderState | null {
  if (error instanceof Error && KEY_REFUSED_BODY.test(error.message)) return rejected(request, `${API_KEY_REFUSED}${error.message}`);
  if (error instanceof NetworkError) return null; // unknown outcome: looked up by id later
  // The key itself was refused: the bot pauses and the trader is told to check or rebind the key.
  if (error instanceof AuthenticationError || error instanceof PermissionDenied || error instanceof AccountSuspended) {
    return rejected(request, `${API_KEY_REFUSED}${error.message}`);
  }
  if (error instanceof InsufficientFunds || error instanceof InvalidOrder || error instanceof ExchangeError) return rejected(request, error.message);
  return null;
}

export class LiveExchange implements ExchangePort, RestingOrderPort {
  private readonly ex: CcxtExchange;
  private readonly options: LiveExchangeOptions;
  private readonly confirmDelays: readonly number[];
  private marketsLoaded: Promise<unknown> | null = null;
  private loadFailed = false;
  readonly orderWindowMs: number | undefined;

  constructor(ex: CcxtExchange, options: LiveExchangeOptions) {
    this.ex = ex;
    this.options = options;
    this.confirmDelays = options.confirmDelaysMs ?? [200, 500, 1000, 2000];
    this.orderWindowMs = options.orderWindowMs !== undefined && RECEIVE_WINDOW_EXCHANGES.has(ex.id) ? options.orderWindowMs : undefined;
  }

  private async markets(): Promise<void> {
    // ccxt keeps a failed first load's rejected promise and hands it back to every later loadMarkets():
    // after a failure the next call asks for a reload (loadMarkets(true)), which sends the request again.
    this.marketsLoaded ??= this.ex.loadMarkets(this.loadFailed).catch((error: unknown) => {
      this.marketsLoaded = null;
      this.loadFailed = true;
      throw error;
    });
    await this.marketsLoaded;
    this.loadFailed = false;
  }

  async market(symbol: string): Promise<MarketInfo> {
    await this.markets();
    const m = this.ex.market(symbol);
    const step = (p: unknown) => {
      const v = dec(p);
      if (v === null) return null;
      return this.ex.precisionMode === DECIMAL_PLACES ? money(1).div(money(10).pow(v)) : v;
    };
    const stepSize = step(m.precision?.amount) ?? money('0.00000001');
    return {
      symbol,
      base: m.base,
      quote: m.quote,
      tickSize: step(m.precision?.price) ?? money('0.00000001'),
      stepSize,
      minAmount: dec(m.limits?.amount?.min) ?? stepSize,
      minCost: dec(m.limits?.cost?.min) ?? money(5),
      feeRate: dec(m.taker) ?? money('0.001'),
      // The maker's, when the exchange's market says it (a resting order's fill); else the taker's.
      ...(dec(m.maker) ? { makerFeeRate: dec(m.maker)! } : {}),
    };
  }

  /**
   * An order request signed as of notAfter - window on the exchange's clock (ccxt's nonce is ours less the
   * difference it measured): however late it leaves or arrives, the exchange refuses it after notAfter.
   */
  private windowParams(notAfter: number | undefined): Record<string, unknown> {
    const window = this.orderWindowMs;
    if (window === undefined || notAfter === undefined) return {};
    return { recvWindow: window, timestamp: notAfter - window - (Date.now() - this.ex.nonce()) };
  }

  clientId(id: ClientOrderId | string): string {
    return exchangeClientId(this.ex.id, id, this.options.salt);
  }

  async placeMarketOrder(request: MarketOrderRequest): Promise<OrderState> {
    await this.markets();
    const params: Record<string, unknown> = { clientOrderId: this.clientId(request.clientOrderId), ...this.windowParams(request.notAfter) };
    let order: Order;
    try {
      if (request.side === 'buy') {
        if (!request.quote) throw new Error('a market buy needs its cost (quote)');
        const cost = Number(this.ex.costToPrecision(request.symbol, request.quote.toFixed()));
        order = await this.ex.createMarketBuyOrderWithCost(request.symbol, cost, params);
      } else {
        if (!request.amount) throw new Error('a market sell needs its amount');
        const amount = Number(this.ex.amountToPrecision(request.symbol, request.amount.toFixed()));
        order = await this.ex.createOrder(request.symbol, 'market', 'sell', amount, undefined, params);
      }
    } catch (error) {
      const refused = refusalOf(request, error);
      if (refused) return refused;
      throw error;
    }
    if (final(order)) return toOrderState(order, request.clientOrderId, request.symbol, request.side);
    // An acknowledgement (or an order not reported final yet): ask for it until it is final.
    let state = toOrderState(order, request.clientOrderId, request.symbol, request.side);
    for (const delay of this.confirmDelays) {
      if (delay > 0) await new Promise((r) => setTimeout(r, delay));
      try {
        const seen = await this.ex.fetchOrder(order.id as string, request.symbol, this.ex.id === 'bybit' ? { acknowledged: true } : {});
        state = toOrderState(seen, request.clientOrderId, request.symbol, request.side);
        if (final(seen)) break;
      } catch (error) {
        if (!(error instanceof NetworkError) && !(error instanceof OrderNotFound)) throw error;
        // not visible yet, or the network blinked: try again; the engine's lookup covers the rest
      }
    }
    return state;
  }

  async fetchOrder(clientOrderId: ClientOrderId, symbol: string): Promise<OrderState | null> {
    await this.markets();
    const clientId = this.clientId(clientOrderId);
    const side = (o: Order) => (o.side as OrderState['side']) ?? 'buy';
    const lookup = byClientId(this.ex.id, clientId);
    try {
      const order = await this.ex.fetchOrder(lookup.id as string, symbol, lookup.params);
      if (order?.id) return this.withTradeFees(toOrderState(order, clientOrderId, symbol, side(order)), order.id, symbol);
    } catch (error) {
      if (error instanceof NetworkError) throw error;
      if (!(error instanceof OrderNotFound) && !(error instanceof ExchangeError)) throw error;
    }
    // Some exchanges only find a client id for a while (gate: 30 minutes): search the recent orders too.
    const recent: Order[] = [];
    if (this.ex.has.fetchOpenOrders) recent.push(...(await this.ex.fetchOpenOrders(symbol)));
    if (this.ex.has.fetchClosedOrders) recent.push(...(await this.ex.fetchClosedOrders(symbol, Date.now() - 7 * 86_400_000, 100)));
    const found = recent.find((o) => o.clientOrderId === clientId);
    return found ? this.withTradeFees(toOrderState(found, clientOrderId, symbol, side(found)), String(found.id), symbol) : null;
  }

  /**
   * An order found by a lookup with a fill but no fee (Binance's order query carries no fills): the fee
   * from its trades, summed as an order's fees are. Without it, a timed-out buy would be booked with the
   * coin its fee took, and the bot's later sale would ask for more than the account holds.
   */
  private async withTradeFees(state: OrderState, orderId: string, symbol: string): Promise<OrderState> {
    if (state.fee || state.filled.lte(0) || !this.ex.has.fetchMyTrades) return state;
    const trades = await this.ex.fetchMyTrades(symbol, undefined, undefined, { orderId });
    const fees = trades.filter((t) => t.order === orderId).flatMap((t) => (t.fee ? [t.fee] : []));
    return { ...state, fee: feeOf({ fee: undefined as never, fees }) };
  }

  /**
   * A limit order under our client order id (post-only and IOC/FOK as the exchange's unified params): its
   * state as the exchange answered (open while it rests). A refusal is a rejected order; a network failure
   * is thrown (the outcome is unknown: it is looked up by its id, never sent again).
   */
  async placeLimitOrder(request: LimitOrderRequest): Promise<OrderState> {
    await this.markets();
    const params: Record<string, unknown> = { clientOrderId: this.clientId(request.clientOrderId), ...this.windowParams(request.notAfter) };
    if (request.postOnly) params.postOnly = true;
    if (request.timeInForce && request.timeInForce !== 'GTC') params.timeInForce = request.timeInForce;
    let order: Order;
    try {
      const amount = Number(this.ex.amountToPrecision(request.symbol, request.amount.toFixed()));
      const price = Number(this.ex.priceToPrecision(request.symbol, request.price.toFixed()));
      order = await this.ex.createOrder(request.symbol, 'limit', request.side, amount, price, params);
    } catch (error) {
      // A post-only order the price has already passed: said in the port's words, whatever the exchange's.
      if (error instanceof OrderImmediatelyFillable) return rejected(request, WOULD_CROSS);
      const refused = refusalOf(request, error);
      if (refused) return refused;
      throw error;
    }
    return { ...toOrderState(order, request.clientOrderId, request.symbol, request.side), limit: { price: request.price, amount: request.amount } };
  }

  /**
   * Cancels by our client order id and answers the order as it ended: canceled, or closed when it filled
   * before the cancel reached it (the exchange refuses to cancel an order it no longer has open: the
   * order is read back, and its fill counts). Null when the exchange knows no such order.
   */
  async cancelOrder(clientOrderId: ClientOrderId, symbol: string): Promise<OrderState | null> {
    await this.markets();
    const lookup = byClientId(this.ex.id, this.clientId(clientOrderId));
    try {
      await this.ex.cancelOrder(lookup.id as string, symbol, lookup.params);
    } catch (error) {
      if (error instanceof NetworkError) throw error;
      if (!(error instanceof OrderNotFound) && !(error instanceof InvalidOrder)) throw error;
    }
    return this.fetchOrder(clientOrderId, symbol);
  }

  /** The account's open orders that are ours (by client order id), of one pair or all. */
  async fetchOpenOrders(symbol?: string): Promise<OrderState[]> {
    await this.markets();
    const orders = await this.ex.fetchOpenOrders(symbol);
    const ours: OrderState[] = [];
    for (const o of orders) {
      const id = ourClientOrderId(this.ex.id, o.clientOrderId, this.options.salt);
      if (id) ours.push(toOrderState(o, id, o.symbol ?? symbol ?? '', (o.side as OrderState['side']) ?? 'buy'));
    }
    return ours;
  }

  /** An order's fills, each with the exchange's trade id, oldest first. */
  async fetchOrderTrades(clientOrderId: ClientOrderId, symbol: string): Promise<OrderTrade[]> {
    await this.markets();
    const lookup = byClientId(this.ex.id, this.clientId(clientOrderId));
    const order = await this.ex.fetchOrder(lookup.id as string, symbol, lookup.params);
    const trades = await this.ex.fetchMyTrades(symbol, undefined, undefined, { orderId: order.id });
    return trades
      .filter((t) => t.order === order.id)
      .map((t) => {
        const price = dec(t.price) ?? money(0);
        const amount = dec(t.amount) ?? money(0);
        const fee = feeOf(t as unknown as Pick<Order, 'fee'> & { fees?: Order['fee'][] });
        return {
          id: String(t.id),
          clientOrderId,
          symbol,
          side: (t.side as OrderTrade['side']) ?? 'buy',
          price,
          amount,
          cost: dec(t.cost) ?? amount.mul(price),
          fee,
          maker: t.takerOrMaker === 'maker',
          at: t.timestamp ?? 0,
        };
      })
      .sort((a, b) => a.at - b.at);
  }

  async balance(currency: string): Promise<Decimal> {
    const balances = await this.ex.fetchBalance();
    return decOr0((balances.free as unknown as Record<string, unknown> | undefined)?.[currency]);
  }

  /** Every currency the account holds (free and total), largest first by currency code. */
  async balances(): Promise<{ currency: string; free: string; total: string }[]> {
    const b = await this.ex.fetchBalance();
    const free = (b.free ?? {}) as unknown as Record<string, unknown>;
    const total = (b.total ?? {}) as unknown as Record<string, unknown>;
    return Object.keys(total)
      .map((currency) => ({ currency, free: decOr0(free[currency]).toFixed(), total: decOr0(total[currency]).toFixed() }))
      .filter((x) => x.total !== '0')
      .sort((x, y) => x.currency.localeCompare(y.currency));
  }
}

export interface LiveCredentials {
  apiKey: string;
  secretKey: string;
  passphrase?: string | undefined;
}

/**
 * What an exchange's ccxt class loads that a spot engine never reads: binance's loadMarkets with keys
 * also asks its currencies (sapi), its margin pairs (sapi) and its futures markets (fapi, dapi); any one
 * of them failing (a region that blocks futures) failed the whole load. Only the spot markets are loaded.
 */
const spotOnlyLoad: Record<string, Record<string, unknown>> = {
  binance: { fetchCurrencies: false, fetchMarkets: { types: ['spot'] }, fetchMargins: false },
};

/**
 * A ccxt instance for an exchange: with keys for trading, without for public market data. `apiBase`
 * (the operator's EXCHANGE_URLS): every api section at that origin instead, each keeping its path, for a
 * local stand-in of the exchange (server/testing/fake-binance/ in tests and demos).
 */
export async function ccxtInstance(exchange: string, credentials?: LiveCredentials, apiBase?: string): Promise<Exchange> {
  const ccxt = (await import('ccxt')) as unknown as Record<string, new (options: object) => Exchange>;
  const Exchange = ccxt[exchange];
  if (!Exchange) throw new Error(`ccxt has no exchange "${exchange}"`);
  const ex = new Exchange({
    enableRateLimit: true,
    timeout: 10_000,
    options: { defaultType: 'spot', ...(spotOnlyLoad[exchange] ?? {}) },
    ...(credentials ? { apiKey: credentials.apiKey, secret: credentials.secretKey, password: credentials.passphrase } : {}),
  });
  if (apiBase) pointApiAt(ex, apiBase);
  return ex;
}

/** Every api section of a ccxt instance at `base` ("http://127.0.0.1:9300"), keeping each section's path. */
export function pointApiAt(ex: Pick<Exchange, 'urls'>, base: string): void {
  const api = ex.urls.api as unknown as Record<string, unknown>;
  for (const [section, value] of Object.entries(api)) if (typeof value === 'string') api[section] = `${base}${new URL(value).pathname}`;
}
