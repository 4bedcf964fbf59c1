import Decimal from 'decimal.js';
import { describe, expect, it } from 'vitest';
import type { ClientOrderId } from '../strategy/types.ts';
import type { ExchangePort, MarketOrderRequest, OrderState } from './exchanges/port.ts';
import { Metrics } from './metrics.ts';

/** A venue that answers each order with the next outcome given (an answer's status, or a throw). */
class FakeVenue implements ExchangePort {
  private readonly outcomes: (OrderState['status'] | 'throw')[];
  readonly seen: MarketOrderRequest[] = [];
  constructor(outcomes: (OrderState['status'] | 'throw')[]) {
    this.outcomes = outcomes;
  }
  async market(): Promise<never> {
    throw new Error('not here');
  }
  async placeMarketOrder(request: MarketOrderRequest): Promise<OrderState> {
    this.seen.push(request);
    const outcome = this.outcomes.shift();
    if (outcome === 'throw') throw new Error('timeout');
    return { clientOrderId: request.clientOrderId, symbol: request.symbol, side: request.side, status: outcome ?? 'closed', price: null, filled: new Decimal(0), cost: new Decimal(0), fee: null };
  }
  async fetchOrder(): Promise<OrderState | null> {
    return null;
  }
  async balance(currency: string): Promise<Decimal> {
    return new Decimal(currency === 'USDT' ? 100 : 0);
  }
}

describe('order counts', () => {
  it('count every order a venue is handed as sent, and the rejected or failed ones as failed, by exchange; other calls pass through', async () => {
    const metrics = new Metrics();
    const venue = new FakeVenue(['closed', 'rejected', 'throw', 'open']);
    const port = metrics.countOrders(venue, 'binance');
    const id = (n: number) => `qb${n}` as ClientOrderId;
    const order = { clientOrderId: id(1), symbol: 'BTC/USDT', side: 'buy' as const, quote: new Decimal(10) };
    expect((await port.placeMarketOrder(order)).status).toBe('closed');
    expect((await port.placeMarketOrder({ ...order, clientOrderId: id(2) })).status).toBe('rejected');
    await expect(port.placeMarketOrder({ ...order, clientOrderId: id(3) })).rejects.toThrow('timeout');
    expect((await port.placeMarketOrder({ ...order, clientOrderId: id(4) })).status).toBe('open');
    expect(venue.seen.map((r) => r.clientOrderId)).toEqual(['qb1', 'qb2', 'qb3', 'qb4']);
    expect((await port.balance('USDT')).toString()).toBe('100');
    expect(port).toBeInstanceOf(FakeVenue);
    const text = await metrics.registry.metrics();
    expect(text).toMatch(/^quantbot_orders_sent_total\{exchange="binance"\} 4$/m);
    expect(text).toMatch(/^quantbot_orders_failed_total\{exchange="binance"\} 2$/m);
  });
});

describe('reconciliation figures', () => {
  it('count what the rounds found, by kind, the accounts out of reach now, and the seconds of outages', async () => {
    const metrics = new Metrics();
    const before = await metrics.registry.metrics();
    expect(before).toContain('quantbot_reconciliation_findings_total{found="lost"} 0');
    metrics.engine.reconciled?.('orphan', 2);
    metrics.engine.reconciled?.('lost', 1);
    metrics.engine.accountsDown?.(3, 42.5);
    metrics.engine.outageEnded?.(30);
    metrics.engine.outageEnded?.(12.5);
    metrics.engine.lookedUp?.(10);
    metrics.engine.lookedUp?.(2);
    const text = await metrics.registry.metrics();
    expect(text).toContain('quantbot_reconciliation_findings_total{found="orphan"} 2');
    expect(text).toContain('quantbot_reconciliation_findings_total{found="lost"} 1');
    expect(text).toContain('quantbot_reconciliation_findings_total{found="short"} 0');
    expect(text).toContain('quantbot_accounts_out_of_reach 3');
    expect(text).toContain('quantbot_account_outage_longest_seconds 42.5');
    expect(text).toContain('quantbot_account_outage_seconds_total 42.5');
    expect(text).toContain('quantbot_order_lookups_total 12');
  });
});
