import { describe, expect, it } from 'vitest';
import { buyAmount as buyAmountOf } from '../core/position.ts';
import { money, toPlain } from '../money.ts';
import { botId, type Intent } from '../types.ts';
import { backtestCustom } from './backtest.ts';
import { explainCustom, explainText } from './explain.ts';
import { customKit } from './kit.ts';
import { CustomFeed, MinuteBuilder, warmUpCandles, type Candle } from './feed.ts';
import { bollingerStream, changeStream, emaStream, macdStream, rsiStream, smaStream } from './indicators.ts';
import { validateCustom, type CustomParams } from './rules.ts';
import { decodeCustom, encodeCustom } from './state-codec.ts';
import { customLines, customTriggers, decideCustom, feedOf, initialCustomState, retargetCustom, type CustomState, type CustomView } from './strategy.ts';

const T0 = Date.UTC(2026, 0, 1);
const MIN = 60_000;
const market = { tickSize: money('0.01'), stepSize: money('0.001'), minAmount: money('0.001'), minCost: money('5'), feeRate: money('0.001') };

/** Hand-made 1-minute candles from closes: each opens at the previous close, high and low 0.5 beyond. */
function candlesOf(closes: number[], start = T0): Candle[] {
  return closes.map((c, i) => {
    const o = i === 0 ? c : closes[i - 1]!;
    return { time: start + i * MIN, open: o, high: Math.max(o, c) + 0.5, low: Math.min(o, c) - 0.5, close: c };
  });
}
const columns = (rows: Candle[]) => {
  const col = (k: keyof Candle) => Float64Array.from(rows, (r) => r[k]);
  return { time: col('time'), open: col('open'), high: col('high'), low: col('low'), close: col('close') };
};

// README.md "Worked example".
const rsi3 = { kind: 'rsi', period: 3, timeframe: '1m' } as const;
const example: CustomParams = {
  investment: '100',
  size: { kind: 'fixed', quote: '100' },
  entry: { join: 'and', conditions: [{ left: rsi3, op: '<', right: { kind: 'value', value: '30' } }] },
  exit: { join: 'or', conditions: [{ left: rsi3, op: '>', right: { kind: 'value', value: '70' } }] },
  stopLoss: '5',
  repeat: true,
};
const exampleCloses = [100, 102, 101, 103, 100, 97, 96, 99, 102, 104];

describe('custom bot: the worked example (README.md)', () => {
  it('computes RSI(3, 1m) number by number', () => {
    const feed = new CustomFeed(example);
    const seen = candlesOf(exampleCloses).map((k) => {
      feed.push(k.time, k.open, k.high, k.low, k.close);
      return { rsi: feed.values[1]!, entry: feed.entryHolds, exit: feed.exitHolds };
    });
    // gains/losses of the first 3 changes (+2, -1, +2): 4/3 and 1/3 -> RS 4 -> 80; then each smoothed by 1/3.
    const expected = [Number.NaN, Number.NaN, Number.NaN, 80, 800 / 19, 1600 / 65, 3200 / 157, 30700 / 557, 134300 / 1843, 414400 / 5144];
    seen.forEach((s, i) => {
      if (Number.isNaN(expected[i]!)) expect(s.rsi).toBeNaN();
      else expect(s.rsi).toBeCloseTo(expected[i]!, 10);
    });
    expect(seen.map((s) => s.rsi.toFixed(2))).toEqual(['NaN', 'NaN', 'NaN', '80.00', '42.11', '24.62', '20.38', '55.12', '72.87', '80.56']);
    expect(seen.map((s) => s.entry)).toEqual([false, false, false, false, false, true, true, false, false, false]);
    expect(seen.map((s) => s.exit)).toEqual([false, false, false, true, false, false, false, false, true, true]);
  });

  it('buys at the close of candle 5 and sells at the close of candle 8', () => {
    const run = backtestCustom({ params: example, market }, columns(candlesOf(exampleCloses)), { slippage: '0' });
    expect(run.fills).toEqual([
      { candle: 5, reason: 'open', side: 'buy', price: '97', amount: '1.03' },
      { candle: 8, reason: 'exit_rule', side: 'sell', price: '102', amount: '1.028' },
    ]);
    // held 1.03 x 0.999 = 1.02897, sold 1.028; proceeds 1.028 x 102 x 0.999 = 104.751144;
    // 99.91 spent: the books are in the quote, and the 0.00097 left is carried at no cost.
    expect(run.realized).toBe('4.841144');
    expect(run.cycles).toBe(1);
    expect(run.state.carry.toFixed()).toBe('0.00097');
    expect(run.state.carryCost.toFixed()).toBe('0');
    expect(run.state.phase).toBe('waiting');
  });

  it('explains the rule as parts, and in English', () => {
    const e = explainCustom(example);
    expect(e.entry).toEqual([{ indicator: 'rsi', period: 3, timeframe: '1m' }, '<', 30]);
    expect(explainText(e.exit!)).toBe('RSI(3, 1m) > 70');
    expect(e.stopLoss).toBe(5);
    const spec = explainCustom({
      ...example,
      entry: {
        join: 'and',
        conditions: [
          { left: { kind: 'rsi', period: 14, timeframe: '1h' }, op: '<', right: { kind: 'value', value: '30' } },
          { left: { kind: 'price' }, op: '>', right: { kind: 'ema', period: 200, timeframe: '1h' } },
        ],
      },
    });
    expect(spec.entry).toEqual([{ indicator: 'rsi', period: 14, timeframe: '1h' }, '<', 30, 'and', 'price', '>', { indicator: 'ema', period: 200, timeframe: '1h' }]);
    expect(explainText(spec.entry)).toBe('RSI(14, 1h) < 30 and price > EMA(200, 1h)');
  });
});

