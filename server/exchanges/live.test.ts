import { describe, expect, it } from 'vitest';
import { AuthenticationError, InsufficientFunds, NetworkError, OrderNotFound, RequestTimeout } from 'ccxt';
import { money, toPlain } from '../../strategy/money.ts';
import type { ClientOrderId } from '../../strategy/types.ts';
import { entry, fixture, replaying } from '../testing/ccxt-fixtures.ts';
import { exchangeClientId, LiveExchange, ourClientOrderId, type CcxtExchange } from './live.ts';
import type { OrderState } from './port.ts';

const salt = 'a1b2c3';
const id = '12-3-4' as ClientOrderId;
const live = (ex: CcxtExchange) => new LiveExchange(ex, { salt, confirmDelaysMs: [0, 0] });
const http = (exchange: string, method: string, description: string) => entry(fixture(exchange), method, description).httpResponse;
const plain = (o: OrderState | null) =>
  o && {
    status: o.status,
    side: o.side,
    price: o.price && toPlain(o.price),
    filled: toPlain(o.filled),
    cost: toPlain(o.cost),
    fee: o.fee && { currency: o.fee.currency, amount: toPlain(o.fee.amount) },
  };

describe('client order ids on each exchange', () => {
  it('are deterministic, unique per install, and valid where each exchange is strict', () => {
    expect(exchangeClientId('binance', id, salt)).toBe('qba1b2c3cz3z4'); // 12 -> "c" in base 35
    expect(exchangeClientId('gate', id, salt)).toBe('t-qba1b2c3cz3z4');
    expect(exchangeClientId('binance', '12-34-5', salt)).not.toBe(exchangeClientId('binance', '123-4-5', salt));
    expect(exchangeClientId('binance', id, salt)).toBe(exchangeClientId('binance', id, salt));
    expect(exchangeClientId('binance', id, 'zzzzzz')).not.toBe(exchangeClientId('binance', id, salt));
    const long = '123456789012-99999-999' as ClientOrderId;
    expect(exchangeClientId('okx', long, salt)).toMatch(/^[A-Za-z0-9]{1,32}$/);
    expect(exchangeClientId('gate', long, salt)).toMatch(/^t-[0-9A-Za-z_.-]{1,28}$/);
    for (const ex of ['binance', 'bybit', 'bitget', 'htx']) expect(exchangeClientId(ex, long, salt)).toMatch(/^[A-Za-z0-9_-]{1,36}$/);
  });

  it("read back to ours from an exchange's open orders, and another program's or install's are not ours", () => {
    const long = '123456789012-99999-999' as ClientOrderId;
    for (const ex of ['binance', 'okx', 'gate', 'bybit', 'bitget', 'htx'])
      for (const ours of [id, long, '1-1-1' as ClientOrderId]) expect(ourClientOrderId(ex, exchangeClientId(ex, ours, salt), salt), `${ex} ${ours}`).toBe(ours);
    expect(ourClientOrderId('binance', 'web_8f2a1c', salt)).toBeNull();
    expect(ourClientOrderId('binance', undefined, salt)).toBeNull();
    expect(ourClientOrderId('binance', exchangeClientId('binance', id, 'zzzzzz'), salt)).toBeNull();
    // Our prefix with text that is no id of ours.
    expect(ourClientOrderId('binance', `${exchangeClientId('binance', id, salt)}-x`, salt)).toBeNull();
  });
});

