import { afterEach, describe, expect, it } from 'vitest';
import {
  AuthenticationError,
  DDoSProtection,
  ExchangeNotAvailable,
  InsufficientFunds,
  InvalidNonce,
  InvalidOrder,
  NetworkError,
  OperationFailed,
  OrderImmediatelyFillable,
  OrderNotFound,
  RequestTimeout,
  type binance,
} from 'ccxt';
import { money } from '../../../strategy/money.ts';
import type { ClientOrderId } from '../../../strategy/types.ts';
import { ccxtInstance, LiveExchange } from '../../exchanges/live.ts';
import { API_KEY_REFUSED } from '../../exchanges/port.ts';
import { Book } from './book.ts';
import { dec } from './numbers.ts';
import { type FakeClientOptions, fakeBinanceClient, pointAt } from './client.ts';
import { FakeBinance, type FakeBinanceOptions } from './server.ts';
import { hmacHex } from './signing.ts';

/**
 * The real ccxt binance client, and the engine's LiveExchange adapter on it, against the fake exchange:
 * signing, parsing, Binance's error codes as ccxt maps them, and each fault of the plan.
 */

const started: FakeBinance[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((f) => f.close()));
});

async function open(options: FakeBinanceOptions = {}, client: FakeClientOptions = {}) {
  const fake = await FakeBinance.start(options);
  started.push(fake);
  const ex = fakeBinanceClient(fake, client);
  return { fake, ex, live: new LiveExchange(ex, { salt: 'a1b2c3', confirmDelaysMs: [0, 0] }) };
}

/** A balance in the fake's own books, as plain strings. */
const held = (fake: FakeBinance, asset: string) => {
  const b = fake.book.balance(asset);
  return { free: b.free.toFixed(), locked: b.locked.toFixed() };
};

const calls = (fake: FakeBinance) => fake.requests.map((r) => `${r.method} ${r.path}`);

/** What a ccxt promise was refused with. */
const refusal = (p: Promise<unknown>) =>
  p.then(
    () => {
      throw new Error('expected a refusal');
    },
    (e: unknown) => e as Error,
  );

const id = (n: number) => `7-1-${n}` as ClientOrderId;