describe('custom bot: indicators as the library computes them', () => {
  const closes = [10, 11, 12, 11, 13, 14, 13, 15];
  const run = <R>(s: { add: (c: number) => R | null }) => closes.map((c) => s.add(c));
  it('SMA, EMA seeded with the SMA, Wilder RSI', () => {
    expect(run(smaStream(3))).toEqual([null, null, 11, 34 / 3, 12, 38 / 3, 40 / 3, 14]);
    const ema = run(emaStream(3));
    expect(ema.slice(0, 2)).toEqual([null, null]);
    let e = 11;
    for (let i = 3; i < closes.length; i++) {
      e = closes[i]! * 0.5 + e * 0.5;
      expect(ema[i]).toBeCloseTo(e, 12);
    }
    // first 3 changes +1 +1 -1: gain 2/3, loss 1/3 -> 66.67
    expect(run(rsiStream(3))[3]).toBeCloseTo(200 / 3, 12);
  });
  it('Bollinger bands: mean +- k population standard deviations', () => {
    const bb = run(bollingerStream(4, 2));
    // last 4 closes of index 4: 11, 12, 11, 13: mean 11.75, variance (0.5625 + 0.0625 + 0.5625 + 1.5625) / 4
    const sd = Math.sqrt(2.75 / 4);
    expect(bb[4]!.middle).toBeCloseTo(11.75, 12);
    expect(bb[4]!.upper).toBeCloseTo(11.75 + 2 * sd, 12);
    expect(bb[4]!.lower).toBeCloseTo(11.75 - 2 * sd, 12);
  });
  it('MACD from EMAs started at their first input; change in percent', () => {
    const m = run(macdStream(2, 3, 2));
    const ema = (k: number) => {
      let v = closes[0]!;
      return closes.map((c, i) => (v = i === 0 ? c : c * (2 / (k + 1)) + v * (1 - 2 / (k + 1))));
    };
    const macd = ema(2).map((f, i) => f - ema(3)[i]!);
    expect(m[1]).toBeNull();
    expect(m[2]!.macd).toBeCloseTo(macd[2]!, 12);
    expect(m[2]!.signal).toBeCloseTo(macd[2]!, 12); // the signal EMA starts at the first MACD
    const signal3 = macd[3]! * (2 / 3) + macd[2]! * (1 / 3);
    expect(m[3]!.signal).toBeCloseTo(signal3, 12);
    expect(m[3]!.histogram).toBeCloseTo(macd[3]! - signal3, 12);
    expect(run(changeStream(2))[2]).toBeCloseTo(20, 12); // 10 -> 12
  });
});

