import type Decimal from 'decimal.js';
import { duplicateOrder, eitherMandatory, insufficientBalance, invalidSymbol, noSuchOrder, unknownOrder, wouldTake } from './errors.ts';
import { checkNotional, checkPrice, checkQuantity, type Market, type MarketSpec, toMarket } from './markets.ts';
import { Dec, dec, floorTo, ZERO } from './numbers.ts';
import { offered, seeded, type VolumeModel } from './volume.ts';

/**
 * The exchange's books: markets and their prices, one account's balances (free and locked per asset),
 * its orders and its trades, and the matching. No HTTP here (server.ts and routes.ts speak Binance's
 * wire format); refusals are thrown as Binance's errors.
 *
 * Matching: the market is one price per symbol, set by the test (`setPrice`). An order that crosses
 * it when placed takes at that price (taker fee); a resting limit order fills at its own limit when a
 * later price reaches it (buy: price <= limit, sell: price >= limit; maker fee). Fees are charged in
 * the asset received, as Binance does without BNB: base on a buy, quote on a sell.
 */

export type Side = 'BUY' | 'SELL';
export type OrderType = 'LIMIT' | 'MARKET' | 'LIMIT_MAKER';
export type TimeInForce = 'GTC' | 'IOC' | 'FOK';
export type OrderStatus = 'NEW' | 'PARTIALLY_FILLED' | 'FILLED' | 'CANCELED' | 'EXPIRED';

export interface Order {
  symbol: string;
  orderId: number;
  clientOrderId: string;
  side: Side;
  type: OrderType;
  /** Binance reports GTC for market and maker-only orders too. */
  timeInForce: TimeInForce;
  /** The limit; zero for a market order. */
  price: Decimal;
  origQty: Decimal;
  origQuoteOrderQty: Decimal;
  executedQty: Decimal;
  cummulativeQuoteQty: Decimal;
  status: OrderStatus;
  time: number;
  updateTime: number;
  /** What the order still holds of the balance: quote for a resting buy, base for a resting sell. */
  locked: Decimal;
  tradeIds: number[];
}

export interface Trade {
  id: number;
  orderId: number;
  symbol: string;
  price: Decimal;
  qty: Decimal;
  quoteQty: Decimal;
  commission: Decimal;
  commissionAsset: string;
  time: number;
  isBuyer: boolean;
  isMaker: boolean;
}

export interface Balance {
  free: Decimal;
  locked: Decimal;
}

export interface PricePoint {
  time: number;
  price: Decimal;
}

export interface BookOptions {
  markets: MarketSpec[];
  /** The first price of each market, by unified symbol ("BTC/USDT") or id ("BTCUSDT"): every market needs one. */
  prices: Record<string, string>;
  /** Free balances to start with, by asset. */
  balances: Record<string, string>;
  /** Fee rates; Binance's 0.1% unless given. */
  fees?: { maker?: string; taker?: string };
  /** Partial fills; off (everything that crosses fills) unless given. */
  volume?: VolumeModel | null;
  seed?: number;
  now: () => number;
}

/** What routes.ts hands over once the parameters are read. */
export interface OrderRequest {
  symbol: string;
  side: Side;
  type: OrderType;
  timeInForce?: TimeInForce;
  quantity?: Decimal;
  quoteOrderQty?: Decimal;
  price?: Decimal;
  /** Generated (seeded) when the client sends none. */
  newClientOrderId?: string;
}

const OPEN: readonly OrderStatus[] = ['NEW', 'PARTIALLY_FILLED'];
/** A client order id that names one of these cannot be used again (an open order, or one that filled). */
const TAKEN: readonly OrderStatus[] = ['NEW', 'PARTIALLY_FILLED', 'FILLED'];

export const isOpen = (o: Order) => OPEN.includes(o.status);

const ID_CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

