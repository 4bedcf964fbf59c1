import { describe, expect, it } from 'vitest';
import { money, toPlain } from '../../strategy/money.ts';
import { botId, clientOrderId } from '../../strategy/types.ts';
import { SimulatedMarket } from '../market/simulated.ts';
import { PaperExchange } from './paper.ts';

const at = Date.UTC(2026, 5, 1, 12, 0, 0);
const feed = new SimulatedMarket();
const id = (seq: number) => clientOrderId(botId('p1'), 1, seq);

describe('the Paper exchange', () => {
  it('fills a market buy by cost at the simulated price, fee in base, and a sell with fee in quote', async () => {
    const ex = new PaperExchange(feed, { USDT: '1000' }, () => at);
    const price = money(feed.priceAt('BTC/USDT', at));
    const buy = await ex.placeMarketOrder({ clientOrderId: id(1), symbol: 'BTC/USDT', side: 'buy', quote: money('100') });
    const amount = money('100').div(price).toNearest(money('0.00001'), 1);
    expect(buy).toMatchObject({ status: 'closed', side: 'buy' });
    expect(toPlain(buy.price!)).toBe(toPlain(price));
    expect(toPlain(buy.filled)).toBe(toPlain(amount));
    expect(toPlain(buy.fee!.amount)).toBe(toPlain(amount.mul('0.001')));
    expect(toPlain(await ex.balance('USDT'))).toBe(toPlain(money(1000).minus(amount.mul(price))));
    expect(toPlain(await ex.balance('BTC'))).toBe(toPlain(amount.mul('0.999')));

    const held = await ex.balance('BTC');
    const sell = await ex.placeMarketOrder({ clientOrderId: id(2), symbol: 'BTC/USDT', side: 'sell', amount: held });
    const sold = held.toNearest(money('0.00001'), 1);
    expect(toPlain(sell.filled)).toBe(toPlain(sold));
    expect(toPlain(sell.fee!.amount)).toBe(toPlain(sold.mul(price).mul('0.001')));
    expect(toPlain(await ex.balance('BTC'))).toBe(toPlain(held.minus(sold)));
  });

  it('fills an order resting at a trigger there when the market moved past it, never better than the market', async () => {
    const ex = new PaperExchange(feed, { USDT: '1000' }, () => at);
    const price = money(feed.priceAt('BTC/USDT', at));
    const fillOf = async (seq: number, side: 'buy' | 'sell', trigger: string) => {
      const order = await ex.placeMarketOrder({ clientOrderId: id(seq), symbol: 'BTC/USDT', side, ...(side === 'buy' ? { quote: money('100') } : { amount: money('0.0005') }), at: money(trigger) });
      expect(order.status).toBe('closed');
      return toPlain(order.price!);
    };
    // A buy level 100 above the market (the price fell through it): at the level, not at the lower price.
    const above = price.plus(100);
    expect(await fillOf(1, 'buy', above.toFixed())).toBe(toPlain(above));
    expect(toPlain((await ex.fetchOrder(id(1)))!.filled)).toBe(toPlain(money('100').div(above).toNearest(money('0.00001'), 1)));
    // A buy "resting" below the market would be a gift: the market's price.
    expect(await fillOf(2, 'buy', price.minus(100).toFixed())).toBe(toPlain(price));
    // A take profit 100 below the market (the price rose through it): at the take profit.
    expect(await fillOf(3, 'sell', price.minus(100).toFixed())).toBe(toPlain(price.minus(100)));
    // A stop above the market (the price fell through it): the market's price, as a stop order gets.
    expect(await fillOf(4, 'sell', price.plus(100).toFixed())).toBe(toPlain(price));
  });

  it('places an order once per client order id, however often it is sent', async () => {
    const ex = new PaperExchange(feed, { USDT: '1000' }, () => at);
    const first = await ex.placeMarketOrder({ clientOrderId: id(1), symbol: 'ETH/USDT', side: 'buy', quote: money('50') });
    const again = await ex.placeMarketOrder({ clientOrderId: id(1), symbol: 'ETH/USDT', side: 'buy', quote: money('50') });
    expect(again).toBe(first);
    expect(toPlain(await ex.balance('USDT'))).toBe(toPlain(money(1000).minus(first.cost)));
    expect(await ex.fetchOrder(id(1))).toBe(first);
    expect(await ex.fetchOrder(id(9))).toBeNull();
  });

  it('rejects what the market or the balance does not allow, and changes nothing', async () => {
    const ex = new PaperExchange(feed, { USDT: '20' }, () => at);
    expect(await ex.placeMarketOrder({ clientOrderId: id(1), symbol: 'BTC/USDT', side: 'buy', quote: money('100') })).toMatchObject({ status: 'rejected', reason: 'insufficient balance' });
    expect(await ex.placeMarketOrder({ clientOrderId: id(2), symbol: 'BTC/USDT', side: 'buy', quote: money('1') })).toMatchObject({ status: 'rejected', reason: 'amount too small' });
    expect(await ex.placeMarketOrder({ clientOrderId: id(3), symbol: 'BTC/USDT', side: 'sell', amount: money('1') })).toMatchObject({ status: 'rejected', reason: 'insufficient balance' });
    expect(toPlain(await ex.balance('USDT'))).toBe('20');
  });
});