describe('custom bot: candles of each timeframe from 1-minute candles', () => {
  const sma2on5m: CustomParams = {
    ...example,
    entry: { join: 'and', conditions: [{ left: { kind: 'sma', period: 2, timeframe: '5m' }, op: '>', right: { kind: 'value', value: '0' } }] },
    exit: undefined,
  };
  it('closes a 5-minute candle with its last minute, UTC-aligned, and skips gaps', () => {
    const feed = new CustomFeed(sma2on5m);
    const closes = Array.from({ length: 12 }, (_, i) => 100 + i);
    const rows = candlesOf(closes, T0 + 2 * MIN); // starts at :02: the first bucket :00-:04 has 3 minutes
    const sma: number[] = [];
    for (const k of rows) {
      feed.push(k.time, k.open, k.high, k.low, k.close);
      sma.push(feed.values[1]!);
    }
    // buckets close at :04 (close 102), :09 (107), then :10-:13 is open; SMA(2) from the second
    expect(sma.map((x) => (Number.isNaN(x) ? null : x))).toEqual([null, null, null, null, null, null, null, 104.5, 104.5, 104.5, 104.5, 104.5]);
    // a gap: the :10 bucket's last minute (:14) never comes; a minute at :16 closes it (close 111)
    feed.push(T0 + 16 * MIN, 111, 111, 111, 111.5);
    expect(feed.values[1]).toBe((107 + 111) / 2);
    expect(feed.push(T0 + 16 * MIN, 1, 1, 1, 1)).toBe(false); // a minute already taken
  });
  it('warms up from the timeframe own candles, then takes the minutes after them', () => {
    const feed = new CustomFeed(sma2on5m);
    expect(feed.timeframes()).toEqual(['5m']);
    feed.seed('5m', [
      { time: T0, open: 1, high: 1, low: 1, close: 90 },
      { time: T0 + 5 * MIN, open: 1, high: 1, low: 1, close: 100 },
    ]);
    expect(feed.values[1]).toBe(95);
    for (const k of candlesOf([101, 102, 103, 104, 110], T0 + 10 * MIN)) feed.push(k.time, k.open, k.high, k.low, k.close);
    expect(feed.values[1]).toBe(105);
    expect(warmUpCandles(sma2on5m)).toEqual({ '5m': 2 });
    expect(warmUpCandles({ entry: { join: 'and', conditions: [{ left: { kind: 'rsi', period: 14, timeframe: '1h' }, op: '<', right: { kind: 'ema', period: 200, timeframe: '1h' } }] } })).toEqual({
      '1h': 1200,
    });
  });
  it('takes a minute its own seed already holds once: a live warm-up pushes the minutes of a longer timeframe’s open candle', () => {
    // A 1-minute SMA(4) beside a 5-minute one: the live warm-up (server/market/custom-history.ts) seeds each
    // timeframe, then pushes the minutes since the 5-minute candle opened, which the 1-minute seed holds.
    const both: CustomParams = {
      ...example,
      entry: { join: 'and', conditions: [{ left: { kind: 'sma', period: 4, timeframe: '1m' }, op: '<', right: { kind: 'sma', period: 2, timeframe: '5m' } }] },
      exit: undefined,
    };
    const seeded = new CustomFeed(both);
    const minutes = candlesOf([100, 101, 102, 103, 104, 105, 106, 107], T0);
    seeded.seed('1m', minutes.slice(0, 7));
    seeded.seed('5m', [{ time: T0, open: 1, high: 1, low: 1, close: 104 }]);
    for (const k of minutes.slice(5)) seeded.push(k.time, k.open, k.high, k.low, k.close);
    // The minutes :05 and :06 were in the 1-minute seed: taken again, the SMA would be (106 + 105 + 106 + 107) / 4.
    expect(seeded.values[1]).toBe((104 + 105 + 106 + 107) / 4);
    // And the 5-minute candle :05-:09 has all three of them.
    const pushed = new CustomFeed(both);
    for (const k of minutes) pushed.push(k.time, k.open, k.high, k.low, k.close);
    expect(pushed.values[1]).toBe((104 + 105 + 106 + 107) / 4);
    expect(seeded.snapshot('entry')).toEqual(pushed.snapshot('entry'));
  });
  it('builds the same minutes from live prices: the same values as the backtest', () => {
    const rows = candlesOf(exampleCloses);
    const backtest = new CustomFeed(example);
    const live = new CustomFeed(example);
    const minutes = new MinuteBuilder();
    const a: number[] = [];
    const b: number[] = [];
    for (const k of rows) {
      backtest.push(k.time, k.open, k.high, k.low, k.close);
      a.push(backtest.values[1]!);
    }
    // four prices a minute: open, low, high, close (a red candle's high first)
    for (const k of rows) {
      const path = k.close >= k.open ? [k.open, k.low, k.high, k.close] : [k.open, k.high, k.low, k.close];
      path.forEach((p, j) => {
        const closed = minutes.add(k.time + j * 15_000, p);
        if (closed) {
          live.push(closed.time, closed.open, closed.high, closed.low, closed.close);
          b.push(live.values[1]!);
        }
      });
    }
    const last = minutes.add(T0 + rows.length * MIN, 1)!;
    live.push(last.time, last.open, last.high, last.low, last.close);
    b.push(live.values[1]!);
    expect(b).toEqual(a);
    expect(last).toEqual(rows[rows.length - 1]);
  });
});