export class Book {
  readonly markets = new Map<string, Market>();
  readonly balances = new Map<string, Balance>();
  readonly orders: Order[] = [];
  readonly trades: Trade[] = [];
  readonly history = new Map<string, PricePoint[]>();
  feeRates: { maker: Decimal; taker: Decimal };
  volume: VolumeModel | null;
  private readonly budget = new Map<string, Decimal | null>();
  private readonly random: () => number;
  private readonly idRandom: () => number;
  private readonly now: () => number;
  private nextOrderId = 1;
  private nextTradeId = 1;

  constructor(options: BookOptions) {
    this.now = options.now;
    const seed = options.seed ?? 1;
    this.random = seeded(seed);
    this.idRandom = seeded(seed ^ 0x5bd1e995);
    this.feeRates = { maker: dec(options.fees?.maker ?? '0.001'), taker: dec(options.fees?.taker ?? '0.001') };
    this.volume = options.volume ?? null;
    for (const spec of options.markets) {
      const m = toMarket(spec);
      this.markets.set(m.id, m);
    }
    for (const [asset, amount] of Object.entries(options.balances)) this.balances.set(asset, { free: dec(amount), locked: ZERO });
    for (const [symbol, price] of Object.entries(options.prices)) {
      if (!this.markets.has(symbol.replace('/', ''))) throw new Error(`fake-binance: a price for ${symbol}, which is not among the markets`);
      this.setPrice(symbol, price);
    }
    for (const m of this.markets.values()) if (!this.history.has(m.id)) throw new Error(`fake-binance: ${m.symbol} has no price`);
  }

  /** A market by id ("BTCUSDT") or unified symbol ("BTC/USDT"); Binance's -1121 otherwise. */
  market(symbol: string): Market {
    const m = this.markets.get(symbol.replace('/', ''));
    if (!m) throw invalidSymbol();
    return m;
  }

  price(symbol: string): Decimal {
    const points = this.history.get(this.market(symbol).id)!;
    return points[points.length - 1]!.price;
  }

  balance(asset: string): Balance {
    let b = this.balances.get(asset);
    if (!b) {
      b = { free: ZERO, locked: ZERO };
      this.balances.set(asset, b);
    }
    return b;
  }

  /** Credits (or, negative, debits) an asset's free balance: a deposit, a withdrawal. */
  deposit(asset: string, amount: string): void {
    const b = this.balance(asset);
    b.free = b.free.plus(amount);
  }

  /**
   * The price script: the market moves to `price`, offers a fresh volume (with the volume model), and
   * the resting limit orders it reaches fill at their limits (best limit first, then the oldest).
   * Returns the trades made.
   */
  setPrice(symbol: string, price: string): Trade[] {
    const m = this.market(symbol);
    const p = dec(price);
    if (p.lte(0)) throw new Error(`fake-binance: a price must be positive (${symbol} ${price})`);
    const points = this.history.get(m.id) ?? [];
    points.push({ time: this.now(), price: p });
    this.history.set(m.id, points);
    this.budget.set(m.id, offered(this.volume, this.random, m.stepSize));
    const crossing = this.orders
      .filter((o) => o.symbol === m.id && isOpen(o) && (o.side === 'BUY' ? p.lte(o.price) : p.gte(o.price)))
      .sort((a, b) => (a.side !== b.side || a.price.eq(b.price) ? a.orderId - b.orderId : a.side === 'BUY' ? b.price.comparedTo(a.price) : a.price.comparedTo(b.price)));
    const made: Trade[] = [];
    for (const o of crossing) {
      const qty = this.take(m.id, o.origQty.minus(o.executedQty));
      if (qty.gt(0)) made.push(this.fill(o, qty, o.price, true));
    }
    return made;
  }

  /** At most `wanted` of what the market offers right now; the offer shrinks by what is taken. */
  private take(symbolId: string, wanted: Decimal): Decimal {
    const left = this.budget.get(symbolId) ?? null;
    if (left === null) return wanted;
    const qty = Dec.min(wanted, left);
    this.budget.set(symbolId, left.minus(qty));
    return qty;
  }

  private available(symbolId: string): Decimal | null {
    return this.budget.get(symbolId) ?? null;
  }

