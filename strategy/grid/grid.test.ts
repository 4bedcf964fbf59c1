import { describe, expect, it } from 'vitest';
import type { CandleColumns, CandlePath } from '../backtest.ts';
import { engineRound } from '../engine-round.test-support.ts';
import { gridKit } from '../kit.ts';
import { money } from '../money.ts';
import { botId, type ClientOrderId, type Intent, type PlaceOrder } from '../types.ts';
import { backtestGrid } from './backtest.ts';
import { gridDensity, gridLevels, grossBuy, planGrid, validateGrid } from './plan.ts';
import type { GridParams } from './rules.ts';
import { decodeGrid, encodeGrid } from './state-codec.ts';
import { decideGrid, gridExits, gridTriggers, initialGridState, type GridState, type GridView } from './strategy.ts';

const market = { tickSize: money('0.01'), stepSize: money('0.001'), minAmount: money('0.001'), minCost: money('5'), feeRate: money('0.001') };
const params: GridParams = { investment: '1000', lower: '100', upper: '120', grids: 4, spacing: 'arithmetic' };
const view: GridView = { params, market };
const s = (d: { toFixed: () => string }) => d.toFixed();

describe('grid maths (README worked example)', () => {
  it('spaces the levels arithmetically or geometrically, floored to the tick', () => {
    expect(gridLevels(params, market.tickSize).map(s)).toEqual(['100', '105', '110', '115', '120']);
    expect(gridLevels({ ...params, upper: '121', grids: 2, spacing: 'geometric' }, market.tickSize).map(s)).toEqual(['100', '110', '121']);
    expect(gridLevels({ lower: '1', upper: '2', grids: 3, spacing: 'geometric' }, market.tickSize).map(s)).toEqual(['1', '1.25', '1.58', '2']);
  });

  it('sizes every order alike from the investment and shows the profit per grid before the start', () => {
    const plan = planGrid(params, market, money('109'));
    // Empty level: 110 (nearest 109). q = floor(1000 x 0.999 / (100 + 105 + 2 x 109)) = floor(2.3617..) = 2.361;
    // each buy level buys ceil(2.361 / 0.999) = 2.364, the start ceil(4.722 / 0.999) = 4.727: 999.863 in all.
    expect(plan.empty).toBe(2);
    expect(s(plan.quantity)).toBe('2.361');
    expect(s(grossBuy(plan.quantity, market))).toBe('2.364');
    expect(s(plan.startBuy)).toBe('515.243');
    // 100 -> 105: 2.364 bought, 2.361636 left after the fee, sold at 105 less 0.1%: 248.0038082 - 236.4 = 11.32380822.
    expect(s(plan.profit.max)).toBe('11.32380822');
    // 115 -> 120: 2.361636 x 120 x 0.999 - 2.364 x 115 = 283.11292368 - 271.86 = 11.25292368.
    expect(s(plan.profit.min)).toBe('11.25292368');
    expect(plan.profit.maxPct.toDecimalPlaces(4).toFixed()).toBe('4.7901');
    expect(plan.profit.minPct.toDecimalPlaces(4).toFixed()).toBe('4.1392');
  });

  it('refuses what cannot work, field by field', () => {
    const p = money('109');
    expect(validateGrid({ ...params, upper: '100' }, market, p)).toEqual([{ field: 'upper', reason: 'range' }]);
    expect(validateGrid({ ...params, grids: 1 }, market, p)).toEqual([{ field: 'grids', reason: 'range' }]);
    expect(validateGrid({ ...params, investment: '' }, market, p)).toEqual([{ field: 'investment', reason: 'required' }]);
    expect(validateGrid({ ...params, stopLoss: '101' }, market, p)).toEqual([{ field: 'stopLoss', reason: 'range' }]);
    expect(validateGrid({ ...params, takeProfit: '119' }, market, p)).toEqual([{ field: 'takeProfit', reason: 'range' }]);
    expect(validateGrid({ ...params, investment: '5' }, market, p)).toEqual([{ field: 'investment', reason: 'belowMinimum' }]);
    // 150 grids between 100 and 101: each step 0.0066 < the fees of a round trip.
    expect(validateGrid({ ...params, upper: '101', grids: 150 }, market, p)[0]?.field).toBe('grids');
    expect(validateGrid(params, market, p)).toEqual([]);
  });

  it('has one rule for a dense grid, net of both fees and the step: refused at no profit, warned under 0.1 % a grid', () => {
    const btc = { tickSize: money('0.01'), stepSize: money('0.00001'), minAmount: money('0.00001'), minCost: money('5'), feeRate: money('0.001') };
    const eth = { ...btc, stepSize: money('0.0001'), minAmount: money('0.0001') };
    const check = (m: typeof btc, p: GridParams, price: string) => {
      const plan = planGrid(p, m, money(price));
      return [gridDensity(plan.profit), plan.profit.minPct.toDecimalPlaces(3).toFixed(), validateGrid(p, m, money(price)).map((x) => x.reason)];
    };
    // 24 grids 220 apart (0.33 %, twice the 0.1 % fee a little over): 0.118 % a grid at least, accepted as it is.
    expect(check(btc, { investment: '6000', lower: '64000', upper: '69280', grids: 24, spacing: 'arithmetic' }, '68000')).toEqual(['ok', '0.118', []]);
    // 16 grids 8.5 apart on ETH (0.25 %): 0.041 % left after the fees, accepted with a warning.
    expect(check(eth, { investment: '1000', lower: '3400', upper: '3536', grids: 16, spacing: 'arithmetic' }, '3430')).toEqual(['thin', '0.041', []]);
    // 6.25 apart (0.18 %): the fees take more than the grid earns.
    expect(check(eth, { investment: '1000', lower: '3400', upper: '3500', grids: 16, spacing: 'arithmetic' }, '3430')).toEqual(['unprofitable', '-0.021', ['unprofitable']]);
  });
});

