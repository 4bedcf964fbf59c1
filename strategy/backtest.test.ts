import { describe, expect, it } from 'vitest';
import { money } from './money.ts';
import { backtestMartin, DEFAULT_SLIPPAGE, replayCandles, type CandleColumns, type CandlePath, type Walker } from './backtest.ts';
import { engineRound } from './engine-round.test-support.ts';
import { martinKit } from './kit.ts';
import { initialMartinState } from './martin/strategy.ts';
import { botId } from './types.ts';
import type { MartinParams } from './martin/rules.ts';
import type { MarketRules } from './core/market.ts';

const market: MarketRules = { tickSize: money('0.01'), stepSize: money('0.00001'), minAmount: money('0.00001'), minCost: money('5'), feeRate: money('0.001') };
const params: MartinParams = { investment: '700', firstOrder: '100', multiplier: '2', maxPositions: 3, addTrigger: '2', takeProfit: '1.5', repeat: true };
/** Rows of open, high, low, close. */
const columns = (rows: [number, number, number, number][]): CandleColumns => ({
  open: Float64Array.from(rows.map((r) => r[0])),
  high: Float64Array.from(rows.map((r) => r[1])),
  low: Float64Array.from(rows.map((r) => r[2])),
  close: Float64Array.from(rows.map((r) => r[3])),
});
const line = (f: { candle: number; reason: string; side: string; amount: string; price: string }) => `${f.candle} ${f.reason} ${f.side} ${f.amount} @ ${f.price}`;
const exact = { slippage: '0' };

/**
 * The fill model (README.md): a move through a trigger inside the candle fills at the trigger price
 * itself; a gap past an add or a take profit fills there too (the order waited on the book at it, as on
 * Paper: restingFill), then the slippage against the trader.
 */
const handMade = columns([
  [60000, 60000, 60000, 60000], // opens at 60000: next add 58800, take profit 60900
  [58500, 58600, 58450, 58550], // gaps down from 60000 to 58500, past the add at 58800: fills at 58800, not at the cheaper open
  [58000, 58100, 57200, 57400], // red: 58000 -> 58100 -> 57200 dips through the add at floor(58800 x 0.98) = 57624: fills at 57624
  [57400, 60000, 57350, 59000], // green: 57350 -> 60000 rises through the take profit 59160.17 and re-opens there
]);

/** What `handMade` fills at no slippage. */
const handMadeFills = [
  '0 open buy 0.00166 @ 60000',
  // The gap: 58500 is the first price past the add at floor(60000 x 0.98) = 58800; the add waited at 58800.
  '1 add buy 0.0034 @ 58800',
  // The dip: from 58100 down to 57200 the price passes floor(58800 x 0.98) = 57624 and fills there, not at the low.
  '2 add buy 0.00694 @ 57624',
  // The rise: the take profit ceil(average x 1.015) = 59160.17, not the high.
  '3 close sell 0.01198 @ 59160.17',
  // Re-opened at the price it closed at; its next take profit 60047.58 is above the high.
  '3 open buy 0.00169 @ 59160.17',
];