  /** What the market offers at its price now (the tickers' bid and ask sizes): a nominal 1000 without the volume model. */
  offer(symbol: string): Decimal {
    return this.available(this.market(symbol).id) ?? dec(1000);
  }

  private clientId(): string {
    let id = '';
    for (let i = 0; i < 22; i++) id += ID_CHARS[Math.floor(this.idRandom() * ID_CHARS.length)];
    return id;
  }

  /** A new order: checked as Binance checks it (filters, duplicate client id, balance), then matched. */
  place(request: OrderRequest): { order: Order; trades: Trade[] } {
    const m = this.market(request.symbol);
    const clientOrderId = request.newClientOrderId ?? this.clientId();
    if (this.orders.some((o) => o.clientOrderId === clientOrderId && TAKEN.includes(o.status))) throw duplicateOrder();
    const market = this.price(m.id);
    const buy = request.side === 'BUY';
    const base = this.balance(m.base);
    const quote = this.balance(m.quote);
    const time = this.now();
    const order: Order = {
      symbol: m.id,
      orderId: 0,
      clientOrderId,
      side: request.side,
      type: request.type,
      timeInForce: request.timeInForce ?? 'GTC',
      price: ZERO,
      origQty: ZERO,
      origQuoteOrderQty: ZERO,
      executedQty: ZERO,
      cummulativeQuoteQty: ZERO,
      status: 'NEW',
      time,
      updateTime: time,
      locked: ZERO,
      tradeIds: [],
    };

    if (request.type === 'MARKET') {
      let qty: Decimal;
      if (request.quoteOrderQty) {
        order.origQuoteOrderQty = request.quoteOrderQty;
        checkNotional(m, request.quoteOrderQty);
        qty = floorTo(request.quoteOrderQty.div(market), m.stepSize);
        checkQuantity(m, qty, true);
      } else {
        qty = request.quantity!;
        checkQuantity(m, qty, true);
        checkNotional(m, qty.mul(market));
      }
      order.origQty = qty;
      if (buy ? quote.free.lt(qty.mul(market)) : base.free.lt(qty)) throw insufficientBalance();
      this.register(order);
      return { order, trades: [this.fill(order, qty, market, false)] };
    }

    const limit = request.price!;
    const qty = request.quantity!;
    checkPrice(m, limit);
    checkQuantity(m, qty, false);
    checkNotional(m, qty.mul(limit));
    order.price = limit;
    order.origQty = qty;
    const crosses = buy ? limit.gte(market) : limit.lte(market);
    if (request.type === 'LIMIT_MAKER' && crosses) throw wouldTake();
    const lock = buy ? qty.mul(limit) : qty;
    if ((buy ? quote : base).free.lt(lock)) throw insufficientBalance();

    const tif = order.timeInForce;
    const offer = this.available(m.id);
    const fillable = !crosses ? ZERO : offer === null ? qty : Dec.min(qty, offer);
    if (tif !== 'GTC' && (fillable.isZero() || (tif === 'FOK' && fillable.lt(qty)))) {
      // Nothing to take at once, or not all of it for fill-or-kill: the order expires untouched.
      order.status = 'EXPIRED';
      this.register(order);
      return { order, trades: [] };
    }
    this.register(order);
    this.lock(order, buy ? quote : base, lock);
    const trades: Trade[] = [];
    if (fillable.gt(0)) trades.push(this.fill(order, this.take(m.id, fillable), market, false));
    if (isOpen(order) && tif === 'IOC') this.end(order, 'EXPIRED');
    return { order, trades };
  }

  private register(order: Order): void {
    order.orderId = this.nextOrderId++;
    this.orders.push(order);
  }

  private lock(order: Order, b: Balance, amount: Decimal): void {
    b.free = b.free.minus(amount);
    b.locked = b.locked.plus(amount);
    order.locked = amount;
  }