/** Drives the strategy as the engine does: a price, then each order filled at that price. */
function drive(start: GridState, prices: string[], v: GridView = view) {
  let state = start;
  const fills: { side: string; price: string; amount: string; reason: string }[] = [];
  const closed: string[] = [];
  const moved: string[] = [];
  const edges: string[] = [];
  for (const p of prices) {
    const price = money(p);
    for (;;) {
      const r = decideGrid(state, { type: 'PriceTicked', price }, v);
      state = r.state;
      for (const i of r.intents) if (i.type === 'TrailingMoved') moved.push(`${p}: ${i.exit} ${i.step} high ${s(i.high)} line ${s(i.line)}`);
      const order = r.intents.find((i): i is PlaceOrder => i.type === 'PlaceOrder');
      if (!order) break;
      const amount = order.side === 'buy' ? order.quote!.div(price).toDecimalPlaces(3, 1) : order.amount!;
      fills.push({ side: order.side, price: p, amount: s(amount), reason: order.reason });
      const f = decideGrid(state, { type: 'OrderFilled', clientOrderId: order.clientOrderId, side: order.side, price, amount }, v);
      state = f.state;
      for (const i of f.intents as Intent[]) {
        if (i.type === 'CycleClosed') closed.push(s(i.profit));
        if (i.type === 'RangeEdgeReached') edges.push(`${p}: ${i.side} ${s(i.price)}`);
      }
    }
  }
  return { state, fills, closed, moved, edges };
}