describe('the martin backtest', () => {
  it('fills at the trigger price, inside a candle or past a gap (hand-made candles)', () => {
    const r = backtestMartin({ params, market }, handMade, exact);
    expect(r.fills.map(line)).toEqual(handMadeFills);
    expect(r.cycles).toBe(1);
    // With the old fill model the gap filled at the open 58500: 10.36 USDT, two cycles (the next
    // take profit 58899.94 lower), more than the add waiting at 58800 would have got.
    expect(r.realized).toBe('8.5995377634');
  });

  it('moves every fill by exactly the slippage against the trader: buys higher, sells lower', () => {
    const r = backtestMartin({ params, market }, handMade, { slippage: '0.0005' });
    // Each price that acted (the triggers now follow the slipped fills) x 1.0005 for a buy, x 0.9995 for a sell.
    const acted = ['60000', '58829.4', '57681.63', '59232.18', '59232.18'];
    expect(r.fills.map(line)).toEqual([
      '0 open buy 0.00166 @ 60030', // 60000 x 1.0005
      '1 add buy 0.00339 @ 58858.8147', // the add waited at floor(60030 x 0.98) = 58829.4 (the gap to 58500 passed it), x 1.0005
      '2 add buy 0.00693 @ 57710.470815', // the add floor(58858.8147 x 0.98) = 57681.63, x 1.0005
      '3 close sell 0.01196 @ 59202.56391', // the take profit 59232.18 x 0.9995
      '3 open buy 0.00168 @ 59261.79609', // re-opened at 59232.18 x 1.0005
    ]);
    r.fills.forEach((f, i) => {
      expect(f.price).toBe(
        money(acted[i]!)
          .mul(f.side === 'buy' ? '1.0005' : '0.9995')
          .toFixed(),
      );
    });
    expect(r.realized).toBe('8.2398571182864');
    // Unless told otherwise a backtest assumes 0.05 %.
    expect(DEFAULT_SLIPPAGE).toBe('0.0005');
    expect(backtestMartin({ params, market }, handMade).fills.map(line)).toEqual(r.fills.map(line));
  });

  it('fills the strategy example at its triggers: adds at 58800 and 57624, the take profit at 59160.17', () => {
    // open/high/low/close: a red candle reaching 58800 (add), a red one reaching 57624 (add),
    // then a green one whose high crosses the take profit 59160.17 (strategy.test.ts example).
    const r = backtestMartin(
      { params, market },
      columns([
        [60000, 60000, 60000, 60000],
        [59900, 59950, 58800, 58900],
        [58900, 58950, 57624, 57700],
        [57700, 60000, 57650, 59800],
      ]),
      exact,
    );
    // The hand-made candles above reach the same triggers (one by a gap): the same fills.
    expect(r.fills.map((f) => `${f.candle} ${f.reason} ${f.side} ${f.amount} @ ${f.price}`)).toEqual(handMadeFills);
    expect(r.cycles).toBe(1);
    // Filled at each candle's extreme (the old model: the close at the high, 60000) it was 18.65064.
    expect(r.realized).toBe('8.5995377634');
  });

  it('with the market’s seconds (a CandlePath): their order, the take profit at its trigger, the re-open a second later', () => {
    // Candle 1 is green (60000 -> 60500) but its seconds reach the high first: up 250 a second to 61000
    // at second 4, down 115 a second to the low 58700 at second 24, up 50 a second to 60500 at 60.
    const candles = columns([
      [60000, 60000, 60000, 60000],
      [60000, 61000, 58700, 60500],
    ]);
    const second = (s: number) => (s <= 4 ? 60000 + 250 * s : s <= 24 ? 61000 - 115 * (s - 4) : 58700 + 50 * (s - 24));
    const path: CandlePath = { lowFirst: Uint8Array.from([1, 0]), second: (i, s) => (i === 0 ? 60000 : second(s)) };
    const r = backtestMartin({ params, market }, { ...candles, path }, exact);
    expect(r.fills.map(line)).toEqual([
      '0 open buy 0.00166 @ 60000',
      // The rise first: second 4 (61000) is the first at or above the take profit 60900; it waited there.
      '1 close sell 0.00165 @ 60900',
      // The next cycle opens on the engine's next round, second 5: 61000 - 115.
      '1 open buy 0.00164 @ 60885',
      // The fall: second 16 (59620) is the first at or below floor(60885 x 0.98) = 59667.3; the add waited there.
      '1 add buy 0.00335 @ 59667.3',
    ]);
    // The four prices alone (low first on a green candle): another story, the add at 58800 first, and
    // each cycle re-opened at its take-profit price (nothing says what the next second was).
    expect(backtestMartin({ params, market }, candles, exact).fills.map(line)).toEqual([
      '0 open buy 0.00166 @ 60000',
      '1 add buy 0.0034 @ 58800',
      '1 close sell 0.00505 @ 60081.59',
      '1 open buy 0.00166 @ 60081.59',
      '1 close sell 0.00166 @ 60982.82',
      '1 open buy 0.00163 @ 60982.82',
    ]);
  });

  it('with the market’s seconds, a stop sells at the price of the second that reached it, not at its line', () => {
    // Opened at 60000 with a 1 % stop (59400); a red candle falls 300 a second from 60000 to 58500.
    const stop: MartinParams = { ...params, addTrigger: '5', stopLoss: '1', repeat: false };
    const candles = columns([
      [60000, 60000, 60000, 60000],
      [60000, 60000, 58500, 58500],
    ]);
    const path: CandlePath = { lowFirst: Uint8Array.from([1, 0]), second: (i, s) => (i === 0 ? 60000 : Math.max(58500, 60000 - 300 * s)) };
    const r = backtestMartin({ params: stop, market }, { ...candles, path }, exact);
    // Second 2 (59400) is the first at or below the stop line 59400: a stop takes that second's price.
    expect(r.fills.map(line)).toEqual(['0 open buy 0.00166 @ 60000', '1 stop sell 0.00165 @ 59400']);
    // Second 3 would be 59100: a line the price jumps (60000 -> 59100 in one second) sells at the second's price.
    const steep: CandlePath = { lowFirst: Uint8Array.from([1, 0]), second: (i, s) => (i === 0 ? 60000 : s === 0 ? 60000 : Math.max(58500, 59600 - 500 * s)) };
    expect(backtestMartin({ params: stop, market }, { ...candles, path: steep }, exact).fills.map(line)).toEqual(['0 open buy 0.00166 @ 60000', '1 stop sell 0.00165 @ 59100']);
  });

  it('gives the same fills as asking the strategy at every tick of the continuous path', () => {
    // A long random-ish path of a 100-USDT coin: the fast walk must equal the plain replay of every
    // price a tick apart along each candle's segments (the jump to each open has no prices between).
    const cheap: MarketRules = { ...market, stepSize: money('0.0001'), minAmount: money('0.0001') };
    const rows: [number, number, number, number][] = [];
    const cents = (x: number) => Math.round(x * 100);
    let p = 10_000;
    for (let i = 0; i < 1500; i++) {
      const o = p + (i % 7 === 3 ? Math.round(Math.sin(i) * 80) : 0); // now and then a gap
      const c = Math.round(o * (1 + Math.sin(i * 0.37) * 0.012 + Math.cos(i * 0.11) * 0.004));
      rows.push([o / 100, (Math.max(o, c) + 25) / 100, (Math.min(o, c) - 25) / 100, c / 100]);
      p = c;
    }
    const fast = backtestMartin({ params, market: cheap }, columns(rows), exact);
    // The reference: every cent of the path as a price round of the live engine on Paper (engineRound).
    let state = initialMartinState(botId('backtest'));
    const slow: string[] = [];
    const at = (price: string, i: number) => {
      const round = engineRound(martinKit, state, { params, market: cheap }, money(price), cheap.stepSize);
      state = round.state;
      for (const f of round.fills) slow.push(`${i} ${f.reason} ${f.amount.toFixed()} @ ${f.price.toFixed()}`);
    };
    rows.forEach(([o, h, l, c], i) => {
      const points = (c >= o ? [o, l, h, c] : [o, h, l, c]).map(cents);
      let now = points[0]!;
      at((now / 100).toFixed(2), i);
      for (const to of points.slice(1)) {
        while (now !== to) {
          now += to > now ? 1 : -1;
          at((now / 100).toFixed(2), i);
        }
      }
    });
    expect(fast.fills.length).toBeGreaterThan(30);
    expect(fast.fills.filter((f) => f.reason === 'add').length).toBeGreaterThan(5);
    expect(fast.fills.map((f) => `${f.candle} ${f.reason} ${f.amount} @ ${f.price}`)).toEqual(slow);
  });

  it('passes over runs of candles between the triggers, acting exactly where a candle-by-candle walk acts', () => {
    // A probe bot: after acting at a price its triggers are 3 % below and above it, and every third act
    // it also follows a high 1 % above. Some candles open 7 % above their own high (bad data), past the
    // up trigger: a jump the walk must not pass over.
    const rows: [number, number, number, number][] = [];
    let p = 100;
    for (let i = 0; i < 5000; i++) {
      const c = p * (1 + Math.sin(i * 0.731) * 0.002 + Math.sin(i * 0.0131) * 0.0015);
      const o = i % 997 === 500 ? p * 1.07 : p;
      rows.push([o, Math.max(p, c) * 1.0005, Math.min(p, c) * 0.9995, c]);
      p = c;
    }
    const candles = columns(rows);
    const probe = (): Walker & { log: string[] } => {
      const w = {
        down: Infinity,
        up: -Infinity,
        follow: Infinity,
        done: false,
        log: [] as string[],
        acts: 0,
        act(at: number | 'down' | 'up', candle: number, past?: number) {
          const price = at === 'down' ? w.down : at === 'up' ? w.up : at;
          w.log.push(`${candle} ${at} ${price.toFixed(6)} ${past ?? ''}`);
          w.acts++;
          w.down = price * 0.97;
          w.up = price * 1.03;
          w.follow = w.acts % 3 === 0 ? price * 1.01 : Infinity;
          w.done = w.acts >= 400;
          return true;
        },
      };
      return w;
    };
    const fast = probe();
    replayCandles(candles, fast);
    const slow = probe();
    for (let i = 0; i < rows.length && !slow.done; i++) replayCandles(candles, slow, i, i + 1);
    expect(fast.log.length).toBeGreaterThan(40);
    expect(fast.log.filter((l) => l.split(' ')[1] !== 'down' && l.split(' ')[1] !== 'up').length).toBeGreaterThan(5);
    expect(fast.log.some((l) => l.startsWith('500 '))).toBe(true);
    expect(fast.log).toEqual(slow.log);
  });
});
