import { describe, expect, it } from 'vitest';
import { money } from '../money.ts';
import { botId, type ClientOrderId, type Intent, type PlaceOrder } from '../types.ts';
import { backtestGrid } from './backtest.ts';
import { gridLevels, planGrid, validateGrid } from './plan.ts';
import type { GridParams } from './rules.ts';
import { decideGrid, initialGridState, type GridState, type GridView } from './strategy.ts';

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
    // Empty level: 110 (nearest 109). q = 1000 / (100 + 105 + 2 x 109 x 1.001) = 2.3628... -> 2.362
    expect(plan.empty).toBe(2);
    expect(s(plan.quantity)).toBe('2.362');
    expect(s(plan.startBuy)).toBe('514.916');
    // 100 -> 105: floor(2.362 x 0.999) = 2.359 sold at 105 less 0.1%: 247.447305 - 236.2 = 11.247305.
    expect(s(plan.profit.max)).toBe('11.247305');
    // 115 -> 120: 2.359 x 120 x 0.999 - 2.362 x 115 = 282.79692 - 271.63 = 11.16692.
    expect(s(plan.profit.min)).toBe('11.16692');
    expect(plan.profit.maxPct.toDecimalPlaces(4).toFixed()).toBe('4.7618');
    expect(plan.profit.minPct.toDecimalPlaces(4).toFixed()).toBe('4.1111');
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
});

/** Drives the strategy as the engine does: a price, then each order filled at that price. */
function drive(start: GridState, prices: string[], v: GridView = view) {
  let state = start;
  const fills: { side: string; price: string; amount: string; reason: string }[] = [];
  const closed: string[] = [];
  for (const p of prices) {
    const price = money(p);
    for (;;) {
      const r = decideGrid(state, { type: 'PriceTicked', price }, v);
      state = r.state;
      const order = r.intents.find((i): i is PlaceOrder => i.type === 'PlaceOrder');
      if (!order) break;
      const amount = order.side === 'buy' ? order.quote!.div(price).toDecimalPlaces(3, 1) : order.amount!;
      fills.push({ side: order.side, price: p, amount: s(amount), reason: order.reason });
      const f = decideGrid(state, { type: 'OrderFilled', clientOrderId: order.clientOrderId, side: order.side, price, amount }, v);
      state = f.state;
      for (const i of f.intents as Intent[]) if (i.type === 'CycleClosed') closed.push(s(i.profit));
    }
  }
  return { state, fills, closed };
}

describe('the grid strategy', () => {
  it('buys the sells’ base at the start, sells a level up after each buy and buys a level down after each sell', () => {
    const { state, fills, closed } = drive(initialGridState(botId('g1')), ['109', '115', '110', '115']);
    expect(fills).toEqual([
      // 514.916 / 109 = 4.724; after the fee 4.719276 -> 2.359 for each of the sells at 115 and 120, each costing 257.458.
      { side: 'buy', price: '109', amount: '4.724', reason: 'open' },
      { side: 'sell', price: '115', amount: '2.359', reason: 'close' },
      { side: 'buy', price: '110', amount: '2.362', reason: 'add' },
      { side: 'sell', price: '115', amount: '2.359', reason: 'close' },
    ]);
    // 2.359 x 115 x 0.999 = 271.013715; less 257.458, then less 2.362 x 110 = 259.82.
    expect(closed).toEqual(['13.555715', '11.193715']);
    expect(s(state.realized)).toBe('24.74943');
    expect(state.trades).toBe(2);
    expect(state.orders.map((o) => o?.side ?? '-')).toEqual(['buy', 'buy', 'buy', '-', 'sell']);
  });

  it('sells everything and stops at the stop loss, booking the loss', () => {
    const v = { ...view, params: { ...params, stopLoss: '95' } };
    const { state, fills, closed } = drive(initialGridState(botId('g2')), ['109', '104', '94'], v);
    expect(fills.map((f) => `${f.side} ${f.price} ${f.amount} ${f.reason}`)).toEqual([
      'buy 109 4.724 open', 'buy 104 2.362 add', 'sell 94 7.077 stop',
    ]);
    expect(state.phase).toBe('done');
    expect(Number(closed[0])).toBeLessThan(0);
    expect(drive(state, ['130', '80'], v).fills).toEqual([]);
  });

  it('pauses on a refused order and ignores answers it did not ask for', () => {
    const r = decideGrid(initialGridState(botId('g3')), { type: 'PriceTicked', price: money('109') }, view);
    const id = (r.intents[0] as PlaceOrder).clientOrderId;
    expect(decideGrid(r.state, { type: 'OrderFilled', clientOrderId: 'other' as ClientOrderId, side: 'buy', price: money('109'), amount: money('1') }, view).state).toBe(r.state);
    const refused = decideGrid(r.state, { type: 'OrderRejected', clientOrderId: id, reason: 'insufficient balance' }, view);
    expect(refused.intents).toEqual([{ type: 'PauseBot', reason: 'insufficient balance' }]);
  });
});

describe('grid backtest', () => {
  it('fills and profits on a price path that oscillates through its range', () => {
    // 10 days of minutes swinging between 98 and 122 twice a day.
    const n = 14_400;
    const wave = (i: number) => 110 + 12 * Math.sin((i / 720) * Math.PI);
    const col = (f: (i: number) => number) => Float64Array.from({ length: n }, (_, i) => Math.round(f(i) * 100) / 100);
    const candles = { open: col(wave), close: col((i) => wave(i + 1)), high: col((i) => Math.max(wave(i), wave(i + 1)) + 0.05), low: col((i) => Math.min(wave(i), wave(i + 1)) - 0.05) };
    const r = backtestGrid(view, candles);
    expect(r.trades).toBeGreaterThanOrEqual(40); // 4 grids, up and down 10 times
    expect(Number(r.realized)).toBeGreaterThan(400);
    // Every sell books about one grid's planned profit: 11.17-11.25 USDT, the first ones from the start price.
    expect(r.fills.filter((f) => f.side === 'sell').length).toBe(r.trades);
    // The same path through the strategy step by step gives the same books.
    const prices: string[] = [];
    for (let i = 0; i < n; i++) {
      const [o, c] = [candles.open[i]!, candles.close[i]!];
      const path = c >= o ? [o, candles.low[i]!, candles.high[i]!, c] : [o, candles.high[i]!, candles.low[i]!, c];
      prices.push(...path.map((x) => String(x)));
    }
    expect(s(drive(initialGridState(botId('backtest')), prices).state.realized)).toBe(r.realized);
  });
});
