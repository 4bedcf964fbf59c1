import { describe, expect, it } from 'vitest';
import { money } from '../../strategy/money.ts';
import { BotBook } from './bot-book.ts';
import { botId } from '../../strategy/types.ts';
import { decideMartin, initialMartinState, type MartinState } from '../../strategy/martin/strategy.ts';
import type { MartinParams } from '../../strategy/martin/rules.ts';
import type { MarketRules } from '../../strategy/core/market.ts';

const market: MarketRules = { tickSize: money('0.01'), stepSize: money('0.00001'), minAmount: money('0.00001'), minCost: money('5'), feeRate: money('0.001') };
const params: MartinParams = { investment: '700', firstOrder: '100', multiplier: '2', maxPositions: 3, addTrigger: '2', takeProfit: '1.5', stopLoss: '10', repeat: true };
const view = { params, market };

/** A bot holding one fill at `price` (next add at -2%, take profit at +1.5%). */
function holding(id: string, price: string): MartinState {
  const opened = decideMartin(initialMartinState(botId(id)), { type: 'PriceTicked', price: money(price) }, view).state;
  return decideMartin(opened, { type: 'OrderFilled', clientOrderId: opened.pending!.id, side: 'buy', price: money(price), amount: money('0.00166') }, view).state;
}

describe('the bot book', () => {
  it('asks only the bots whose triggers a price crosses, and opens waiting bots', () => {
    const book = new BotBook();
    book.put('BTC/USDT', holding('a', '60000'), view); // add <= 58800, tp >= 60900
    book.put('BTC/USDT', holding('b', '59000'), view); // add <= 57820, tp >= 59885
    book.put('BTC/USDT', initialMartinState(botId('c')), view);
    book.put('ETH/USDT', holding('d', '60000'), view);
    const first = book.onPrice('BTC/USDT', money('59500'));
    expect(first.map((x) => [x.bot, x.intents.map((i) => i.type === 'PlaceOrder' && i.reason)])).toEqual([['c', ['open']]]);
    const second = book.onPrice('BTC/USDT', money('58800'));
    expect(second.map((x) => [x.bot, x.intents.map((i) => i.type === 'PlaceOrder' && i.reason)])).toEqual([['a', ['add']]]);
    // a's order is in flight now: it is not asked again; b takes profit at 59885 or above.
    const third = book.onPrice('BTC/USDT', money('60000'));
    expect(third.map((x) => x.bot)).toEqual(['b']);
    expect(book.get('BTC/USDT', botId('a'))!.pending).not.toBeNull();
    expect(book.size()).toBe(4);
  });

  it('decides a crossed trigger at the trigger price itself, as the backtest does, and a waiting bot at the round’s price', () => {
    const book = new BotBook();
    book.put('BTC/USDT', holding('a', '60000'), view); // add <= 58800, tp >= 60900
    book.put('BTC/USDT', holding('b', '59000'), view); // add <= 57820, tp >= 59885
    book.put('BTC/USDT', initialMartinState(botId('c')), view);
    const seen = (round: ReturnType<BotBook['onPrice']>) => round.map((x) => [x.bot, x.price.toFixed(), x.atTrigger, x.intents.map((i) => i.type === 'PlaceOrder' && i.reason)]);
    // The round's price jumped to 58000: a's add at 58800 is passed (b's at 57820 is not); c opens at 58000.
    expect(seen(book.onPrice('BTC/USDT', money('58000')))).toEqual([
      ['a', '58800', true, ['add']],
      ['c', '58000', false, ['open']],
    ]);
    // 61000 passes b's take profit (59885).
    expect(seen(book.onPrice('BTC/USDT', money('61000')))).toEqual([['b', '59885', true, ['close']]]);
  });

  it('arms a trailing take profit at its price and follows the round’s price past it from that round on', () => {
    // A 0.5 % trailing take profit: a round at 61500 passes the take profit 60900 (no order: it arms).
    const trailing = { params: { ...params, trailingDeviation: '0.5' }, market };
    const book = new BotBook();
    const bot = decideMartin(holding('t', '60000'), { type: 'PriceTicked', price: money('60000') }, trailing).state;
    book.put('BTC/USDT', bot, trailing);
    const round = book.onPrice('BTC/USDT', money('61500'));
    expect(round.map((x) => [x.price.toFixed(), x.atTrigger, x.intents.some((i) => i.type === 'PlaceOrder')])).toEqual([['60900', true, false]]);
    // The high is the round's 61500, as the backtest's rise past the take profit goes on to its top, not 60900.
    expect((book.get('BTC/USDT', botId('t')) as MartinState).trail?.toFixed()).toBe('61500');
  });

  it('names the state the engine put with every decision, through the rounds the book moved the bot on by itself', () => {
    const trailing = { params: { ...params, trailingDeviation: '0.5' }, market };
    const book = new BotBook();
    const put = decideMartin(holding('t', '60000'), { type: 'PriceTicked', price: money('60000') }, trailing).state;
    book.put('BTC/USDT', put, trailing);
    // Arms the trailing exit (the book's state moves on, no order), then follows the high: every decision names the state put.
    expect(book.onPrice('BTC/USDT', money('61500')).map((x) => x.base)).toEqual([put]);
    expect(book.get('BTC/USDT', botId('t'))).not.toBe(put);
    const fired = book.onPrice('BTC/USDT', money('61000'));
    expect(fired.map((x) => [x.base, x.intents.some((i) => i.type === 'PlaceOrder')])).toEqual([[put, true]]);
    // Put again (the engine's state after the exit's commit): decisions name that one from then on.
    const after = book.get('BTC/USDT', botId('t'))!;
    book.put('BTC/USDT', after, trailing);
    expect(book.onPrice('BTC/USDT', money('62000')).every((x) => x.base === after)).toBe(true);
  });

  it('agrees with asking the strategy for every bot at every price', () => {
    const book = new BotBook();
    const states = new Map<string, MartinState>();
    for (let i = 0; i < 200; i++) {
      const s = holding(`x${i}`, String(55000 + i * 50));
      book.put('BTC/USDT', s, view);
      states.set(`x${i}`, s);
    }
    for (const p of ['56000', '57123.45', '61000', '54000']) {
      const fast = book
        .onPrice('BTC/USDT', money(p))
        .map((x) => x.bot as string)
        .sort();
      const slow: string[] = [];
      for (const [id, s] of states) {
        const out = decideMartin(s, { type: 'PriceTicked', price: money(p) }, view);
        states.set(id, out.state);
        if (out.intents.length > 0) slow.push(id);
      }
      expect(fast).toEqual(slow.sort());
    }
  });
});
