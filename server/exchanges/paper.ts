import type Decimal from 'decimal.js';
import type { ClientOrderId } from '../../strategy/types.ts';
import { money } from '../../strategy/money.ts';
import type { SimulatedMarket } from '../market/simulated.ts';
import { fillMarketOrder, paperMarket } from './paper-fill.ts';
import type { ExchangePort, MarketInfo, MarketOrderRequest, OrderState } from './port.ts';

export { PAPER_FEE_RATE } from './paper-fill.ts';

/**
 * The Paper exchange in memory (tests and replays): market orders fill at once at the simulated
 * market's current price (paper-fill.ts). Orders are kept by client order id, so placing one twice is
 * harmless. The server's Paper venue keeps the same books in the database (paper-venue.ts).
 */
export class PaperExchange implements ExchangePort {
  /** Its lookups read the orders it holds: not found is never placed. */
  readonly exactLookup = true;
  private readonly balances = new Map<string, Decimal>();
  private readonly orders = new Map<ClientOrderId, OrderState>();
  private readonly feed: SimulatedMarket;
  private readonly now: () => number;

  constructor(feed: SimulatedMarket, startBalances: Record<string, string>, now: () => number = Date.now) {
    this.feed = feed;
    this.now = now;
    for (const [currency, amount] of Object.entries(startBalances)) this.balances.set(currency, money(amount));
  }

  async market(symbol: string): Promise<MarketInfo> {
    const info = this.feed.info(symbol);
    return paperMarket(symbol, info.tick, info.step);
  }

  async balance(currency: string): Promise<Decimal> {
    return this.balances.get(currency) ?? money(0);
  }

  async fetchOrder(clientOrderId: ClientOrderId): Promise<OrderState | null> {
    return this.orders.get(clientOrderId) ?? null;
  }

  async placeMarketOrder(request: MarketOrderRequest): Promise<OrderState> {
    const known = this.orders.get(request.clientOrderId);
    if (known) return known;
    const m = await this.market(request.symbol);
    const price = money(this.feed.priceAt(request.symbol, this.now()));
    const { order, changes } = fillMarketOrder(m, price, request, (c) => this.balances.get(c) ?? money(0));
    for (const [currency, delta] of changes) this.balances.set(currency, (this.balances.get(currency) ?? money(0)).plus(delta));
    this.orders.set(request.clientOrderId, order);
    return order;
  }
}
