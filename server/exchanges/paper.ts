import type Decimal from 'decimal.js';
import type { ClientOrderId } from '../engine/types.ts';
import { floorTo, money } from '../engine/money.ts';
import type { SimulatedMarket } from '../market/simulated.ts';
import type { ExchangePort, MarketInfo, MarketOrderRequest, OrderState } from './port.ts';

/** Paper trading's fee: the common spot taker rate. */
export const PAPER_FEE_RATE = '0.001';

/**
 * The built-in Paper exchange: market orders fill at once at the simulated market's current price,
 * with the taker fee (in base on buys, in quote on sells, as Binance charges) and a virtual balance
 * that can never go negative. Orders are kept by client order id, so placing one twice is harmless.
 */
export class PaperExchange implements ExchangePort {
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
    const [base, quote] = symbol.split('/') as [string, string];
    const step = money(info.step);
    return { symbol, base, quote, tickSize: money(info.tick), stepSize: step, minAmount: step, minCost: money(5), feeRate: money(PAPER_FEE_RATE) };
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
    const order = request.side === 'buy' ? this.buy(m, price, request) : this.sell(m, price, request);
    this.orders.set(request.clientOrderId, order);
    return order;
  }

  private reject(m: MarketInfo, request: MarketOrderRequest, reason: string): OrderState {
    return { clientOrderId: request.clientOrderId, symbol: m.symbol, side: request.side, status: 'rejected', price: null, filled: money(0), cost: money(0), fee: null, reason };
  }

  private buy(m: MarketInfo, price: Decimal, request: MarketOrderRequest): OrderState {
    const quote = request.quote ?? money(0);
    const amount = floorTo(quote.div(price), m.stepSize);
    const cost = amount.mul(price);
    if (amount.lt(m.minAmount) || cost.lt(m.minCost)) return this.reject(m, request, 'amount too small');
    const cash = this.balances.get(m.quote) ?? money(0);
    if (cash.lt(cost)) return this.reject(m, request, 'insufficient balance');
    const fee = amount.mul(m.feeRate);
    this.balances.set(m.quote, cash.minus(cost));
    this.balances.set(m.base, (this.balances.get(m.base) ?? money(0)).plus(amount.minus(fee)));
    return { clientOrderId: request.clientOrderId, symbol: m.symbol, side: 'buy', status: 'closed', price, filled: amount, cost, fee: { currency: m.base, amount: fee } };
  }

  private sell(m: MarketInfo, price: Decimal, request: MarketOrderRequest): OrderState {
    const amount = floorTo(request.amount ?? money(0), m.stepSize);
    const cost = amount.mul(price);
    if (amount.lt(m.minAmount) || cost.lt(m.minCost)) return this.reject(m, request, 'amount too small');
    const held = this.balances.get(m.base) ?? money(0);
    if (held.lt(amount)) return this.reject(m, request, 'insufficient balance');
    const fee = cost.mul(m.feeRate);
    this.balances.set(m.base, held.minus(amount));
    this.balances.set(m.quote, (this.balances.get(m.quote) ?? money(0)).plus(cost.minus(fee)));
    return { clientOrderId: request.clientOrderId, symbol: m.symbol, side: 'sell', status: 'closed', price, filled: amount, cost, fee: { currency: m.quote, amount: fee } };
  }
}