describe('custom bot: decide, exits and stored state', () => {
  const view: CustomView = { params: { ...example, takeProfit: '3', stopLoss: '5' }, market };
  const fill = (s: CustomState, intents: Intent[], price: string) => {
    const o = intents.find((i) => i.type === 'PlaceOrder')!;
    if (o.type !== 'PlaceOrder') throw new Error('no order');
    const amount = o.side === 'buy' ? o.quote!.div(price).toDecimalPlaces(3, 1) : o.amount!;
    return decideCustom(s, { type: 'OrderFilled', clientOrderId: o.clientOrderId, side: o.side, price: money(price), amount }, view);
  };
  it('opens on the entry rule, then takes profit at its price on the path', () => {
    let s = initialCustomState(botId('b1'));
    let out: ReturnType<typeof decideCustom> = { state: s, intents: [] };
    for (const k of candlesOf(exampleCloses.slice(0, 6))) {
      out = decideCustom(s, { type: 'CandleClosed', ...k }, view);
      s = out.state;
    }
    expect(out.intents).toEqual([{ type: 'PlaceOrder', clientOrderId: 'b1-1-1', side: 'buy', quote: money(100), reason: 'open' }]);
    s = fill(s, out.intents, '97').state;
    // take profit ceil(97 x 1.03) = 99.91, stop loss floor(97 x 0.95) = 92.15
    expect(s.targets!.takeProfit!.toFixed()).toBe('99.91');
    expect(s.targets!.stopLoss!.toFixed()).toBe('92.15');
    expect(decideCustom(s, { type: 'PriceTicked', price: money('99.9') }, view).intents).toEqual([]);
    const tp = decideCustom(s, { type: 'PriceTicked', price: money('99.91') }, view);
    expect(tp.intents[0]).toMatchObject({ side: 'sell', amount: money('1.028'), reason: 'close' });
    // the backtest fills it at 99.91 inside candle 8 (its low 98.5 -> high 102.5 passes it), not at the high or the close
    const run = backtestCustom(view, columns(candlesOf(exampleCloses)), { slippage: '0' });
    expect(run.fills.map((f) => [f.candle, f.reason, f.price])).toEqual([
      [5, 'open', '97'],
      [8, 'close', '99.91'],
    ]);
  });
  it('stores its state as decimal strings and rebuilds the feed on load', () => {
    const run = backtestCustom(view, columns(candlesOf(exampleCloses.slice(0, 7))), { slippage: '0' });
    const stored = JSON.parse(JSON.stringify(encodeCustom(run.state)));
    expect(stored).toEqual({ phase: 'holding', cycle: 1, seq: 1, fills: [{ price: '97', amount: '1.03' }], pending: null, realized: '0', carry: '0', carryCost: '0' });
    const loaded = decodeCustom('backtest', stored, view);
    expect(loaded.targets!.takeProfit!.toFixed()).toBe('99.91');
    expect(loaded.feed).toBeNull();
    expect(feedOf(loaded, view).last).toBe(-Infinity);
    // the same rules keep the feed; new rules drop it (warmed up again)
    expect(retargetCustom(run.state, view).feed).toBe(run.state.feed);
    expect(retargetCustom(run.state, { ...view, params: { ...view.params, exit: undefined } }).feed).toBeNull();
  });
  it('sells by hand, pauses on a rejection, and ignores a minute it has seen', () => {
    let s = initialCustomState(botId('b2'));
    for (const k of candlesOf(exampleCloses.slice(0, 6))) s = decideCustom(s, { type: 'CandleClosed', ...k }, view).state;
    expect(s.pending?.reason).toBe('open');
    const rejected = decideCustom(s, { type: 'OrderRejected', clientOrderId: s.pending!.id, reason: 'InsufficientBalance' }, view);
    expect(rejected.intents).toEqual([{ type: 'PauseBot', reason: 'InsufficientBalance' }]);
    expect(decideCustom(rejected.state, { type: 'CandleClosed', ...candlesOf(exampleCloses)[5]! }, view).intents).toEqual([]);
  });
});