describe('the grid strategy', () => {
  it('buys the sells’ base at the start, sells a level up after each buy and buys a level down after each sell', () => {
    const { state, fills, closed } = drive(initialGridState(botId('g1')), ['109', '115', '110', '115']);
    expect(fills).toEqual([
      // 515.243 / 109 = 4.727; after the fee 4.722273: 2.361 for each of the sells at 115 and 120, each costing
      // 257.6215, and 0.000273 of dust.
      { side: 'buy', price: '109', amount: '4.727', reason: 'open' },
      { side: 'sell', price: '115', amount: '2.361', reason: 'close' },
      { side: 'buy', price: '110', amount: '2.364', reason: 'add' },
      { side: 'sell', price: '115', amount: '2.361', reason: 'close' },
    ]);
    // 2.361 x 115 x 0.999 = 271.243485; less 257.6215, then less 2.364 x 110 = 260.04. The buy at 110 left
    // 2.361636 + the dust 0.000273: 2.361 to sell, 0.000909 of dust.
    expect(closed).toEqual(['13.621985', '11.203485']);
    // A buy level's sell is the grid's q after the fee taken in the coin: the buy at 110 bought enough for it.
    expect(fills[3]!.amount).toBe(s(state.quantity));
    expect(s(state.realized)).toBe('24.82547');
    expect(s(state.dust)).toBe('0.000909');
    expect(state.trades).toBe(2);
    expect(state.orders.map((o) => o?.side ?? '-')).toEqual(['buy', 'buy', 'buy', '-', 'sell']);
  });

  it('books a partial fill as it came: the counter-order of a buy is what it got, a sell short of its amount leaves the rest as dust', () => {
    const started = drive(initialGridState(botId('g2')), ['109']).state;
    // The buy at 105 fills 1.2 of 2.364 (the exchange cancelled the rest): the sell at 110 is what 1.2 left after the fee.
    const buy = decideGrid(started, { type: 'PriceTicked', price: money('105') }, view);
    const placed = buy.intents.find((i): i is PlaceOrder => i.type === 'PlaceOrder')!;
    const bought = decideGrid(buy.state, { type: 'OrderFilled', clientOrderId: placed.clientOrderId, side: 'buy', price: money('105'), amount: money('1.2') }, view).state;
    // 1.2 x 0.999 = 1.1988, with the dust 0.000273: 1.199073, a sell of 1.199 and 0.000073 of dust.
    expect(s(bought.orders[2]!.amount)).toBe('1.199');
    expect(s(bought.dust)).toBe('0.000073');
    // The sell at 110 sells 1 of its 1.199: the 0.199 not sold stays the grid's, as dust.
    const sell = decideGrid(bought, { type: 'PriceTicked', price: money('110') }, view);
    const order = sell.intents.find((i): i is PlaceOrder => i.type === 'PlaceOrder')!;
    expect(s(order.amount!)).toBe('1.199');
    const r = decideGrid(sell.state, { type: 'OrderFilled', clientOrderId: order.clientOrderId, side: 'sell', price: money('110'), amount: money('1') }, view);
    expect(s(r.state.dust)).toBe('0.199073');
    // Its profit: 1 x 110 x 0.999 less the cost of the 1 sold (126 x 1 / 1.199).
    expect(r.intents).toMatchObject([{ type: 'CycleClosed', profit: money('109.89').minus(money(126).div(money('1.199'))) }]);
    // The books hold what the fills say: the sells left plus the dust.
    const held = r.state.orders.filter((o) => o?.side === 'sell').reduce((sum, o) => sum.plus(o!.amount), r.state.dust);
    expect(s(held)).toBe(s(money('4.727').mul('0.999').plus(money('1.2').mul('0.999')).minus(1)));
    // The 0.199 not sold keeps its cost (126 x 0.199 / 1.199), stored with the state, which the next
    // sell that takes the dust owes: the buy at 105 again (2.364), then its sell at 110.
    expect(s(r.state.dustCost!)).toBe(s(money(126).minus(money(126).div(money('1.199')))));
    expect(decodeGrid('g2', encodeGrid(r.state)).dustCost?.toFixed()).toBe(r.state.dustCost!.toFixed());
    const again = drive(r.state, ['105']);
    const next = again.state.orders[2]!;
    expect([s(next.amount), s(next.cost), again.state.dustCost]).toEqual(['2.56', s(money('2.364').mul(105).plus(r.state.dustCost!)), undefined]);
    // Every coin the two buys got is sold (the dust below the step aside), and every USDT they cost is counted.
    const sold = drive(again.state, ['110']);
    const first = r.intents.find((i) => i.type === 'CycleClosed')!;
    const total = sold.closed.reduce((sum, p) => sum.plus(p), first.type === 'CycleClosed' ? first.profit : money(0));
    expect(s(total)).toBe(s(money('1').plus('2.56').mul(110).mul('0.999').minus(126).minus(money('2.364').mul(105))));
  });

  it('sells everything and stops at the stop loss, booking the loss', () => {
    const v = { ...view, params: { ...params, stopLoss: '95' } };
    const { state, fills, closed } = drive(initialGridState(botId('g2')), ['109', '104', '94'], v);
    expect(fills.map((f) => `${f.side} ${f.price} ${f.amount} ${f.reason}`)).toEqual(['buy 109 4.727 open', 'buy 104 2.364 add', 'sell 94 7.083 stop']);
    expect(state.phase).toBe('done');
    expect(Number(closed[0])).toBeLessThan(0);
    expect(drive(state, ['130', '80'], v).fills).toEqual([]);
  });

  it('tells once that it reached an edge of its range, and again only after it was two levels inside', () => {
    // Levels 100..120, started at 109: buys at 100 and 105. The buy at 100 leaves none: the low edge.
    const down = drive(initialGridState(botId('g4')), ['109', '105', '100', '95']);
    expect(down.edges).toEqual(['100: low 100']);
    expect(down.state.edge).toBe('low');
    // Wavering at the edge (a sell at 105 puts the buy at 100 back, which fills again): told once.
    const waver = drive(down.state, ['105', '100', '105', '100']);
    expect(waver.fills.map((f) => `${f.side} ${f.price}`)).toEqual(['sell 105', 'buy 100', 'sell 105', 'buy 100']);
    expect(waver.edges).toEqual([]);
    // Two levels inside (buys at 100 and 105 again), then down through them: told again.
    const back = drive(waver.state, ['105', '110', '105', '100']);
    expect(back.edges).toEqual(['100: low 100']);
    // Up through every sell: nothing left to sell, the high edge; told once, kept through a restart.
    const up = drive(initialGridState(botId('g5')), ['109', '115', '120', '125']);
    expect(up.edges).toEqual(['120: high 120']);
    expect(decodeGrid('g5', encodeGrid(up.state)).edge).toBe('high');
    expect(drive(decodeGrid('g5', encodeGrid(up.state)), ['115', '120']).edges).toEqual([]);
    // A grid that starts at an edge is not told so: the trader just chose it.
    expect(drive(initialGridState(botId('g6')), ['100', '95']).edges).toEqual([]);
  });

  it('pauses on a refused order and ignores answers it did not ask for', () => {
    const r = decideGrid(initialGridState(botId('g3')), { type: 'PriceTicked', price: money('109') }, view);
    const id = (r.intents[0] as PlaceOrder).clientOrderId;
    expect(decideGrid(r.state, { type: 'OrderFilled', clientOrderId: 'other' as ClientOrderId, side: 'buy', price: money('109'), amount: money('1') }, view).state).toBe(r.state);
    const refused = decideGrid(r.state, { type: 'OrderRejected', clientOrderId: id, reason: 'insufficient balance' }, view);
    expect(refused.intents).toEqual([{ type: 'PauseBot', reason: 'insufficient balance' }]);
  });
});

