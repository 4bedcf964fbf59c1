import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type Decimal from 'decimal.js';
import { money } from '../../strategy/money.ts';
import type { ClientOrderId } from '../../strategy/types.ts';
import type { Db } from '../db/connect.ts';
import { dbKinds, openTestDb } from '../testing/test-support.ts';
import { paperMarket } from './paper-fill.ts';
import { seededVolume } from './paper-limit.ts';
import { matchRestingOrders, PaperVenue, type PaperSource } from './paper-venue.ts';

const id = (s: string) => s as ClientOrderId;

/**
 * Limit orders on Paper, as a venue keeps them: a resting order holds what it would spend, fills at its
 * own price as a maker when the market reaches it, a crossing one fills at once as a taker, a post-only
 * one that would cross is refused, a cancel frees the hold (or finds the order already filled), and each
 * fill is a trade with an id of its own. BTC/USDT: tick 0.01, step 0.00001; fees 0.1 % taker, 0.08 % maker.
 */
describe.each(dbKinds)('resting orders on Paper (%s)', (kind) => {
  let db: Db;
  let drop: () => Promise<void>;
  let price = money('60000');
  const source: PaperSource = { market: async (symbol) => paperMarket(symbol, '0.01', '0.00001'), price: async () => price };
  let n = 0;
  const trader = async () => {
    n++;
    const row = await db
      .insertInto('users')
      .values({ sn: `7000000${n}`, account: `resting${n}${kind}`, password_hash: null, payment_hash: null, nickname: 'n', email: '', mobile: '', address: null, avatar: '', referrer_id: null })
      .returning('id')
      .executeTakeFirstOrThrow();
    return new PaperVenue(db, String(row.id), source);
  };
  const s = (d: Decimal | null | undefined) => d?.toFixed() ?? null;

  beforeAll(async () => {
    ({ db, drop } = await openTestDb(kind));
  });
  afterAll(async () => {
    await drop();
  });

  it('rests a buy below the market holding its quote, and fills it at its own price as a maker when the market gets there', async () => {
    price = money('60000');
    const a = await trader();
    const placed = await a.placeLimitOrder({ clientOrderId: id('1-1-1'), symbol: 'BTC/USDT', side: 'buy', price: money('59000'), amount: money('0.01'), postOnly: true });
    expect([placed.status, s(placed.filled), s(placed.limit?.price)]).toEqual(['open', '0', '59000']);
    // 590 USDT held: 9,410 free of 10,000.
    expect(s(await a.balance('USDT'))).toBe('9410');
    // Placed again (a retry): the same order, nothing held twice.
    expect((await a.placeLimitOrder({ clientOrderId: id('1-1-1'), symbol: 'BTC/USDT', side: 'buy', price: money('59000'), amount: money('0.01') })).status).toBe('open');
    expect(s(await a.balance('USDT'))).toBe('9410');
    expect((await a.fetchOpenOrders('BTC/USDT')).map((o) => o.clientOrderId)).toEqual(['1-1-1']);
    // Not reached: nothing fills.
    price = money('59000.01');
    expect(await matchRestingOrders(db, source, 1, 'BTC/USDT')).toEqual([]);
    // Gapped through it: filled at 59,000, not at 58,500.
    price = money('58500');
    expect(await matchRestingOrders(db, source, 1, 'BTC/USDT')).toEqual(['1-1-1']);
    const filled = await a.fetchOrder(id('1-1-1'));
    expect([filled?.status, s(filled?.price), s(filled?.filled), s(filled?.cost)]).toEqual(['closed', '59000', '0.01', '590']);
    // The maker fee, in the coin received: 0.01 x 0.08 % = 0.000008 BTC.
    const trades = await a.fetchOrderTrades(id('1-1-1'));
    expect(trades.map((t) => [t.maker, s(t.price), s(t.amount), s(t.fee?.amount), t.fee?.currency])).toEqual([[true, '59000', '0.01', '0.000008', 'BTC']]);
    expect([s(await a.balance('USDT')), s(await a.balance('BTC'))]).toEqual(['9410', '0.009992']);
    expect(await a.fetchOpenOrders()).toEqual([]);
    // Matched again: nothing more.
    expect(await matchRestingOrders(db, source, 1, 'BTC/USDT')).toEqual([]);
  });

  it('fills a crossing limit at once at the market as a taker; refuses a post-only one that would cross, off-tick prices and what the free balance cannot cover', async () => {
    price = money('60000');
    const a = await trader();
    const cross = await a.placeLimitOrder({ clientOrderId: id('2-1-1'), symbol: 'BTC/USDT', side: 'buy', price: money('61000'), amount: money('0.01') });
    expect([cross.status, s(cross.price), s(cross.fee?.amount)]).toEqual(['closed', '60000', '0.00001']);
    expect((await a.fetchOrderTrades(id('2-1-1'))).map((t) => t.maker)).toEqual([false]);
    const maker = await a.placeLimitOrder({ clientOrderId: id('2-1-2'), symbol: 'BTC/USDT', side: 'buy', price: money('61000'), amount: money('0.01'), postOnly: true });
    expect([maker.status, maker.reason]).toEqual(['rejected', 'post only order would cross']);
    expect((await a.placeLimitOrder({ clientOrderId: id('2-1-3'), symbol: 'BTC/USDT', side: 'buy', price: money('59000.001'), amount: money('0.01') })).reason).toBe('price not on tick');
    // 9,400 free: a second buy of 0.2 at 59,000 (11,800) is more than that.
    expect((await a.placeLimitOrder({ clientOrderId: id('2-1-4'), symbol: 'BTC/USDT', side: 'buy', price: money('59000'), amount: money('0.2') })).reason).toBe('insufficient balance');
    // What a resting order holds is not free for the next one, nor for a market order.
    expect((await a.placeLimitOrder({ clientOrderId: id('2-1-5'), symbol: 'BTC/USDT', side: 'buy', price: money('59000'), amount: money('0.15') })).status).toBe('open');
    expect(s(await a.balance('USDT'))).toBe('550');
    expect((await a.placeMarketOrder({ clientOrderId: id('2-1-6'), symbol: 'BTC/USDT', side: 'buy', quote: money('600') })).reason).toBe('insufficient balance');
    // An IOC order that does not cross ends at once, holding nothing.
    const ioc = await a.placeLimitOrder({ clientOrderId: id('2-1-7'), symbol: 'BTC/USDT', side: 'sell', price: money('70000'), amount: money('0.001'), timeInForce: 'IOC' });
    expect([ioc.status, s(ioc.filled)]).toEqual(['canceled', '0']);
    expect(s(await a.balance('BTC'))).toBe('0.00999');
  });

  it('cancels an open order and frees its hold; a cancel after the fill answers the fill; a sell holds its coin', async () => {
    price = money('60000');
    const a = await trader();
    await a.placeMarketOrder({ clientOrderId: id('3-1-1'), symbol: 'BTC/USDT', side: 'buy', quote: money('1200') });
    const coin = await a.balance('BTC');
    const sell = await a.placeLimitOrder({ clientOrderId: id('3-1-2'), symbol: 'BTC/USDT', side: 'sell', price: money('61000'), amount: money('0.01') });
    expect(sell.status).toBe('open');
    expect(s(await a.balance('BTC'))).toBe(s(coin.minus('0.01')));
    const cancelled = await a.cancelOrder(id('3-1-2'), 'BTC/USDT');
    expect([cancelled?.status, s(cancelled?.filled)]).toEqual(['canceled', '0']);
    expect(s(await a.balance('BTC'))).toBe(s(coin));
    // Filled before the cancel reached it: the cancel answers the fill, which counts.
    await a.placeLimitOrder({ clientOrderId: id('3-1-3'), symbol: 'BTC/USDT', side: 'sell', price: money('61000'), amount: money('0.01') });
    price = money('61500');
    await matchRestingOrders(db, source, 1, 'BTC/USDT');
    const late = await a.cancelOrder(id('3-1-3'), 'BTC/USDT');
    expect([late?.status, s(late?.price), s(late?.filled)]).toEqual(['closed', '61000', '0.01']);
    expect(await a.cancelOrder(id('3-9-9'), 'BTC/USDT')).toBeNull();
  });

  it('fills a resting order in parts by a seeded volume model, the same parts for the same seed, its hold freed part by part', async () => {
    price = money('60000');
    const parts = async (seed: string, n: string) => {
      const a = await trader();
      const order = id(`5-${n}-1`);
      await a.placeLimitOrder({ clientOrderId: order, symbol: 'BTC/USDT', side: 'buy', price: money('59000'), amount: money('0.1') });
      price = money('58900');
      const seen: string[] = [];
      // Read from Paper's book as it stands (a lookup through the venue would match the rest at once, whole).
      const stored = () => db.selectFrom('paper_orders').select(['status', 'filled']).where('client_order_id', '=', order).executeTakeFirst();
      for (let i = 0; i < 20 && (await stored())?.status === 'open'; i++) {
        await matchRestingOrders(db, source, 1, 'BTC/USDT', seededVolume(seed));
        const now = await stored();
        seen.push(`${now?.status} ${s(now ? money(now.filled) : undefined)} free ${s(await a.balance('USDT'))}`);
      }
      price = money('60000');
      const trades = await a.fetchOrderTrades(order);
      return { seen, trades: trades.map((t) => s(t.amount)), total: s(trades.reduce((sum, t) => sum.plus(t.amount), money(0))) };
    };
    const first = await parts('seed-1', '1');
    expect(first.trades.length).toBeGreaterThan(1);
    expect(first.total).toBe('0.1');
    // While open, the part filled no longer holds its quote: 10,000 - 5,900 held at first, freed as it fills.
    expect(first.seen.at(-1)).toBe('closed 0.1 free 4100');
    expect(first.seen.slice(0, -1).every((line) => line.startsWith('open '))).toBe(true);
    // The same seed: the same parts.
    expect((await parts('seed-1', '2')).trades).toEqual(first.trades);
    expect((await parts('seed-2', '3')).trades).not.toEqual(first.trades);
  });

  it("keeps each trader's orders their own: another's order is neither listed, cancelled nor traded", async () => {
    price = money('60000');
    const a = await trader();
    const b = await trader();
    await a.placeLimitOrder({ clientOrderId: id('4-1-1'), symbol: 'BTC/USDT', side: 'buy', price: money('58000'), amount: money('0.01') });
    expect(await b.fetchOpenOrders()).toEqual([]);
    expect(await b.cancelOrder(id('4-1-1'), 'BTC/USDT')).toBeNull();
    expect(await b.fetchOrderTrades(id('4-1-1'))).toEqual([]);
    expect((await a.fetchOpenOrders()).map((o) => o.status)).toEqual(['open']);
    expect(s(await b.balance('USDT'))).toBe('10000');
    await a.cancelOrder(id('4-1-1'), 'BTC/USDT');
  });
});