describe('custom bot: trailing exits (README.md "Trailing exits")', () => {
  // The worked example's coin and entry (RSI(3, 1m) < 30: 1.030 @ 97 at candle 5), no sell rule; take
  // profit 3 % trailing 1 %, stop loss 5 % trailing; two more candles: 104 and 101.
  const trailing: CustomParams = { ...example, exit: undefined, takeProfit: '3', trailingDeviation: '1', stopLoss: '5', trailingStop: true };
  const closes = [...exampleCloses, 101];
  const view: CustomView = { params: trailing, market };
  const said = (intents: Intent[]) =>
    intents.map((i) =>
      i.type === 'TrailingMoved'
        ? `${i.exit} ${i.step} ${toPlain(i.high)} ${toPlain(i.line)}`
        : i.type === 'PlaceOrder'
          ? `${i.reason} ${i.side} ${i.amount ? toPlain(i.amount) : toPlain(i.quote!)}`
          : i.type,
    );

  it('arms at the take-profit price, follows the high, sells at the line; the stop follows the high since the entry (the README table)', () => {
    let s = initialCustomState(botId('t1'));
    let out: ReturnType<typeof decideCustom> = { state: s, intents: [] };
    for (const k of candlesOf(closes.slice(0, 6))) {
      out = decideCustom(s, { type: 'CandleClosed', ...k }, view);
      s = out.state;
    }
    expect(said(out.intents)).toEqual(['open buy 100']);
    s = decideCustom(s, { type: 'OrderFilled', clientOrderId: s.pending!.id, side: 'buy', price: money('97'), amount: money('1.03') }, view).state;
    // take profit ceil(97 x 1.03) = 99.91; the stop floor(97 x 0.95) = 92.15, the high since the entry 97
    expect(customLines(s, view)).toEqual({ armed: null, stop: money('92.15'), stopHigh: money('97') });
    const ask = (price: string) => {
      const asked = decideCustom(s, { type: 'PriceTicked', price: money(price) }, view);
      s = asked.state;
      return said(asked.intents);
    };
    expect(ask('97.5')).toEqual(['stop_loss raised 97.5 92.62']); // floor(97.5 x 0.95)
    expect(ask('95.5')).toEqual([]);
    expect(ask('99.5')).toEqual(['stop_loss raised 99.5 94.52']);
    // Armed at 99.91: line floor(99.91 x 0.99) = 98.91 (below the take profit: no floor at it).
    expect(ask('99.91')).toEqual(['take_profit armed 99.91 98.91', 'stop_loss raised 99.91 94.91']);
    expect(ask('102.5')).toEqual(['take_profit raised 102.5 101.47', 'stop_loss raised 102.5 97.37']);
    expect(ask('101.5')).toEqual([]); // 0.03 above the line
    expect(ask('104.5')).toEqual(['take_profit raised 104.5 103.45', 'stop_loss raised 104.5 99.27']);
    // What the detail draws and the engine's book asks at: the line 103.45 over the stop 99.27; any price above 104.5.
    expect(customLines(s, view)).toEqual({ armed: { high: money('104.5'), line: money('103.45') }, stop: money('99.27'), stopHigh: money('104.5') });
    expect(customTriggers(s, view)).toEqual({ up: null, down: money('103.45'), follow: money('104.5') });
    expect(customKit.triggers(s, view)).toEqual({ up: 104.5, down: 103.45, asks: true, upAt: null, downAt: money('103.45') });
    // Stored and loaded (a restart), it keeps both highs.
    const stored = JSON.parse(JSON.stringify(encodeCustom(s)));
    expect(stored).toMatchObject({ trail: '104.5', stopHigh: '104.5' });
    s = decodeCustom('t1', stored, view);
    expect(ask('103.46')).toEqual([]);
    expect(ask('103.45')).toEqual(['take_profit fired 104.5 103.45', 'close sell 1.028']);
    const sold = decideCustom(s, { type: 'OrderFilled', clientOrderId: s.pending!.id, side: 'sell', price: money('103.45'), amount: money('1.028') }, view);
    // 1.028 x 103.45 x 0.999 = 106.2402534, less the 99.91 spent
    expect(sold.intents).toEqual([{ type: 'CycleClosed', cycle: 1, profit: money('6.3302534') }]);
    expect([sold.state.trail, sold.state.stopHigh, sold.state.targets]).toEqual([null, null, null]);
  });

  it('the backtest sells where asking at every price does: the trailing line, the trailing stop, or the plain take profit', () => {
    const run = (p: Partial<CustomParams>) => {
      const r = backtestCustom({ params: { ...trailing, ...p }, market }, columns(candlesOf(closes)), { slippage: '0' });
      return [...r.fills.map((f) => `${f.candle} ${f.reason} ${f.side} ${f.amount} @ ${f.price}`), r.realized];
    };
    // Candle 8 rises 98.5 -> 102.5 through 99.91 (armed, raised to 102.5); candle 9's low 101.5 stays over
    // 101.47, its high raises to 104.5; candle 10 falls 104.5 -> 100.5 through the line 103.45.
    expect(run({})).toEqual(['5 open buy 1.03 @ 97', '10 close sell 1.028 @ 103.45', '6.3302534']);
    // Without trailing: the take profit inside candle 8.
    expect(run({ trailingDeviation: undefined, trailingStop: undefined })).toEqual(['5 open buy 1.03 @ 97', '8 close sell 1.028 @ 99.91', '2.69477252']);
    // No take profit, a 3 % trailing stop: floor(104.5 x 0.97) = 101.36 in candle 10 (the fixed stop: 94.09).
    expect(run({ takeProfit: undefined, trailingDeviation: undefined, stopLoss: '3' })).toEqual(['5 open buy 1.03 @ 97', '10 stop sell 1.028 @ 101.36', '4.18388192']);
  });

  it('a buy by hand disarms it and raises the stop high to the new fill; turning it off forgets the highs', () => {
    const r = backtestCustom(view, columns(candlesOf(closes.slice(0, 10))), { slippage: '0' });
    expect([toPlain(r.state.trail!), toPlain(r.state.stopHigh!)]).toEqual(['104.5', '104.5']);
    const add = decideCustom(r.state, { type: 'ManualAddRequested', price: money('104'), quote: money('10') }, view);
    const added = decideCustom(add.state, { type: 'OrderFilled', clientOrderId: add.state.pending!.id, side: 'buy', price: money('104'), amount: money('0.096') }, view).state;
    expect([added.trail, toPlain(added.stopHigh!)]).toEqual([null, '104.5']);
    const off = retargetCustom(r.state, { params: { ...trailing, trailingDeviation: undefined, trailingStop: undefined }, market });
    expect([off.trail, off.stopHigh]).toEqual([null, null]);
    expect(customKit.triggers(off, view)).toEqual({ up: 99.91, down: 92.15, asks: true, upAt: money('99.91'), downAt: money('92.15') });
  });

  it('checks the trailing fields: 0.1-20 %, a take profit to trail, a stop loss to trail; off is nothing', () => {
    expect(validateCustom(trailing)).toEqual([]);
    expect(validateCustom({ ...trailing, trailingDeviation: '', trailingStop: false })).toEqual([]);
    expect(validateCustom({ ...trailing, trailingDeviation: '25' })).toEqual([{ field: 'trailingDeviation', reason: 'range', min: '0.1', max: '20' }]);
    expect(validateCustom({ ...trailing, trailingDeviation: '0.05' })).toEqual([{ field: 'trailingDeviation', reason: 'range', min: '0.1', max: '20' }]);
    expect(validateCustom({ ...trailing, takeProfit: undefined })).toEqual([{ field: 'takeProfit', reason: 'trailingNeedsTakeProfit' }]);
    expect(validateCustom({ ...trailing, stopLoss: undefined })).toEqual([{ field: 'stopLoss', reason: 'trailingStopNeedsStopLoss' }]);
    expect(validateCustom({ ...trailing, trailingStop: 'yes' })).toEqual([{ field: 'trailingStop', reason: 'format' }]);
  });
});

