import { describe, expect, it } from 'vitest';
import { money } from './money.ts';
import { backtestMartin, DEFAULT_SLIPPAGE, type CandleColumns } from './backtest.ts';
import { decideMartin, initialMartinState } from './martin/strategy.ts';
import { botId } from './types.ts';
import { buyAmount } from './martin/plan.ts';
import type { MarketRules, MartinParams } from './martin/rules.ts';

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
 * The fill model (README.md): a gap through a trigger fills at the open, a move through it inside the
 * candle at the trigger price itself, then the slippage against the trader.
 */
const handMade = columns([
  [60000, 60000, 60000, 60000], // opens at 60000: next add 58800, take profit 60900
  [58500, 58600, 58450, 58550], // gaps down from 60000 to 58500, past the add at 58800: fills at the open
  [57500, 57600, 57200, 57400], // red: 57500 -> 57600 -> 57200 dips through the add at 57330: fills at 57330
  [57400, 60000, 57350, 59000], // green: 57350 -> 60000 rises through the take profit 58899.94, and (re-opened there) through the next one
]);

describe('the martin backtest', () => {
  it('fills at the trigger price, or at the open when the candle opened past it (hand-made candles)', () => {
    const r = backtestMartin({ params, market }, handMade, exact);
    expect(r.fills.map(line)).toEqual([
      '0 open buy 0.00166 @ 60000',
      // The gap: 58500 is the first price past the add at floor(60000 x 0.98) = 58800.
      '1 add buy 0.00341 @ 58500',
      // The dip: from 57600 down to 57200 the price passes floor(58500 x 0.98) = 57330 and fills there, not at the low.
      '2 add buy 0.00697 @ 57330',
      // The rise: average (99.6 + 199.485 + 399.5901) / 0.01204 = 58029.4933..; take profit ceil(x 1.015) = 58899.94, not the high.
      '3 close sell 0.01202 @ 58899.94',
      // Re-opened at the price it closed at; the same rise passes its take profit ceil(58899.94 x 1.015) = 59783.44 too.
      '3 open buy 0.00169 @ 58899.94',
      '3 close sell 0.00169 @ 59783.44',
      '3 open buy 0.00167 @ 59783.44',
    ]);
    expect(r.cycles).toBe(2);
    expect(r.realized).toBe('10.3559291676');
  });

  it('moves every fill by exactly the slippage against the trader: buys higher, sells lower', () => {
    const r = backtestMartin({ params, market }, handMade, { slippage: '0.0005' });
    // Each price that acted (the triggers now follow the slipped fills) x 1.0005 for a buy, x 0.9995 for a sell.
    const acted = ['60000', '58500', '57358.66', '58946.24', '58946.24', '59860.35', '59860.35'];
    expect(r.fills.map(line)).toEqual([
      '0 open buy 0.00166 @ 60030', // 60000 x 1.0005
      '1 add buy 0.00341 @ 58529.25', // the open 58500 x 1.0005 (the add waited at floor(60030 x 0.98) = 58829.4)
      '2 add buy 0.00697 @ 57387.33933', // the add floor(58529.25 x 0.98) = 57358.66, x 1.0005
      '3 close sell 0.01202 @ 58916.76688', // the take profit 58946.24 x 0.9995
      '3 open buy 0.00169 @ 58975.71312', // re-opened at 58946.24 x 1.0005
      '3 close sell 0.00169 @ 59830.419825', // ceil(58975.71312 x 1.015) = 59860.35, x 0.9995
      '3 open buy 0.00166 @ 59890.280175',
    ]);
    r.fills.forEach((f, i) => {
      expect(f.price).toBe(
        money(acted[i]!)
          .mul(f.side === 'buy' ? '1.0005' : '0.9995')
          .toFixed(),
      );
    });
    expect(r.realized).toBe('9.96052299444815');
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
    expect(r.fills.map((f) => `${f.candle} ${f.reason} ${f.side} ${f.amount} @ ${f.price}`)).toEqual([
      '0 open buy 0.00166 @ 60000',
      '1 add buy 0.0034 @ 58800',
      '2 add buy 0.00694 @ 57624',
      '3 close sell 0.01198 @ 59160.17',
      '3 open buy 0.00169 @ 59160.17',
    ]);
    expect(r.cycles).toBe(1);
    // Filled at each candle's extreme (the old model: the close at the high, 60000) it was 19.11739379.
    expect(r.realized).toBe('9.0662915534');
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
    let state = initialMartinState(botId('backtest'));
    const slow: string[] = [];
    const at = (price: string, i: number) => {
      for (;;) {
        const out = decideMartin(state, { type: 'PriceTicked', price: money(price) }, { params, market: cheap });
        state = out.state;
        const intent = out.intents.find((x) => x.type === 'PlaceOrder');
        if (intent?.type !== 'PlaceOrder') return;
        const amount = intent.side === 'buy' ? buyAmount(intent.quote!, money(price), cheap.stepSize) : intent.amount!;
        slow.push(`${i} ${intent.reason} ${amount.toFixed()} @ ${money(price).toFixed()}`);
        state = decideMartin(state, { type: 'OrderFilled', clientOrderId: intent.clientOrderId, side: intent.side, price: money(price), amount }, { params, market: cheap }).state;
      }
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
});