describe('fake Binance through the real ccxt client', () => {
  it('loads the spot markets from exchangeInfo alone, and reads the rules, a ticker and candles', async () => {
    const { fake, ex, live } = await open();
    const m = await live.market('BTC/USDT');
    expect(calls(fake)).toEqual(['GET /api/v3/exchangeInfo']); // no sapi, fapi or dapi call on load
    expect({ tick: m.tickSize.toFixed(), step: m.stepSize.toFixed(), minCost: m.minCost.toFixed(), base: m.base, quote: m.quote }).toEqual({
      tick: '0.01',
      step: '0.00001',
      minCost: '5',
      base: 'BTC',
      quote: 'USDT',
    });
    fake.setPrice('BTC/USDT', '66000.5');
    const t = await ex.fetchTicker('BTC/USDT');
    expect({ last: t.last, high: t.high, low: t.low, open: t.open }).toEqual({ last: 66000.5, high: 66000.5, low: 65000, open: 65000 });
    const candles = await ex.fetchOHLCV('BTC/USDT', '1m', undefined, 5);
    expect(candles.at(-1)?.[4]).toBe(66000.5);
    expect(calls(fake).slice(1)).toEqual(['GET /api/v3/ticker/24hr', 'GET /api/v3/klines']);
  });

  it("the product's own ccxt instance for binance loads the spot markets alone, keys and all (no sapi, fapi or dapi call to fail)", async () => {
    const fake = await FakeBinance.start();
    started.push(fake);
    const ex = (await ccxtInstance('binance', { apiKey: fake.apiKey, secretKey: fake.secret })) as binance;
    ex.enableRateLimit = false;
    pointAt(ex, fake.url);
    const live = new LiveExchange(ex, { salt: 'a1b2c3' });
    expect((await live.market('BTC/USDT')).tickSize.toFixed()).toBe('0.01');
    expect(calls(fake)).toEqual(['GET /api/v3/exchangeInfo']);
  });

  it('a market buy by quote and a market sell through LiveExchange: fills, fees in the coin received, balances', async () => {
    const { fake, ex, live } = await open({ balances: { USDT: '1000' }, fees: { taker: '0.001' } });
    const buy = await live.placeMarketOrder({ clientOrderId: id(1), symbol: 'BTC/USDT', side: 'buy', quote: money('100') });
    // 100 USDT at 65000 is 0.00153 BTC on the 0.00001 step, costing 99.45; the 0.1% fee is taken in BTC.
    expect(buy).toMatchObject({ status: 'closed', side: 'buy' });
    expect([buy.filled.toFixed(), buy.cost.toFixed(), buy.price?.toFixed(), buy.fee?.currency, buy.fee?.amount.toFixed()]).toEqual(['0.00153', '99.45', '65000', 'BTC', '0.00000153']);
    const placed = fake.requests.find((r) => r.method === 'POST')!;
    expect(placed.params).toMatchObject({ symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quoteOrderQty: '100', newClientOrderId: live.clientId(id(1)), newOrderRespType: 'FULL' });
    expect(ex.last_response_headers).toMatchObject({ 'X-Mbx-Order-Count-10s': '1', 'X-Mbx-Used-Weight-1m': expect.any(String) }); // ccxt title-cases header names
    expect(held(fake, 'USDT')).toEqual({ free: '900.55', locked: '0' });
    expect(held(fake, 'BTC')).toEqual({ free: '0.00152847', locked: '0' });

    fake.setPrice('BTC/USDT', '66000');
    const sell = await live.placeMarketOrder({ clientOrderId: id(2), symbol: 'BTC/USDT', side: 'sell', amount: money('0.0015') });
    expect([sell.status, sell.filled.toFixed(), sell.cost.toFixed(), sell.fee?.currency, sell.fee?.amount.toFixed()]).toEqual(['closed', '0.0015', '99', 'USDT', '0.099']);
    expect((await live.balance('USDT')).toFixed()).toBe('999.451'); // 900.55 + 99 - 0.099
    expect((await live.balance('BTC')).toFixed()).toBe('0.00002847');

    const trades = await ex.fetchMyTrades('BTC/USDT');
    expect(trades.map((t) => [t.id, t.side, t.takerOrMaker, t.fee?.currency])).toEqual([
      ['1', 'buy', 'taker', 'BTC'],
      ['2', 'sell', 'taker', 'USDT'],
    ]);
    // More than the account holds: Binance's -2010, a rejection the engine pauses on.
    const broke = await live.placeMarketOrder({ clientOrderId: id(3), symbol: 'BTC/USDT', side: 'buy', quote: money('5000') });
    expect(broke).toMatchObject({ status: 'rejected', reason: expect.stringContaining('Account has insufficient balance for requested action.') });
    await expect(ex.createOrder('BTC/USDT', 'market', 'sell', 1)).rejects.toBeInstanceOf(InsufficientFunds);
  });

  it('checks the signature over query and body, and refuses bad keys with Binance codes and ccxt classes', async () => {
    const { fake } = await open();
    // A bad secret: -1022; the adapter turns a refused key into a rejection naming the key.
    const wrongSecret = new LiveExchange(fakeBinanceClient(fake, { secret: 'x'.repeat(64) }), { salt: 'a1b2c3' });
    const order = await wrongSecret.placeMarketOrder({ clientOrderId: id(1), symbol: 'BTC/USDT', side: 'buy', quote: money('10') });
    expect(order.status).toBe('rejected');
    expect(order.reason).toMatch(new RegExp(`^${API_KEY_REFUSED}.*-1022.*Signature for this request is not valid`));
    const unknownKey = await refusal(fakeBinanceClient(fake, { apiKey: 'k'.repeat(64) }).fetchBalance());
    expect(unknownKey).toBeInstanceOf(AuthenticationError);
    expect(unknownKey.message).toContain('"code":-2015');
    const malformedKey = await refusal(fakeBinanceClient(fake, { apiKey: 'short' }).fetchBalance());
    expect(malformedKey).toBeInstanceOf(AuthenticationError);
    expect(malformedKey.message).toContain('"code":-2014');
    expect(fake.book.orders).toHaveLength(0);

    // ccxt reads a -2015 after a signed call once succeeded as a temporary ban, not a key problem.
    const ex = fakeBinanceClient(fake);
    await ex.fetchBalance();
    ex.apiKey = 'k'.repeat(64);
    expect(await refusal(ex.fetchBalance())).toBeInstanceOf(DDoSProtection);
    // The adapter reads Binance's own code in it: a key revoked while a bot runs is a refused key (no order
    // was placed; the bot pauses and the trader is told to check the key), not an unknown outcome.
    const revoked = new LiveExchange(ex, { salt: 'a1b2c3' });
    const answer = await revoked.placeMarketOrder({ clientOrderId: id(2), symbol: 'BTC/USDT', side: 'buy', quote: money('10') });
    expect([answer.status, answer.reason?.startsWith(API_KEY_REFUSED)]).toEqual(['rejected', true]);
    expect(fake.book.orders).toHaveLength(0);

    // Binance's rule: the HMAC covers the query string followed directly by the body.
    const post = async (query: string, body: string) =>
      (await fetch(`${fake.url}/api/v3/order?${query}`, { method: 'POST', headers: { 'X-MBX-APIKEY': fake.apiKey, 'Content-Type': 'application/x-www-form-urlencoded' }, body })).json();
    const query = `symbol=BTCUSDT&side=BUY&type=MARKET&quoteOrderQty=20&timestamp=${Date.now()}`;
    const body = `newClientOrderId=raw1&signature=${hmacHex(fake.secret, `${query}newClientOrderId=raw1`)}`;
    expect(await post(query, body)).toMatchObject({ status: 'FILLED', clientOrderId: 'raw1' });
    expect(await post(query.replace('=20', '=21'), body)).toEqual({ code: -1022, msg: 'Signature for this request is not valid.' });

    // A server clock 20 s ahead: -1021 (ccxt: InvalidNonce, a NetworkError), until ccxt measures the difference through /api/v3/time.
    fake.clockSkewMs = 20_000;
    const late = await refusal(fakeBinanceClient(fake).fetchBalance());
    expect(late).toBeInstanceOf(InvalidNonce);
    expect(late.message).toContain('Timestamp for this request is outside of the recvWindow.');
    const synced = fakeBinanceClient(fake);
    await synced.loadTimeDifference();
    await expect(synced.fetchBalance()).resolves.toMatchObject({ USDT: { free: expect.any(Number) } });
  });

  it('a limit order rests with its quote locked, then fills at its own level when the price crosses it, with the maker fee', async () => {
    const { fake, ex } = await open({ balances: { USDT: '1000', BTC: '0.01' }, fees: { maker: '0.0008', taker: '0.001' } });
    const buy = await ex.createOrder('BTC/USDT', 'limit', 'buy', 0.01, 64000);
    const sell = await ex.createOrder('BTC/USDT', 'limit', 'sell', 0.005, 66000);
    expect([buy.status, sell.status]).toEqual(['open', 'open']);
    expect(held(fake, 'USDT')).toEqual({ free: '360', locked: '640' });
    expect(held(fake, 'BTC')).toEqual({ free: '0.005', locked: '0.005' });
    expect((await ex.fetchOpenOrders('BTC/USDT')).map((o) => o.id)).toEqual([buy.id, sell.id]);
    const balance = await ex.fetchBalance();
    expect([balance.USDT?.used, balance.BTC?.used]).toEqual([640, 0.005]);

    fake.setPrice('BTC/USDT', '64000.01'); // not there yet
    expect((await ex.fetchOrder(buy.id!, 'BTC/USDT')).status).toBe('open');
    fake.setPrice('BTC/USDT', '63900'); // through it: fills at its limit, 64000, not at 63900
    const filled = await ex.fetchOrder(buy.id!, 'BTC/USDT');
    expect([filled.status, filled.average, filled.filled, filled.cost]).toEqual(['closed', 64000, 0.01, 640]);
    const [trade] = await ex.fetchMyTrades('BTC/USDT', undefined, undefined, { orderId: buy.id });
    expect([trade?.takerOrMaker, trade?.price, trade?.fee?.cost, trade?.fee?.currency]).toEqual(['maker', 64000, 0.000008, 'BTC']);
    expect(held(fake, 'USDT')).toEqual({ free: '360', locked: '0' });
    expect(held(fake, 'BTC')).toEqual({ free: '0.014992', locked: '0.005' });

    fake.setPrice('BTC/USDT', '66000'); // the sell's level: 330 USDT less 0.08%
    expect((await ex.fetchOrder(sell.id!, 'BTC/USDT')).status).toBe('closed');
    expect(held(fake, 'USDT')).toEqual({ free: '689.736', locked: '0' });
    expect(held(fake, 'BTC')).toEqual({ free: '0.014992', locked: '0' });
    // A limit buy above the market takes at once, at the market's price, with the taker fee.
    const taker = await ex.createOrder('BTC/USDT', 'limit', 'buy', 0.001, 67000);
    expect([taker.status, taker.average, taker.fee?.cost]).toEqual(['closed', 66000, 0.000001]);
  });

  it('refuses a maker-only order that would cross, and rests one that would not', async () => {
    const { fake, ex } = await open();
    const crossing = await refusal(ex.createOrder('BTC/USDT', 'limit', 'buy', 0.001, 65000.01, { postOnly: true }));
    expect(crossing).toBeInstanceOf(OrderImmediatelyFillable);
    expect(crossing.message).toBe('binance Order would immediately match and take.'); // mapped by its text, before its code
    expect(fake.requests.at(-1)?.params.type).toBe('LIMIT_MAKER');
    expect(fake.book.orders).toHaveLength(0);
    expect(held(fake, 'USDT')).toEqual({ free: '10000', locked: '0' });
    const resting = await ex.createOrder('BTC/USDT', 'limit', 'buy', 0.001, 64999.99, { postOnly: true });
    expect([resting.postOnly, (await ex.fetchOrder(resting.id!, 'BTC/USDT')).status]).toEqual([true, 'open']);
    // Binance's filters (-1013). createOrder rounds price and amount to the market's tick and step first,
    // so an order off them is sent raw, through ccxt's signed implicit call.
    const raw = (price: string, quantity: string) => refusal(ex.privatePostOrder({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price, quantity }));
    for (const [price, quantity, filter] of [
      ['64999.999', '0.001', 'PRICE_FILTER'],
      ['60000', '0.000015', 'LOT_SIZE'],
    ]) {
      const off = await raw(price!, quantity!);
      expect(off).toBeInstanceOf(InvalidOrder);
      expect(off.message).toContain(`{"code":-1013,"msg":"Filter failure: ${filter}"}`);
    }
    const small = await refusal(ex.createOrder('BTC/USDT', 'limit', 'buy', 0.00001, 60000));
    expect(small.message).toContain('{"code":-1013,"msg":"Filter failure: NOTIONAL"}');
    expect(fake.book.orders).toHaveLength(1);
  });

  it('fills partially from the seeded volume model: a resting order over several prices, IOC and FOK at once', async () => {
    const { fake, ex } = await open({ volume: { perUpdate: '0.004' } });
    const order = await ex.createOrder('BTC/USDT', 'limit', 'buy', 0.01, 64000);
    fake.setPrice('BTC/USDT', '63900');
    const part = await ex.fetchOrder(order.id!, 'BTC/USDT');
    expect([part.status, part.filled, part.remaining, part.info.status]).toEqual(['open', 0.004, 0.006, 'PARTIALLY_FILLED']);
    expect(held(fake, 'USDT')).toEqual({ free: '9360', locked: '384' });
    fake.setPrice('BTC/USDT', '63950');
    fake.setPrice('BTC/USDT', '63800');
    expect((await ex.fetchOrder(order.id!, 'BTC/USDT')).status).toBe('closed');
    const trades = await ex.fetchMyTrades('BTC/USDT');
    expect(trades.map((t) => [t.id, t.amount, t.price])).toEqual([
      ['1', 0.004, 64000],
      ['2', 0.004, 64000],
      ['3', 0.002, 64000],
    ]);
    // The last price offered 0.004 and the order took 0.002: 0.002 is left for an order that crosses now.
    const ioc = await ex.createOrder('BTC/USDT', 'limit', 'buy', 0.01, 64000, { timeInForce: 'IOC' });
    expect([ioc.status, ioc.filled]).toEqual(['expired', 0.002]);
    fake.setPrice('BTC/USDT', '63800');
    const fok = await ex.createOrder('BTC/USDT', 'limit', 'buy', 0.01, 64000, { timeInForce: 'FOK' });
    expect([fok.status, fok.filled]).toEqual(['expired', 0]);
    expect(held(fake, 'USDT')).toEqual({ free: '9232.4', locked: '0' }); // 10000 - 640 - 0.002 x 63800

    // Seeded: the same script on the same seed fills the same amounts, jitter and all.
    const script = (seed: number) => {
      const book = new Book({
        markets: [{ base: 'BTC', quote: 'USDT', tickSize: '0.01', stepSize: '0.00001' }],
        prices: { BTCUSDT: '100' },
        balances: { USDT: '100000' },
        volume: { perUpdate: '1', jitter: 0.9 },
        seed,
        now: () => 0,
      });
      book.place({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: dec('10'), price: dec('99') });
      return ['98', '97', '96'].flatMap((p) => book.setPrice('BTCUSDT', p).map((t) => t.qty.toFixed()));
    };
    expect(script(42)).toEqual(script(42));
    expect(script(42)).not.toEqual(script(43));
  });

  it('cancels a resting order, by id or client id, and refuses to cancel it twice', async () => {
    const { fake, ex } = await open();
    const a = await ex.createOrder('BTC/USDT', 'limit', 'buy', 0.001, 60000, { clientOrderId: 'mine-1' });
    const b = await ex.createOrder('BTC/USDT', 'limit', 'sell', 0.0001, 70000).catch((e: Error) => e);
    expect(b).toBeInstanceOf(InsufficientFunds); // no BTC to sell
    const canceled = await ex.cancelOrder(a.id!, 'BTC/USDT');
    expect([canceled.status, canceled.info.origClientOrderId]).toEqual(['canceled', 'mine-1']);
    // Binance's cancel answer names the cancel request's own client id: ccxt reports that one.
    expect(canceled.clientOrderId).not.toBe('mine-1');
    expect(held(fake, 'USDT')).toEqual({ free: '10000', locked: '0' });
    const twice = await refusal(ex.cancelOrder(a.id!, 'BTC/USDT'));
    expect(twice).toBeInstanceOf(OrderNotFound);
    expect(twice.message).toContain('{"code":-2011,"msg":"Unknown order sent."}');
    // A canceled order's client id may be used again; then the query by client id finds the new one.
    const again = await ex.createOrder('BTC/USDT', 'limit', 'buy', 0.001, 61000, { clientOrderId: 'mine-1' });
    await ex.cancelOrder(again.id!, 'BTC/USDT', { clientOrderId: 'mine-1' });
    expect(await ex.fetchOrder(again.id!, 'BTC/USDT')).toMatchObject({ status: 'canceled', price: 61000 });
    expect(await ex.fetchOpenOrders('BTC/USDT')).toEqual([]);
  });

  it('a cancel that races a fill: the order filled first, the cancel is answered -2011', async () => {
    const { fake, ex } = await open({ fees: { maker: '0.0008' }, faults: [{ kind: 'fillBeforeCancel', times: 1 }] });
    const order = await ex.createOrder('BTC/USDT', 'limit', 'buy', 0.002, 64000);
    const lost = await refusal(ex.cancelOrder(order.id!, 'BTC/USDT'));
    expect(lost).toBeInstanceOf(OrderNotFound);
    expect(lost.message).toContain('Unknown order sent.');
    const seen = await ex.fetchOrder(order.id!, 'BTC/USDT');
    expect([seen.status, seen.filled, seen.average]).toEqual(['closed', 0.002, 64000]);
    expect(held(fake, 'BTC')).toEqual({ free: '0.0019984', locked: '0' }); // 0.002 less the 0.08% maker fee
    expect(held(fake, 'USDT')).toEqual({ free: '9872', locked: '0' });
  });

  it('a timeout after the order was accepted: LiveExchange finds it by client order id, and a resend makes no second order', async () => {
    const { fake, live } = await open({ faults: [{ kind: 'timeoutAfterAccept', mode: 'hold', holdMs: 5_000, times: 1 }] }, { timeout: 500 });
    const request = { clientOrderId: id(9), symbol: 'BTC/USDT', side: 'buy' as const, quote: money('50') };
    const lost = await refusal(live.placeMarketOrder(request));
    expect(lost).toBeInstanceOf(RequestTimeout); // a NetworkError: the outcome is unknown
    expect(fake.book.orders).toHaveLength(1);
    const found = await live.fetchOrder(request.clientOrderId, 'BTC/USDT');
    expect([found?.status, found?.filled.toFixed(), found?.cost.toFixed()]).toEqual(['closed', '0.00076', '49.4']);
    // Binance's order query carries no fills: the fee comes from the order's trades (in the coin bought).
    expect([found?.fee?.currency, found?.fee?.amount.toFixed()]).toEqual(['BTC', '0.00000076']);
    const resent = await live.placeMarketOrder(request);
    expect(resent).toMatchObject({ status: 'rejected', reason: expect.stringContaining('Duplicate order sent.') });
    expect(fake.book.orders).toHaveLength(1);

    // The connection dropped instead: a NetworkError all the same, and the order stands.
    fake.faults.add({ kind: 'timeoutAfterAccept', mode: 'drop', times: 1 });
    await expect(live.placeMarketOrder({ ...request, clientOrderId: id(10) })).rejects.toBeInstanceOf(NetworkError);
    expect((await live.fetchOrder(id(10), 'BTC/USDT'))?.status).toBe('closed');
    expect(fake.book.orders).toHaveLength(2);
  });

  it('429 and 418 with Retry-After are ccxt DDoSProtection (NetworkErrors); the weight limit answers 429 by itself', async () => {
    const t0 = Date.now();
    const { fake, ex } = await open({
      limits: { weightPerMinute: 25 },
      now: () => t0,
      faults: [{ kind: 'rateLimited', status: 429, retryAfterSeconds: 7, times: 1, match: { path: '/api/v3/ticker/24hr' } }],
    });
    await ex.loadMarkets(); // weight 20
    const limited = await refusal(ex.fetchTicker('BTC/USDT'));
    expect(limited).toBeInstanceOf(DDoSProtection);
    expect(limited).toBeInstanceOf(NetworkError);
    expect(limited.message).toContain('-1003');
    expect(ex.last_response_headers).toMatchObject({ 'Retry-After': '7', 'X-Mbx-Used-Weight-1m': '22' });
    await ex.fetchTicker('BTC/USDT'); // 24
    const over = await refusal(ex.fetchTicker('BTC/USDT')); // 26 > 25
    expect(over).toBeInstanceOf(DDoSProtection);
    expect(over.message).toContain('current limit is 25 request weight per 1 MINUTE');
    expect(ex.last_response_headers).toMatchObject({ 'Retry-After': String(Math.max(1, Math.ceil((Math.floor(t0 / 60_000) * 60_000 + 60_000 - t0) / 1000))) });

    fake.rates.limits.weightPerMinute = 6000;
    fake.faults.add({ kind: 'rateLimited', status: 418, retryAfterSeconds: 120, times: 1 });
    const ban = await refusal(ex.fetchTicker('BTC/USDT'));
    expect(ban).toBeInstanceOf(DDoSProtection);
    expect(ban.message).toContain('IP banned until');
    await expect(ex.fetchTicker('BTC/USDT')).resolves.toMatchObject({ last: 65000 });
  });

  it('5xx and 403: Binance -1001 in JSON is ccxt OperationFailed, a gateway page is ExchangeNotAvailable; an order behind a 5xx may stand', async () => {
    const { fake, ex, live } = await open();
    await ex.loadMarkets();
    fake.faults.add({ kind: 'serverError', status: 503, body: 'json', times: 1 });
    const internal = await refusal(ex.fetchBalance());
    expect(internal).toBeInstanceOf(OperationFailed);
    expect(internal).not.toBeInstanceOf(NetworkError);
    fake.faults.add({ kind: 'serverError', status: 502, body: 'html', processed: true, times: 1, match: { method: 'POST' } });
    const gateway = await refusal(live.placeMarketOrder({ clientOrderId: id(1), symbol: 'BTC/USDT', side: 'buy', quote: money('20') }));
    expect(gateway).toBeInstanceOf(ExchangeNotAvailable);
    expect((await live.fetchOrder(id(1), 'BTC/USDT'))?.status).toBe('closed'); // it was placed all the same
    // The firewall's 403.
    fake.faults.add({ kind: 'wafBlocked', times: 1 });
    await expect(ex.fetchTicker('BTC/USDT')).rejects.toBeInstanceOf(ExchangeNotAvailable);
    // For a period of the server's clock: every request fails until it lapses.
    fake.faults.add({ kind: 'serverError', status: 500, body: 'html', forMs: 60_000 });
    await expect(ex.fetchTicker('BTC/USDT')).rejects.toBeInstanceOf(ExchangeNotAvailable);
    await expect(ex.fetchTicker('BTC/USDT')).rejects.toBeInstanceOf(ExchangeNotAvailable);
    fake.clockSkewMs = 60_000;
    await expect(ex.fetchTicker('BTC/USDT')).resolves.toMatchObject({ last: 65000 });
  });

  it('-2013 for an order that exists: ccxt OrderNotFound for the next K queries; LiveExchange finds it among the recent orders', async () => {
    const { fake, ex, live } = await open({ fees: { taker: '0.001' } });
    await live.placeMarketOrder({ clientOrderId: id(1), symbol: 'BTC/USDT', side: 'buy', quote: money('20') });
    const clientId = live.clientId(id(1));
    fake.faults.add({ kind: 'orderNotFound', times: 2 });
    for (let i = 0; i < 2; i++) {
      const missing = await refusal(ex.fetchOrder('', 'BTC/USDT', { clientOrderId: clientId }));
      expect(missing).toBeInstanceOf(OrderNotFound);
      expect(missing.message).toContain('{"code":-2013,"msg":"Order does not exist."}');
    }
    expect((await ex.fetchOrder('', 'BTC/USDT', { clientOrderId: clientId })).clientOrderId).toBe(clientId);
    fake.faults.add({ kind: 'orderNotFound', times: 1 });
    const found = await live.fetchOrder(id(1), 'BTC/USDT');
    expect([found?.status, found?.filled.toFixed()]).toEqual(['closed', '0.0003']);
    // Then its trades, for the fee the order query does not carry.
    expect(calls(fake).slice(-4)).toEqual(['GET /api/v3/order', 'GET /api/v3/openOrders', 'GET /api/v3/allOrders', 'GET /api/v3/myTrades']);
  });

  // ccxt keeps the rejected promise of a failed first loadMarkets and hands it back on every later call
  // (base Exchange.loadMarkets): LiveExchange asks for a reload after a failure, or one 5xx at the first
  // load would leave that venue failing until the process restarts.
  it('after a failed first load of the markets, LiveExchange loads them again', async () => {
    const { fake, live } = await open({ faults: [{ kind: 'serverError', status: 502, body: 'html', times: 1 }] });
    await expect(live.market('BTC/USDT')).rejects.toBeInstanceOf(ExchangeNotAvailable);
    await expect(live.market('BTC/USDT')).resolves.toMatchObject({ symbol: 'BTC/USDT' });
    expect(calls(fake)).toEqual(['GET /api/v3/exchangeInfo', 'GET /api/v3/exchangeInfo']);
  });

  it('a balance that disagrees with the books, until the fault is lifted', async () => {
    const { fake, live } = await open();
    const skew = fake.faults.add({ kind: 'balanceSkew', balances: { USDT: { free: '1.5' } } });
    expect((await live.balance('USDT')).toFixed()).toBe('1.5');
    expect(held(fake, 'USDT').free).toBe('10000');
    fake.faults.remove(skew);
    expect((await live.balance('USDT')).toFixed()).toBe('10000');
  });

  it('latency per call: a slow answer past ccxt’s timeout is a RequestTimeout', async () => {
    const { fake, ex } = await open({}, { timeout: 250 });
    fake.faults.add({ kind: 'latency', ms: 2_000, times: 1, match: { path: '/api/v3/time' } });
    await expect(ex.fetchTime()).rejects.toBeInstanceOf(RequestTimeout);
    // Applied once, lapsed: on a loaded machine the client may give up before the request is even read, so
    // the fault is taken a moment after the timeout.
    await expect.poll(() => fake.faults.active()).toEqual([]);
    await expect(ex.fetchTime()).resolves.toEqual(expect.any(Number));
  });

  it('a restart forgets nothing: orders, balances, trades, client ids, on the same port or a new one', async () => {
    const { fake, ex } = await open();
    await ex.createOrder('BTC/USDT', 'market', 'buy', 0.001, undefined, { clientOrderId: 'keep-1' });
    const resting = await ex.createOrder('BTC/USDT', 'limit', 'buy', 0.001, 64000, { clientOrderId: 'keep-2' });
    const before = { usdt: held(fake, 'USDT'), btc: held(fake, 'BTC') };
    const url = fake.url;
    await fake.restart();
    expect(fake.url).toBe(url);
    expect((await ex.fetchOpenOrders('BTC/USDT')).map((o) => o.id)).toEqual([resting.id]);
    const balance = await ex.fetchBalance();
    expect([String(balance.USDT?.free), String(balance.USDT?.used), String(balance.BTC?.total)]).toEqual([before.usdt.free, before.usdt.locked, before.btc.free]);

    await fake.restart({ port: 0 });
    pointAt(ex, fake.url);
    fake.setPrice('BTC/USDT', '63000');
    expect((await ex.fetchOrder(resting.id!, 'BTC/USDT')).status).toBe('closed');
    expect((await ex.fetchMyTrades('BTC/USDT')).map((t) => t.id)).toEqual(['1', '2']);
    const dup = await refusal(ex.createOrder('BTC/USDT', 'market', 'buy', 0.001, undefined, { clientOrderId: 'keep-1' }));
    expect(dup).toBeInstanceOf(InvalidOrder);
    expect(dup.message).toContain('Duplicate order sent.');
  });
});