/** Rows of open, high, low, close as candle columns. */
const columns = (rows: [number, number, number, number][]) => ({
  open: Float64Array.from(rows, (r) => r[0]),
  high: Float64Array.from(rows, (r) => r[1]),
  low: Float64Array.from(rows, (r) => r[2]),
  close: Float64Array.from(rows, (r) => r[3]),
});
const line = (f: { candle: number; reason: string; side: string; amount: string; price: string }) => `${f.candle} ${f.reason} ${f.side} ${f.amount} @ ${f.price}`;

describe('grid backtest', () => {
  // The worked example's grid (levels 100, 105, 110, 115, 120; started at 109) on hand-made candles.
  const handMade = columns([
    [109, 109, 109, 109], // starts at 109: buys wait at 100 and 105, sells at 115 and 120
    [116, 116.5, 115.5, 116], // gaps up from 109 to 116, past the sell at 115: fills at 115 (it waited there), not the open
    [115, 115.5, 108, 109], // red: 115 -> 115.5 -> 108 dips through the buy at 110: fills at 110, not the low
    [109, 121, 108.5, 118], // green: 108.5 -> 121 rises through the sells at 115 and 120: each at its level, lower first
  ]);

  it('with the market’s seconds: a level at its price, the stop loss at the price of the second that reached it', () => {
    // From 109 the price falls 1.5 a second to 92.5 (second 11), then back to 93 at 60.
    const candles = columns([
      [109, 109, 109, 109],
      [109, 109, 92.5, 93],
    ]);
    const second = (s: number) => (s <= 11 ? 109 - 1.5 * s : 92.5 + (0.5 * (s - 11)) / 49);
    const path: CandlePath = { lowFirst: Uint8Array.from([1, 1]), second: (i, s) => (i === 0 ? 109 : second(s)) };
    const v = { ...view, params: { ...params, stopLoss: '95' } };
    const r = backtestGrid(v, { ...candles, path }, { slippage: '0' });
    expect(r.fills.map(line)).toEqual([
      '0 open buy 4.727 @ 109',
      '1 add buy 2.364 @ 105', // second 3 (104.5) passed the buy waiting at 105
      '1 add buy 2.364 @ 100', // second 6 (100)
      // Second 10 (94) is the first at or below the stop 95: a stop takes that second's price, not its line.
      '1 stop sell 9.445 @ 94',
    ]);
    // The four prices alone: the stop at its line.
    expect(backtestGrid(v, candles, { slippage: '0' }).fills.map(line).at(-1)).toBe('1 stop sell 9.445 @ 95');
  });

  it('fills at the level, inside a candle or past a gap (hand-made candles)', () => {
    const r = backtestGrid(view, handMade, { slippage: '0' });
    expect(r.fills.map(line)).toEqual([
      '0 open buy 4.727 @ 109',
      '1 close sell 2.361 @ 115', // 2.361 x 115 x 0.999 - 257.6215 = 13.621985 (at the open 116 it was 15.980081 with the old fill model)
      '2 add buy 2.364 @ 110',
      '3 close sell 2.361 @ 115', // 271.243485 - 260.04 = 11.203485
      '3 close sell 2.361 @ 120', // 283.03668 - 257.6215 = 25.41518
    ]);
    expect(r.trades).toBe(3);
    expect(r.realized).toBe('50.24065');
  });

  it('moves every fill by exactly the slippage against the trader', () => {
    const r = backtestGrid(view, handMade, { slippage: '0.0005' });
    const acted = ['109', '115', '110', '115', '120'];
    expect(r.fills.map(line)).toEqual([
      '0 open buy 4.724 @ 109.0545', // the start buy's quote 515.243 / (109 x 1.0005), floored to the step
      '1 close sell 2.359 @ 114.9425',
      '2 add buy 2.362 @ 110.055',
      '3 close sell 2.36 @ 114.9425',
      '3 close sell 2.359 @ 119.94',
    ]);
    r.fills.forEach((f, i) => {
      expect(f.price).toBe(
        money(acted[i]!)
          .mul(f.side === 'buy' ? '1.0005' : '0.9995')
          .toFixed(),
      );
    });
    expect(r.realized).toBe('49.4033973825');
  });

  it('fills and profits on a price path that oscillates through its range, as the strategy asked at every tick', () => {
    // 10 days of minutes swinging between 98 and 122 twice a day.
    const n = 14_400;
    const wave = (i: number) => 110 + 12 * Math.sin((i / 720) * Math.PI);
    const col = (f: (i: number) => number) => Float64Array.from({ length: n }, (_, i) => Math.round(f(i) * 100) / 100);
    const candles = { open: col(wave), close: col((i) => wave(i + 1)), high: col((i) => Math.max(wave(i), wave(i + 1)) + 0.05), low: col((i) => Math.min(wave(i), wave(i + 1)) - 0.05) };
    const r = backtestGrid(view, candles, { slippage: '0' });
    expect(r.trades).toBeGreaterThanOrEqual(40); // 4 grids, up and down 10 times
    expect(Number(r.realized)).toBeGreaterThan(400);
    // Every sell books about one grid's planned profit: 11.17-11.25 USDT, the first ones from the start price.
    expect(r.fills.filter((f) => f.side === 'sell').length).toBe(r.trades);
    // Every fill at a level (the path is continuous: no gaps).
    expect(r.fills.slice(1).every((f) => ['100', '105', '110', '115', '120'].includes(f.price))).toBe(true);
    // The same path through the strategy at every price a tick apart gives the same books.
    const prices: string[] = [];
    const cents = (x: number) => Math.round(x * 100);
    for (let i = 0; i < n; i++) {
      const [o, c] = [candles.open[i]!, candles.close[i]!];
      const points = (c >= o ? [o, candles.low[i]!, candles.high[i]!, c] : [o, candles.high[i]!, candles.low[i]!, c]).map(cents);
      let now = points[0]!;
      prices.push((now / 100).toFixed(2));
      for (const to of points.slice(1)) {
        while (now !== to) {
          now += to > now ? 1 : -1;
          prices.push((now / 100).toFixed(2));
        }
      }
    }
    // As the engine's price book does, the strategy is asked only at prices on or past its triggers.
    let slow = { state: initialGridState(botId('backtest')), fills: [] as { side: string; price: string; amount: string }[] };
    let triggers = { down: Infinity, up: -Infinity };
    for (const p of prices) {
      const x = Number(p);
      if (x > triggers.down && x < triggers.up) continue;
      const next = drive(slow.state, [p]);
      slow = { state: next.state, fills: [...slow.fills, ...next.fills] };
      triggers = gridKit.triggers(slow.state, view);
    }
    expect(slow.fills.map((f) => `${f.side} ${money(f.price).toFixed()} ${f.amount}`)).toEqual(r.fills.map((f) => `${f.side} ${f.price} ${f.amount}`));
    expect(s(slow.state.realized)).toBe(r.realized);
  });
});