describe('custom bot: validation', () => {
  it('accepts the example and names every bad field with its reason', () => {
    expect(validateCustom(example, '5')).toEqual([]);
    const bad = {
      investment: '0',
      size: { kind: 'share', percent: '150' },
      entry: {
        join: 'xor',
        conditions: [
          { left: { kind: 'rsi', period: 1, timeframe: '2m' }, op: '<', right: { kind: 'value', value: 'abc' } },
          { left: { kind: 'value', value: '1' }, op: '>', right: { kind: 'value', value: '2' } },
          {
            left: { kind: 'macd', line: 'macd', fast: 26, slow: 12, signal: 9, timeframe: '1h' },
            op: 'crossesAbove',
            right: { kind: 'macd', line: 'macd', fast: 26, slow: 12, signal: 9, timeframe: '1h' },
          },
        ],
      },
      repeat: true,
    };
    expect(validateCustom(bad)).toEqual([
      { field: 'investment', reason: 'range', min: '0' },
      { field: 'size.percent', reason: 'range', min: '0.01', max: '100' },
      { field: 'entry.join', reason: 'unknown' },
      { field: 'entry.conditions.0.left.period', reason: 'range', min: 2, max: 500 },
      { field: 'entry.conditions.0.left.timeframe', reason: 'unknown' },
      { field: 'entry.conditions.0.right.value', reason: 'format' },
      { field: 'entry.conditions.1', reason: 'noIndicator' },
      { field: 'entry.conditions.2.left.fast', reason: 'range', min: 1, max: 11 },
      { field: 'entry.conditions.2.right.fast', reason: 'range', min: 1, max: 11 },
      { field: 'exit', reason: 'noExit' },
    ]);
  });
  it('refuses more than 5 conditions, an entry above the investment or below the market minimum', () => {
    const c = example.entry.conditions[0]!;
    expect(validateCustom({ ...example, entry: { join: 'or', conditions: [c, c, c, c, c, c] } })).toEqual([{ field: 'entry.conditions', reason: 'tooMany', max: 5 }]);
    expect(validateCustom({ ...example, size: { kind: 'fixed', quote: '101' } })).toEqual([{ field: 'size.quote', reason: 'insufficient', max: '100' }]);
    expect(validateCustom({ ...example, size: { kind: 'share', percent: '4' } }, '5')).toEqual([{ field: 'size.percent', reason: 'belowMinimum', min: '5' }]);
    expect(validateCustom({ ...example, entry: { join: 'and', conditions: [{ left: { kind: 'price' }, op: '>', right: { kind: 'price' } }] } })).toEqual([
      { field: 'entry.conditions.0.right', reason: 'sameSides' },
    ]);
  });
});

