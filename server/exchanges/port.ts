import type Decimal from 'decimal.js';
import type { ClientOrderId, Side } from '../../strategy/types.ts';

/** A market's trading rules, as the engine needs them (from ccxt's market info, or the simulator's). */
export interface MarketInfo {
  symbol: string;
  base: string;
  quote: string;
  tickSize: Decimal;
  stepSize: Decimal;
  minAmount: Decimal;
  minCost: Decimal;
  /** Taker fee rate (market orders, and a limit order that crosses at once). */
  feeRate: Decimal;
  /** Maker fee rate (a limit order filled while it rested); absent: the taker rate. */
  makerFeeRate?: Decimal;
}

/** A market order: a buy spends `quote` (sized by cost), a sell sells `amount` of base. */
export interface MarketOrderRequest {
  clientOrderId: ClientOrderId;
  symbol: string;
  side: Side;
  quote?: Decimal;
  amount?: Decimal;
  /**
   * The lease it is sent under (a worker of the cluster). Paper refuses the order (LeaseLost) unless it
   * is still the bot's lease, in the order's own transaction (paper-venue.ts), and its test audit
   * records it (server/testing/venue-audit.ts); live exchanges ignore it.
   */
  sender?: { worker: string; epoch: string };
  /**
   * The trigger price the order rests at (strategy PlaceOrder.at): Paper fills it there, never at a
   * better price than the market's (paper-fill.ts); live exchanges get a market order and ignore it.
   */
  at?: Decimal;
  /** The moment (ms, this machine's clock) after which the venue must refuse the request (orderWindowMs). */
  notAfter?: number;
}

export type OrderStatus = 'open' | 'closed' | 'canceled' | 'rejected';

export interface OrderState {
  clientOrderId: ClientOrderId;
  symbol: string;
  side: Side;
  /** open: resting (a limit order) or not final yet; closed: filled; canceled: cancelled or expired (it may hold a part filled). */
  status: OrderStatus;
  /** A limit order's price and amount (base), as placed. */
  limit?: { price: Decimal; amount: Decimal };
  /** When the venue took it (ms), where it says. */
  at?: number;
  /** When it last filled (ms), where the venue says: fills found together are taken in the order they happened. */
  filledAt?: number;
  /** Average fill price (null until filled). */
  price: Decimal | null;
  /** Base filled. */
  filled: Decimal;
  /** Quote spent or received, before fees. */
  cost: Decimal;
  fee: { currency: string; amount: Decimal } | null;
  reason?: string;
}

/** How a rejected order's reason starts when the exchange refused the API key itself (bad, expired, no trade right). */
export { API_KEY_REFUSED } from '../../contract/refusals.ts';

/**
 * The exchange port: what the engine needs from any venue. Placing is idempotent by client order id
 * (a retry after a crash or a timeout returns the first order, never a second one); `fetchOrder` by
 * client order id is how an unknown outcome is resolved.
 */
export interface ExchangePort {
  /**
   * Its lookup by client order id is exact: an order it does not find never reached it (Paper, whose
   * lookup reads the books it places in, in one transaction). A live exchange's lookup may miss an order
   * it holds (a lag after the send, a window of client ids): there, an order sent once is never sent
   * again, only looked up (server/engine/lost-orders.ts).
   */
  readonly exactLookup?: boolean;
  /**
   * A live venue that refuses an order request once this long has passed since it was signed (Binance's
   * recvWindow, checked again by its matching engine): an order sent with `notAfter` and not found after
   * that moment never reached it and never can, and may be sent again (server/engine/lost-orders.ts).
   * Absent: no such bound, an order that is not found is lost.
   */
  readonly orderWindowMs?: number;
  market(symbol: string): Promise<MarketInfo>;
  placeMarketOrder(request: MarketOrderRequest): Promise<OrderState>;
  fetchOrder(clientOrderId: ClientOrderId, symbol: string): Promise<OrderState | null>;
  balance(currency: string): Promise<Decimal>;
}

/**
 * A limit order: it fills at `price` or better. GTC rests until filled or cancelled; IOC fills what it
 * can at once and cancels the rest; FOK fills all at once or nothing. `postOnly` (a maker order) is
 * refused when it would fill at once.
 */
export interface LimitOrderRequest {
  clientOrderId: ClientOrderId;
  symbol: string;
  side: Side;
  price: Decimal;
  /** Base to buy or sell. */
  amount: Decimal;
  postOnly?: boolean;
  timeInForce?: 'GTC' | 'IOC' | 'FOK';
  /** The lease it is sent under (MarketOrderRequest.sender). */
  sender?: { worker: string; epoch: string };
  /** The moment after which the venue must refuse the request (MarketOrderRequest.notAfter). */
  notAfter?: number;
}

/** One fill of an order as the venue reports it: its own trade id, so the same fill seen twice is one. */
export interface OrderTrade {
  id: string;
  clientOrderId: ClientOrderId;
  symbol: string;
  side: Side;
  price: Decimal;
  amount: Decimal;
  /** Quote, before the fee. */
  cost: Decimal;
  fee: { currency: string; amount: Decimal } | null;
  /** It rested and was filled (the maker fee), or it filled at once (the taker fee). */
  maker: boolean;
  /** When it filled (ms). */
  at: number;
}

/**
 * Resting orders, beside the port's market orders: placing is idempotent by client order id as there;
 * `cancelOrder` answers the order as it ends (canceled, or closed when it filled first: then its fill
 * counts), null when the venue knows no such order; `fetchOpenOrders` lists only our orders.
 */
export interface RestingOrderPort {
  placeLimitOrder(request: LimitOrderRequest): Promise<OrderState>;
  cancelOrder(clientOrderId: ClientOrderId, symbol: string): Promise<OrderState | null>;
  fetchOpenOrders(symbol?: string): Promise<OrderState[]>;
  fetchOrderTrades(clientOrderId: ClientOrderId, symbol: string): Promise<OrderTrade[]>;
}

/** The reason a post-only limit order is refused with when it would fill at once (Paper's, and a live exchange's answer in these words). */
export const WOULD_CROSS = 'post only order would cross';

/** A venue's resting-order calls, those it has (a test's venue may have none). */
export const restingOf = (port: ExchangePort): Partial<RestingOrderPort> => port as Partial<RestingOrderPort>;
