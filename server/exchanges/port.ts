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
  /** Taker fee rate (market orders). */
  feeRate: Decimal;
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
}

export type OrderStatus = 'open' | 'closed' | 'canceled' | 'rejected';

export interface OrderState {
  clientOrderId: ClientOrderId;
  symbol: string;
  side: Side;
  status: OrderStatus;
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
  market(symbol: string): Promise<MarketInfo>;
  placeMarketOrder(request: MarketOrderRequest): Promise<OrderState>;
  fetchOrder(clientOrderId: ClientOrderId, symbol: string): Promise<OrderState | null>;
  balance(currency: string): Promise<Decimal>;
}
