import type Decimal from 'decimal.js';
import { describe, expect, it } from 'vitest';
import { type CandleColumns, walkKit, type WalkedKit } from './backtest.ts';
import type { CustomFeed } from './custom/feed.ts';
import type { CandleClosed } from './custom/strategy.ts';
import type { MarketRules } from './core/market.ts';
import { money } from './money.ts';
import { botId, clientOrderId, type Intent, type OrderFilled, type PriceTicked, type Triggers } from './types.ts';

const market: MarketRules = { tickSize: money('0.01'), stepSize: money('0.01'), minAmount: money('0.01'), minCost: money('1'), feeRate: money('0') };
const view = { market };

/** A toy bot: it buys 100 of quote when it may, then sells all at 110 or, trailing, 5 below its high. */
interface Toy {
  phase: 'waiting' | 'holding' | 'done';
  realized: Decimal;
  amount: Decimal;
  high: Decimal | null;
  seq: number;
}

/** The prices (and times) the toy was asked at, as "price@time". */
function toyKit(options: { after?: number; trailing?: boolean; candles?: boolean }): { kit: WalkedKit<Toy, typeof view>; asked: string[]; closes: number[] } {
  const asked: string[] = [];
  const closes: number[] = [];
  const place = (s: Toy, side: 'buy' | 'sell'): { state: Toy; intents: Intent[] } => ({
    state: { ...s, seq: s.seq + 1 },
    intents: [
      {
        type: 'PlaceOrder',
        clientOrderId: clientOrderId(botId('toy'), 1, s.seq + 1),
        side,
        ...(side === 'buy' ? { quote: money(100) } : { amount: s.amount }),
        reason: side === 'buy' ? 'open' : 'close',
      },
    ],
  });
  const onPrice = (s: Toy, e: PriceTicked) => {
    asked.push(`${e.price.toFixed()}@${e.at ?? '-'}`);
    if (s.phase === 'waiting') return options.candles ? { state: s, intents: [] } : place(s, 'buy');
    if (s.phase !== 'holding') return { state: s, intents: [] };
    if (!options.trailing) return e.price.gte(110) ? place(s, 'sell') : { state: s, intents: [] };
    if (s.high && e.price.lte(s.high.minus(5))) return place(s, 'sell');
    return s.high && e.price.lte(s.high) ? { state: s, intents: [] } : { state: { ...s, high: e.price }, intents: [] };
  };
  const onFill = (s: Toy, e: OrderFilled): Toy =>
    e.side === 'buy' ? { ...s, phase: 'holding', amount: e.amount, high: options.trailing ? e.price : null } : { ...s, phase: 'done', realized: e.price.mul(e.amount).minus(100) };
  const feed = { timeframes: () => [], seed: () => undefined } as unknown as CustomFeed;
  const kit: WalkedKit<Toy, typeof view> = {
    initial: () => ({ phase: 'waiting', realized: money(0), amount: money(0), high: null, seq: 0 }),
    decide: (s, e) => (e.type === 'PriceTicked' ? onPrice(s, e) : { state: onFill(s, e), intents: [] }),
    triggers(s): Triggers {
      if (s.phase === 'waiting') return { up: Infinity, down: -Infinity, asks: !options.candles, ...(options.after !== undefined ? { after: options.after } : {}) };
      if (s.phase !== 'holding') return { up: Infinity, down: -Infinity, asks: false };
      // Trailing: asked above the high (no up trigger of its own) and at the line 5 below it.
      if (options.trailing) return { up: Number(s.high!.toString()), down: Number(s.high!.toString()) - 5, asks: false, upAt: null, downAt: s.high!.minus(5) };
      return { up: 110, down: -Infinity, asks: false, upAt: money(110), downAt: null };
    },
    ...(options.candles
      ? {
          indicators: {
            feed: () => feed,
            closed: (s: Toy, c: CandleClosed) => {
              closes.push(c.time);
              return s.phase === 'waiting' && c.close < 100 ? place(s, 'buy') : { state: s, intents: [] };
            },
          },
        }
      : {}),
  };
  return { kit, asked, closes };
}

/** Rows of open, high, low, close, a minute apart from time 0. */
const candles = (rows: [number, number, number, number][]): CandleColumns & { time: Float64Array } => ({
  time: Float64Array.from(rows, (_, i) => i * 60_000),
  open: Float64Array.from(rows, (r) => r[0]),
  high: Float64Array.from(rows, (r) => r[1]),
  low: Float64Array.from(rows, (r) => r[2]),
  close: Float64Array.from(rows, (r) => r[3]),
});
const exact = { slippage: '0' };

/** The one walker asks a bot only through its kit: each input it reads, on a toy kit that is no bot type. */
describe('the one walker reads what a kit tells it', () => {
  it('a clock: a bot waiting to open is not asked before `after`, then at the next open, with its time', () => {
    const toy = toyKit({ after: 120_000 });
    const run = walkKit(
      toy.kit,
      view,
      candles([
        [100, 101, 99, 100],
        [100, 101, 99, 100],
        [102, 103, 101, 102],
        [102, 111, 101, 110],
      ]),
      exact,
    );
    expect(toy.asked[0]).toBe('102@120000');
    expect(run.fills.map((f) => `${f.candle} ${f.side} @ ${f.price}`)).toEqual(['2 buy @ 102', '3 sell @ 110']);
  });

  it('a followed high: raised to the top of each rise, sold at its line on the fall', () => {
    const toy = toyKit({ trailing: true });
    const run = walkKit(
      toy.kit,
      view,
      candles([
        [100, 100, 100, 100],
        [100, 108, 99, 107],
        [107, 112, 106, 111],
        [111, 111, 104, 105],
      ]),
      exact,
    );
    // Opened at 100 and asked there again after the fill; the rises' tops 108 and 112 raise the high (the
    // lines 103 and 107 are not reached by the falls to 99 and 106 before them); the fall from 111 reaches
    // the line 107 and sells there.
    expect(toy.asked).toEqual(['100@0', '100@0', '108@60000', '112@120000', '107@180000']);
    expect(run.fills.map((f) => `${f.candle} ${f.side} @ ${f.price}`)).toEqual(['0 buy @ 100', '3 sell @ 107']);
  });

  it('candles: a kit with a feed is told each close after its path, and an order placed there fills at the close', () => {
    const toy = toyKit({ candles: true });
    const run = walkKit(
      toy.kit,
      view,
      candles([
        [101, 102, 100, 101],
        [101, 101, 98, 99],
        [99, 111, 99, 110],
        [110, 110, 109, 109],
      ]),
      exact,
    );
    // Waiting, it is asked at no price: the close of candle 1 buys (asked again at 99), the rise of candle 2
    // sells at 110, and the walk ends with the bot done, before that candle's close.
    expect(toy.closes).toEqual([0, 60_000]);
    expect(toy.asked).toEqual(['99@-', '110@-']);
    expect(run.fills.map((f) => `${f.candle} ${f.side} @ ${f.price}`)).toEqual(['1 buy @ 99', '2 sell @ 110']);
  });
});