describe('the live adapter on recorded exchange answers (ccxt, offline)', () => {
  it('reads a market: tick and step from ccxt precision, minimum cost, taker fee', async () => {
    const m = await live(replaying('binance', [{}]).ex).market('BTC/USDT');
    expect({ tick: toPlain(m.tickSize), step: toPlain(m.stepSize), minAmount: toPlain(m.minAmount), minCost: toPlain(m.minCost), fee: toPlain(m.feeRate), base: m.base, quote: m.quote }).toEqual({
      tick: '0.01',
      step: '0.000001',
      minAmount: '0.000001',
      minCost: '5',
      fee: '0.001',
      base: 'BTC',
      quote: 'USDT',
    });
  });

  it('bybit: a market buy sized by cost is only acknowledged, so it is confirmed with fetchOrder; the fee (which ccxt drops) is read from the answer, in BTC', async () => {
    const r = replaying('bybit', [http('bybit', 'createOrder', 'create spot order'), http('bybit', 'fetchOrder', 'fetch spot buy closed order')]);
    const order = await live(r.ex).placeMarketOrder({ clientOrderId: id, symbol: 'BTC/USDT', side: 'buy', quote: money('50') });
    expect(plain(order)).toEqual({ status: 'closed', side: 'buy', price: '30966.41', filled: '0.001614', cost: '49.97980168', fee: { currency: 'BTC', amount: '0.000001614' } });
    expect(r.urls).toHaveLength(2);
    expect(r.urls[0]).toMatch(/POST .*\/v5\/order\/create .*"orderLinkId":"qba1b2c3cz3z4"/);
    // Sized by cost: bybit reads a spot market buy's qty in the quote coin (50 USDT, not 50 BTC).
    expect(r.urls[0]).toContain('"side":"Buy","orderType":"Market"');
    expect(r.urls[0]).toContain('"qty":"50"');
    expect(r.urls[1]).toMatch(/GET .*\/v5\/order\/realtime/);
  });

  it('bitget: acknowledgement then the filled buy; the negative base-coin fee is counted as a cost', async () => {
    const r = replaying('bitget', [http('bitget', 'createOrder', 'create spot order'), http('bitget', 'fetchOrder', 'fetch spot order')]);
    const order = await live(r.ex).placeMarketOrder({ clientOrderId: id, symbol: 'LTC/USDT', side: 'buy', quote: money('6') });
    expect(plain(order)).toEqual({ status: 'closed', side: 'buy', price: '65.521', filled: '0.0915', cost: '5.9951715', fee: { currency: 'LTC', amount: '0.0000915' } });
    expect(r.urls[0]).toContain('"clientOid":"qba1b2c3cz3z4"');
  });

  it('binance: an answer that is not final is confirmed; a filled order without fees has no fee', async () => {
    const r = replaying('binance', [http('binance', 'createOrder', 'spot +selfTradePrevention +iceberg'), http('binance', 'fetchOrder', 'Fetch spot closed order')]);
    const order = await live(r.ex).placeMarketOrder({ clientOrderId: id, symbol: 'LTC/USDT', side: 'sell', amount: money('0.1') });
    expect(plain(order)).toEqual({ status: 'closed', side: 'sell', price: '90.8', filled: '0.1', cost: '9.08', fee: null });
    expect(r.urls[0]).toMatch(/newClientOrderId=qba1b2c3cz3z4/);
    expect(r.urls[0]).toMatch(/quantity=0\.1\b/);
  });

  it('okx: looks an order up by its client order id; the buy fee is in LTC', async () => {
    const r = replaying('okx', [http('okx', 'fetchOrder', 'fetch spot order')]);
    const order = await live(r.ex).fetchOrder(id, 'LTC/USDT');
    expect(plain(order)).toEqual({ status: 'closed', side: 'buy', price: '101.58', filled: '0.1', cost: '10.158', fee: { currency: 'LTC', amount: '0.0001' } });
    expect(r.urls[0]).toMatch(/clOrdId=qba1b2c3cz3z4/);
  });

  it('htx: a partial-canceled market buy keeps its fill (the engine records it), an open one stays open', async () => {
    const partial = replaying('htx', [http('htx', 'fetchOrder', 'spot order with correct cost')]);
    const order = await live(partial.ex).fetchOrder(id, 'LTC/USDT');
    expect(plain(order)).toMatchObject({ status: 'canceled', side: 'buy', filled: '4131.9039', cost: '844.80533188', fee: { currency: 'LTC', amount: '3.71871351' } });
    expect(partial.urls[0]).toMatch(/clientOrderId=qba1b2c3cz3z4/);
    const open = replaying('htx', [http('htx', 'fetchOrder', 'spot order with clientOrderId')]);
    expect(plain(await live(open.ex).fetchOrder(id, 'LTC/USDT'))).toMatchObject({ status: 'open', filled: '0', price: null });
  });

  it('reads the free balance of a currency from each exchange', async () => {
    const free = async (exchange: string, description: string, currency: string) => toPlain(await live(replaying(exchange, [http(exchange, 'fetchBalance', description)]).ex).balance(currency));
    expect(await free('binance', 'Spot balance', 'LTC')).toBe('0.919741');
    expect(await free('bybit', 'balance after availableToWithdraw update', 'USDT')).toBe('3229.64065465');
    expect(await free('okx', 'spot balance', 'USDT')).toBe('0');
    expect(await free('bitget', 'spot balance', 'USDT')).toBe('17.85159289');
    expect(await free('bitget', 'spot balance', 'DOGE')).toBe('0');
  });

  it('rethrows a network failure or a timeout (outcome unknown) and turns a refusal into a rejected order', async () => {
    await expect(
      live(replaying('binance', [new NetworkError('binance down')]).ex).placeMarketOrder({ clientOrderId: id, symbol: 'LTC/USDT', side: 'sell', amount: money('0.1') }),
    ).rejects.toBeInstanceOf(NetworkError);
    await expect(live(replaying('binance', [new RequestTimeout('slow')]).ex).placeMarketOrder({ clientOrderId: id, symbol: 'LTC/USDT', side: 'sell', amount: money('0.1') })).rejects.toBeInstanceOf(
      NetworkError,
    );
    const poor = replaying('binance', [new InsufficientFunds('binance Account has insufficient balance for requested action.')]);
    const refused = await live(poor.ex).placeMarketOrder({ clientOrderId: id, symbol: 'BTC/USDT', side: 'buy', quote: money('20') });
    expect(refused).toMatchObject({ status: 'rejected', clientOrderId: id });
    expect(refused.reason).toContain('insufficient balance');
    const locked = await live(replaying('binance', [new AuthenticationError('binance {"code":-2015,"msg":"Invalid API-key, IP, or permissions for action."}')]).ex).placeMarketOrder({
      clientOrderId: id,
      symbol: 'BTC/USDT',
      side: 'buy',
      quote: money('20'),
    });
    expect(locked).toMatchObject({ status: 'rejected' });
    expect(locked.reason).toMatch(/^api-key: .*Invalid API-key/);
    // A binance market buy is sized by cost: quoteOrderQty, never a base quantity.
    expect(poor.urls[0]).toMatch(/POST .*\/api\/v3\/order .*quoteOrderQty=20\b/);
    expect(poor.urls[0]).not.toMatch(/[?&]quantity=/);
  });

  it('answers null for an order the exchange does not know, after searching its recent orders', async () => {
    const r = replaying('binance', [new OrderNotFound('binance Order does not exist.'), [], []]);
    expect(await live(r.ex).fetchOrder(id, 'BTC/USDT')).toBeNull();
    expect(r.urls.map((u) => u.split('?')[0]!.split(' ')[1])).toEqual([
      expect.stringContaining('/api/v3/order'),
      expect.stringContaining('/api/v3/openOrders'),
      expect.stringContaining('/api/v3/allOrders'),
    ]);
  });
});