  /** One trade of `order`: `qty` at `price`, the fee in the asset received, balances moved. */
  private fill(order: Order, qty: Decimal, price: Decimal, isMaker: boolean): Trade {
    const m = this.market(order.symbol);
    const base = this.balance(m.base);
    const quote = this.balance(m.quote);
    const rate = isMaker ? this.feeRates.maker : this.feeRates.taker;
    const quoteQty = qty.mul(price);
    const buy = order.side === 'BUY';
    const commission = (buy ? qty : quoteQty).mul(rate).toDecimalPlaces(8, Dec.ROUND_HALF_UP);
    if (buy) {
      // A resting buy pays from its lock (at its limit; what a better price saves goes back to free).
      const fromLock = order.locked.gt(0) ? Dec.min(order.locked, qty.mul(order.price)) : ZERO;
      quote.locked = quote.locked.minus(fromLock);
      quote.free = quote.free.plus(fromLock).minus(quoteQty);
      order.locked = order.locked.minus(fromLock);
      base.free = base.free.plus(qty).minus(commission);
    } else {
      const fromLock = Dec.min(order.locked, qty);
      base.locked = base.locked.minus(fromLock);
      base.free = base.free.plus(fromLock).minus(qty);
      order.locked = order.locked.minus(fromLock);
      quote.free = quote.free.plus(quoteQty).minus(commission);
    }
    const trade: Trade = {
      id: this.nextTradeId++,
      orderId: order.orderId,
      symbol: order.symbol,
      price,
      qty,
      quoteQty,
      commission,
      commissionAsset: buy ? m.base : m.quote,
      time: this.now(),
      isBuyer: buy,
      isMaker,
    };
    this.trades.push(trade);
    order.tradeIds.push(trade.id);
    order.executedQty = order.executedQty.plus(qty);
    order.cummulativeQuoteQty = order.cummulativeQuoteQty.plus(quoteQty);
    order.updateTime = trade.time;
    if (order.executedQty.gte(order.origQty)) this.end(order, 'FILLED');
    else order.status = 'PARTIALLY_FILLED';
    return trade;
  }

  /** The order leaves the book: what it still held goes back to free. */
  private end(order: Order, status: OrderStatus): void {
    const m = this.market(order.symbol);
    const b = this.balance(order.side === 'BUY' ? m.quote : m.base);
    b.locked = b.locked.minus(order.locked);
    b.free = b.free.plus(order.locked);
    order.locked = ZERO;
    order.status = status;
    order.updateTime = this.now();
  }

  /** An order by id or client id (the latest with that client id) on a symbol; `undefined` if none. */
  find(symbol: string, orderId: string | null, clientOrderId: string | null): Order | undefined {
    const m = this.market(symbol);
    if (orderId === null && clientOrderId === null) throw eitherMandatory('orderId', 'origClientOrderId');
    const matches = this.orders.filter((o) => o.symbol === m.id && (orderId !== null ? String(o.orderId) === orderId : o.clientOrderId === clientOrderId));
    return matches[matches.length - 1];
  }

  /** GET /api/v3/order: -2013 when there is no such order. */
  query(symbol: string, orderId: string | null, clientOrderId: string | null): Order {
    const o = this.find(symbol, orderId, clientOrderId);
    if (!o) throw noSuchOrder();
    return o;
  }

  /** DELETE /api/v3/order: -2011 when the order is unknown or no longer open (filled, canceled, expired). */
  cancel(symbol: string, orderId: string | null, clientOrderId: string | null): Order {
    const o = this.find(symbol, orderId, clientOrderId);
    if (!o || !isOpen(o)) throw unknownOrder();
    this.end(o, 'CANCELED');
    return o;
  }

  /** Fills what is left of an open limit order at its limit now, whatever the price and the volume (a fill that wins a race). */
  fillNow(order: Order): Trade | null {
    if (!isOpen(order) || order.type === 'MARKET') return null;
    return this.fill(order, order.origQty.minus(order.executedQty), order.price, true);
  }

  openOrders(symbol: string | null): Order[] {
    const id = symbol === null ? null : this.market(symbol).id;
    return this.orders.filter((o) => isOpen(o) && (id === null || o.symbol === id));
  }
}