describe('trailing exits (README "Trailing exits")', () => {
  const trailingTp: GridParams = { ...params, takeProfit: '125', trailingDeviation: '2' };
  const trailingStop: GridParams = { ...params, stopLoss: '95', trailingStop: true };

  it('arms at the take-profit price, follows the high and sells everything at 2 % under it (the worked example)', () => {
    const v = { params: trailingTp, market };
    // 109 -> 126 jumps past the sells at 115 and 120 and the take profit at once: the grid still holds their 4.722 (and 0.000273 of dust).
    const { state, fills, closed, moved } = drive(initialGridState(botId('t1')), ['109', '126', '130', '128', '127.41', '127.4'], v);
    expect(moved).toEqual([
      '126: take_profit armed high 126 line 123.48', // floor(126 x 0.98)
      '130: take_profit raised high 130 line 127.4',
      '127.4: take_profit fired high 130 line 127.4',
    ]);
    expect(fills.map((f) => `${f.side} ${f.price} ${f.amount} ${f.reason}`)).toEqual(['buy 109 4.727 open', 'sell 127.4 4.722 close']);
    // 4.722 x 127.4 x 0.999 - 515.243 = 600.9812172 - 515.243 (the books are in the quote).
    expect(closed).toEqual(['85.7382172']);
    expect(state.phase).toBe('done');
    // A plain take profit sells the same 4.722 at 126: 594.377028 - 515.243.
    expect(drive(initialGridState(botId('t2')), ['109', '126'], { params: { ...params, takeProfit: '125' }, market }).closed).toEqual(['79.134028']);
  });

  it('places no grid order while armed, and asks above the high and at the line only', () => {
    const v = { params: { ...trailingTp, trailingDeviation: '10' }, market };
    const armed = drive(initialGridState(botId('t3')), ['109', '126'], v).state;
    expect(gridExits(armed, v).armed).toEqual({ high: money('126'), line: money('113.4') });
    // The line 113.40 is back inside the range: the fall to it passes the levels 120 and 115 with nothing bought or sold.
    expect(gridTriggers(armed, v)).toEqual({ down: money('113.4'), up: null, follow: money('126') });
    // The line is a trigger price a round is decided at; the high is not (a new high is decided at itself).
    expect(gridKit.triggers(armed, v)).toEqual({ down: 113.4, up: 126, asks: false, upAt: null, downAt: money('113.4') });
    const { fills, moved } = drive(armed, ['120', '115', '113.41', '113.4'], v);
    expect(moved).toEqual(['113.4: take_profit fired high 126 line 113.4']);
    expect(fills.map((f) => `${f.side} ${f.price} ${f.amount} ${f.reason}`)).toEqual(['sell 113.4 4.722 close']);
  });

  it('in a steady rise the levels sell on the way up: armed with nothing held, the fall only stops the bot', () => {
    const { state, fills, moved } = drive(initialGridState(botId('t4')), ['109', '115', '120', '125', '127', '124.46'], { params: trailingTp, market });
    expect(fills.map((f) => `${f.side} ${f.price} ${f.reason}`)).toEqual(['buy 109 open', 'sell 115 close', 'sell 120 close']);
    expect(moved).toEqual(['125: take_profit armed high 125 line 122.5', '127: take_profit raised high 127 line 124.46', '124.46: take_profit fired high 127 line 124.46']);
    expect(state.phase).toBe('done');
  });

  it('trails the stop under the high since the start at the stop loss’s ratio to the start price (the worked example)', () => {
    const v = { params: trailingStop, market };
    const { state, fills, closed, moved } = drive(initialGridState(botId('t5')), ['109', '113', '115', '110', '105', '100.23', '100.22'], v);
    expect(moved).toEqual([
      '113: stop_loss raised high 113 line 98.48', // floor(113 x 95 / 109)
      '115: stop_loss raised high 115 line 100.22',
      '100.22: stop_loss fired high 115 line 100.22',
    ]);
    expect(fills.map((f) => `${f.side} ${f.price} ${f.amount} ${f.reason}`)).toEqual([
      'buy 109 4.727 open',
      'sell 115 2.361 close',
      'buy 110 2.364 add',
      'buy 105 2.364 add',
      // Everything held: 2.362 on 110 (the buy at 105 with the dust), 2.361 on 115 and 120 and 0.000545 of dust,
      // costing 248.22 + 260.04 + 257.6215.
      'sell 100.22 7.084 stop',
    ]);
    // 7.084 x 100.22 x 0.999 - 765.8815.
    expect(closed).toEqual(['13.621985', '-56.63297848']);
    expect(state.phase).toBe('done');
    // At the start the stop is the stop loss itself: 109 x 95 / 109.
    const started = drive(initialGridState(botId('t6')), ['109'], v).state;
    expect(gridExits(started, v)).toEqual({ armed: null, stop: money('95'), stopHigh: money('109') });
  });

  it('keeps the start price and the highs in the stored state: decoded, the armed exit goes on from its high', () => {
    const v = { params: { ...trailingTp, stopLoss: '95', trailingStop: true }, market };
    const armed = drive(initialGridState(botId('t7')), ['109', '126', '130'], v).state;
    const stored = JSON.parse(JSON.stringify(encodeGrid(armed)));
    expect(stored).toMatchObject({ start: '109', trail: '130', stopHigh: '130' });
    const again = decodeGrid('t7', stored);
    expect(again).toEqual(armed);
    // Not armed again at 128 (above the take profit): it fires at its line 127.40.
    expect(drive(again, ['128', '127.4'], v).moved).toEqual(['127.4: take_profit fired high 130 line 127.4']);
    // A state stored before the trailing exits: no start price, so its stop stays the fixed stop loss.
    const { start: _s, trail: _t, stopHigh: _h, ...old } = stored;
    const legacy = decodeGrid('t7', old);
    expect([legacy.start, legacy.trail, legacy.stopHigh]).toEqual([null, null, null]);
    expect(gridExits(legacy, v)).toEqual({ armed: null, stop: money('95'), stopHigh: null });
  });

  it('forgets an armed high once the trailing take profit is turned off, and starts afresh after an exit', () => {
    const v = { params: trailingTp, market };
    const armed = drive(initialGridState(botId('t8')), ['109', '126'], v).state;
    const off = { params: { ...params, takeProfit: '130' }, market };
    const { state, fills } = drive(armed, ['127'], off);
    expect(state.trail).toBeNull();
    // Not armed, the grid trades again: its sells at 115 and 120 are below the price.
    expect(fills.map((f) => `${f.side} ${f.price} ${f.amount}`)).toEqual(['sell 127 2.361', 'sell 127 2.361']);
    // Done, then started again: a new start price and no high.
    const done = drive(armed, ['100'], v).state;
    expect(done.phase).toBe('done');
    const restarted = drive({ ...done, phase: 'waiting' }, ['112'], v).state;
    expect([restarted.start?.toFixed(), restarted.trail, restarted.stopHigh]).toEqual(['112', null, null]);
  });

  it('refuses a trailing exit without its price, and a deviation out of 0.1-20 %', () => {
    const p = money('109');
    expect(validateGrid({ ...params, trailingDeviation: '2' }, market, p)).toEqual([{ field: 'takeProfit', reason: 'trailingNeedsTakeProfit' }]);
    expect(validateGrid({ ...params, trailingStop: true }, market, p)).toEqual([{ field: 'stopLoss', reason: 'trailingStopNeedsStopLoss' }]);
    expect(validateGrid({ ...params, takeProfit: '125', trailingDeviation: '25' }, market, p)).toEqual([{ field: 'trailingDeviation', reason: 'range' }]);
    expect(validateGrid({ ...params, takeProfit: '125', trailingDeviation: '0.05' }, market, p)).toEqual([{ field: 'trailingDeviation', reason: 'range' }]);
    expect(validateGrid({ ...params, takeProfit: '125', trailingDeviation: 'x' }, market, p)).toEqual([{ field: 'trailingDeviation', reason: 'format' }]);
    expect(validateGrid({ ...trailingTp, stopLoss: '95', trailingStop: true, trailingDeviation: '20' }, market, p)).toEqual([]);
    expect(validateGrid({ ...params, trailingDeviation: '', trailingStop: false }, market, p)).toEqual([]);
  });

  /** 1,500 candles swinging through the grid's range ever wider, with gaps: past its take profit and its stop in the end. */
  const wobbly = (() => {
    const rows: [number, number, number, number][] = [];
    let p = 10_900;
    for (let i = 0; i < 1500; i++) {
      const o = p + (i % 7 === 3 ? Math.round(Math.sin(i) * 90) : 0);
      const target = 11_000 + (300 + i * 2) * Math.sin(i / 23);
      const c = Math.round(o + (target - o) * 0.3 + Math.sin(i * 0.37) * 60);
      rows.push([o / 100, (Math.max(o, c) + 20) / 100, (Math.min(o, c) - 20) / 100, c / 100]);
      p = c;
    }
    return columns(rows);
  })();

  /** The fills of every cent of the continuous path taken as a price round of the live engine on Paper (engineRound). */
  const tickByTick = (v: GridView, candles: CandleColumns) => {
    let state = initialGridState(botId('backtest'));
    const fills: string[] = [];
    const cents = (x: number) => Math.round(x * 100);
    const at = (price: string, i: number) => {
      const round = engineRound(gridKit, state, v, money(price), v.market.stepSize);
      state = round.state;
      for (const f of round.fills) fills.push(`${i} ${f.reason} ${f.side} ${f.amount.toFixed()} @ ${f.price.toFixed()}`);
    };
    const done = () => state.phase === 'done';
    for (let i = 0; i < candles.open.length && !done(); i++) {
      const [o, h, l, c] = [candles.open[i]!, candles.high[i]!, candles.low[i]!, candles.close[i]!];
      const points = (c >= o ? [o, l, h, c] : [o, h, l, c]).map(cents);
      let now = points[0]!;
      at((now / 100).toFixed(2), i);
      for (const to of points.slice(1)) {
        while (now !== to && !done()) {
          now += to > now ? 1 : -1;
          at((now / 100).toFixed(2), i);
        }
      }
    }
    return { fills, state };
  };

  it.each([
    ['a trailing take profit', { ...params, takeProfit: '124', trailingDeviation: '1' }],
    ['a wide one', { ...params, takeProfit: '121', trailingDeviation: '8' }],
    ['a trailing stop', { ...params, stopLoss: '92', trailingStop: true }],
    ['both', { ...params, takeProfit: '123', trailingDeviation: '0.5', stopLoss: '96', trailingStop: true }],
    ['a trailing take profit over a fixed stop', { ...params, takeProfit: '122', trailingDeviation: '2', stopLoss: '97' }],
  ] as [string, GridParams][])('backtests exactly as the engine on Paper takes every tick of the path (%s)', (_, p) => {
    const v = { params: p, market };
    const fast = backtestGrid(v, wobbly, { slippage: '0' });
    const slow = tickByTick(v, wobbly);
    expect(fast.fills.length).toBeGreaterThan(8);
    expect(fast.state.phase).toBe('done');
    expect(fast.fills.map(line)).toEqual(slow.fills);
    // The same end too: the highs followed and the lines fired at (a trailing take profit armed after the
    // levels sold on the way up fires with nothing to sell: only the state tells).
    expect(fast.state).toEqual(slow.state);
    expect(s(slow.state.realized)).toBe(fast.realized);
  });

  it('backtests the worked example on candles: the gap to 126 fills the sells waiting at 115 and 120, arms at 125, raised to 130; the line 127.40 stops it', () => {
    const r = backtestGrid(
      { params: trailingTp, market },
      columns([
        [109, 109, 109, 109],
        [126, 130, 125.5, 129], // gaps past the sells at 115 and 120 (they fill there) and the take profit: arms at 125, raised to 126; green: 125.5, then up to 130
        [129, 129.5, 127, 127.5], // red: 129.5 is no new high; the fall to 127 passes the line 127.40: sold there
      ]),
      { slippage: '0' },
    );
    // As the engine on Paper takes the same jump (its sell orders wait at their levels), not as the
    // strategy asked at 126 at once (the table above: 85.7382172, everything sold at 127.40).
    expect(r.fills.map(line)).toEqual(['0 open buy 4.727 @ 109', '1 close sell 2.361 @ 115', '1 close sell 2.361 @ 120']);
    // 13.555715 + 25.33892; armed with nothing held, the line only stops the bot.
    expect(r.realized).toBe('39.037165');
    expect(r.state.trail?.toFixed()).toBe('130');
    expect(r.state.phase).toBe('done');
  });
});