describe('custom bot: live prices give the backtest its fills', () => {
  it.each([
    [{}, 'fixed exits', ['close', 'exit_rule', 'open', 'stop']],
    // Trailing take profit 0.3 % from the high once +0.8 % armed it, stop 0.7 % under the high since the entry.
    [{ trailingDeviation: '0.3', trailingStop: true }, 'trailing exits', ['close', 'exit_rule', 'open', 'stop']],
  ] as const)('asked at every price a cent apart with its market time, it trades as the backtest does (%o: %s)', (extra, _name, ways) => {
    // A 100-USDT coin without gaps (each candle opens at the previous close: a live entry at a minute's
    // close fills at the next minute's first price, which is then that close).
    const rows: Candle[] = [];
    let p = 10_000;
    for (let i = 0; i < 1500; i++) {
      const c = Math.round(p * (1 + Math.sin(i * 0.37) * 0.006 + Math.cos(i * 0.11) * 0.003));
      rows.push({ time: T0 + i * MIN, open: p / 100, high: (Math.max(p, c) + 15) / 100, low: (Math.min(p, c) - 15) / 100, close: c / 100 });
      p = c;
    }
    const params: CustomParams = {
      investment: '1000',
      size: { kind: 'share', percent: '10' },
      entry: {
        join: 'and',
        conditions: [
          { left: { kind: 'rsi', period: 6, timeframe: '1m' }, op: '<', right: { kind: 'value', value: '40' } },
          { left: { kind: 'price' }, op: '<', right: { kind: 'bb', band: 'middle', period: 10, deviation: '2', timeframe: '5m' } },
        ],
      },
      exit: { join: 'or', conditions: [{ left: { kind: 'macd', line: 'histogram', fast: 3, slow: 8, signal: 4, timeframe: '1m' }, op: 'crossesBelow', right: { kind: 'value', value: '0' } }] },
      takeProfit: '0.8',
      stopLoss: '0.7',
      repeat: true,
      ...extra,
    };
    const v: CustomView = { params, market: { ...market, stepSize: money('0.0001'), minAmount: money('0.0001') } };
    const fast = backtestCustom(v, columns(rows), { slippage: '0' });

    let state = initialCustomState(botId('live'));
    const slow: string[] = [];
    const fired = new Set<string>();
    const at = (cents: number, t: number) => {
      const price = money(cents).div(100);
      const out = decideCustom(state, { type: 'PriceTicked', price, at: t }, v);
      state = out.state;
      for (const i of out.intents) if (i.type === 'TrailingMoved' && i.step === 'fired') fired.add(i.exit);
      const o = out.intents.find((x) => x.type === 'PlaceOrder');
      if (o?.type !== 'PlaceOrder') return;
      const amount = o.side === 'buy' ? buyAmountOf(o.quote!, price, v.market.stepSize) : o.amount!;
      slow.push(`${o.reason} ${o.side} ${amount.toFixed()} @ ${price.toFixed()}`);
      state = decideCustom(state, { type: 'OrderFilled', clientOrderId: o.clientOrderId, side: o.side, price, amount }, v).state;
    };
    const cents = (x: number) => Math.round(x * 100);
    for (const k of rows) {
      const points = (k.close >= k.open ? [k.open, k.low, k.high, k.close] : [k.open, k.high, k.low, k.close]).map(cents);
      let now = points[0]!;
      let t = k.time;
      at(now, t);
      for (const to of points.slice(1))
        while (now !== to) {
          now += to > now ? 1 : -1;
          at(now, ++t);
        }
    }
    at(cents(rows[rows.length - 1]!.close), T0 + rows.length * MIN); // the next minute's first price closes the last
    const reasons = fast.fills.map((f) => f.reason);
    expect(reasons.filter((r) => r === 'open').length).toBeGreaterThan(10);
    expect([...new Set(reasons)].sort()).toEqual(ways);
    // With trailing, both trailing exits sold (and none without).
    expect([...fired].sort()).toEqual('trailingStop' in extra ? ['stop_loss', 'take_profit'] : []);
    expect(fast.fills.map((f) => `${f.reason} ${f.side} ${f.amount} @ ${f.price}`)).toEqual(slow);
    expect(state.realized.toFixed()).toBe(fast.realized);
  });
});

describe('custom bot: the kit the engine will register', () => {
  it('asks at every price until done, with take profit and stop loss as its triggers, and stores through the codec', () => {
    const v = customKit.view({ ...example, takeProfit: '3' }, market);
    const run = backtestCustom(v, columns(candlesOf(exampleCloses.slice(0, 7))), { slippage: '0' });
    expect(customKit.triggers(customKit.initial(botId('k')), v)).toEqual({ up: Infinity, down: -Infinity, asks: true, upAt: null, downAt: null });
    // The take profit and the stop as the engine decides at them when a round passes one (upAt, downAt).
    expect(customKit.triggers(run.state, v)).toEqual({ up: 99.91, down: 92.15, asks: true, upAt: money('99.91'), downAt: money('92.15') });
    expect(customKit.triggers({ ...run.state, phase: 'done' }, v).asks).toBe(false);
    const loaded = customKit.decode('k', JSON.parse(JSON.stringify(customKit.encode(run.state))), v);
    expect(customKit.encode(loaded)).toEqual(customKit.encode(run.state));
    expect(customKit.cycle(loaded)).toBe(1);
    const closed = { type: 'CycleClosed', cycle: 1, profit: money(0) } as const;
    expect(customKit.cycleFigures(loaded, closed)).toEqual({ entries: 1, amount: money('1.03'), cost: money('99.91') });
  });
});

describe('custom bot: backtest options', () => {
  it('slips every fill against the trader, and starts from a warm-up', () => {
    const rows = candlesOf(exampleCloses);
    const slipped = backtestCustom({ params: example, market }, columns(rows), { slippage: '0.0005' });
    // 97 x 1.0005 = 97.0485 (100 / 97.0485 = 1.0304.. -> 1.030); 102 x 0.9995 = 101.949
    expect(slipped.fills.map((f) => `${f.side} ${f.amount} @ ${f.price}`)).toEqual(['buy 1.03 @ 97.0485', 'sell 1.028 @ 101.949']);
    // the first 5 candles as warm-up: the same RSI, the same trades on the 5 that follow
    const warm = backtestCustom({ params: example, market }, columns(rows.slice(5)), { slippage: '0' }, { '1m': rows.slice(0, 5) });
    expect(warm.fills.map((f) => `${f.candle + 5} ${f.side} ${f.price}`)).toEqual(['5 buy 97', '8 sell 102']);
    expect(warm.realized).toBe('4.841144');
  });
});
