import { describe, expect, it } from 'vitest';
import type Decimal from 'decimal.js';
import type { CandleColumns } from '../backtest.ts';
import { buyAmount } from '../core/position.ts';
import type { MarketRules } from '../core/market.ts';
import { money, toPlain } from '../money.ts';
import { botId, type EngineEvent, type Intent, type PlaceOrder } from '../types.ts';
import { engineRound } from '../engine-round.test-support.ts';
import { dcaKit } from '../kit.ts';
import { backtestDca } from './backtest.ts';
import type { DcaParams } from './rules.ts';
import { decodeDca, encodeDca } from './state-codec.ts';
import { dcaFeedOf, dcaOpenAt, dcaTriggers, decideDca, initialDcaState, type DcaState } from './strategy.ts';

const market: MarketRules = { tickSize: money('0.01'), stepSize: money('0.00001'), minAmount: money('0.00001'), minCost: money('5'), feeRate: money('0.001') };
const params: DcaParams = {
  investment: '320',
  baseOrder: '20',
  safetyOrder: '20',
  maxSafetyOrders: 4,
  deviation: '1.5',
  stepScale: '1.5',
  volumeScale: '2',
  takeProfit: '1.5',
  stopLoss: '15',
  start: { kind: 'now' },
};
const MIN = 60_000;
const T0 = Date.parse('2026-03-02T00:00:00Z'); // a Monday

/** Replays (price, time) ticks; market orders fill at once at the tick's price. Returns the journal. */
function replay(ticks: [string, number?][], p: DcaParams = params, from: DcaState = initialDcaState(botId('d1'))) {
  let state = from;
  const journal: string[] = [];
  const view = { params: p, market };
  const run = (event: EngineEvent, price: string) => {
    const out = decideDca(state, event, view);
    state = out.state;
    for (const intent of out.intents as Intent[]) {
      if (intent.type === 'PlaceOrder') {
        const amount = intent.side === 'buy' ? buyAmount(intent.quote!, money(price), market.stepSize) : intent.amount!;
        journal.push(`${intent.clientOrderId} ${intent.reason} ${intent.side} ${toPlain(amount)} @ ${price}`);
        run({ type: 'OrderFilled', clientOrderId: intent.clientOrderId, side: intent.side, price: money(price), amount }, price);
      } else if (intent.type === 'CycleClosed') journal.push(`deal ${intent.cycle} closed, profit ${toPlain(intent.profit)}`);
    }
  };
  for (const [price, at] of ticks) run({ type: 'PriceTicked', price: money(price), at: at === undefined ? undefined : T0 + at * MIN }, price);
  return { journal, state };
}

describe('the DCA strategy on a price path', () => {
  it('opens, fills each safety order at its price, takes profit over the average and opens the next deal', () => {
    const { journal, state } = replay([['60000'], ['59100.01'], ['59100'], ['57750'], ['55725'], ['52687.5'], ['50000'], ['55638.13'], ['55638.14'], ['56000']], { ...params, stopLoss: undefined });
    expect(journal).toEqual([
      'd1-1-1 open buy 0.00033 @ 60000',
      'd1-1-2 add buy 0.00033 @ 59100',
      'd1-1-3 add buy 0.00069 @ 57750',
      'd1-1-4 add buy 0.00143 @ 55725',
      'd1-1-5 add buy 0.00303 @ 52687.5',
      // README.md's worked example: the take profit after the 4th safety order.
      'd1-1-6 close sell 0.0058 @ 55638.14',
      'deal 1 closed, profit 3.898135788',
      // The next deal opens on the next price (the engine's next round).
      'd1-2-1 open buy 0.00035 @ 56000',
    ]);
    expect(state).toMatchObject({ phase: 'holding', cycle: 2, safeties: 0 });
  });

  it('fills one safety order per price: a gap past two fills the second on the next price', () => {
    const { journal } = replay([['60000'], ['56000'], ['56000']]);
    expect(journal.slice(1)).toEqual(['d1-1-2 add buy 0.00035 @ 56000', 'd1-1-3 add buy 0.00071 @ 56000']);
  });

  it('stops out at 15 % below the base price', () => {
    const { journal, state } = replay([['60000'], ['59100'], ['57750'], ['55725'], ['52687.5'], ['51000.01'], ['51000'], ['51000']]);
    // 0.0058 x 51000 x 0.999 - 318.480375 (the sold part's cost, as in the worked example)
    expect(journal.slice(5, 7)).toEqual(['d1-1-6 stop sell 0.0058 @ 51000', 'deal 1 closed, profit -22.976175']);
    // Without a cooldown or a schedule the next deal opens at once.
    expect(journal[7]).toBe('d1-2-1 open buy 0.00039 @ 51000');
    expect(state.cycle).toBe(2);
  });

  it('waits the cooldown after a close before the next deal', () => {
    const p = { ...params, cooldown: 600 };
    const { journal } = replay(
      [
        ['60000', 0],
        ['60900', 3],
        ['60000', 12],
        ['60000', 13],
      ],
      p,
    );
    expect(journal).toEqual(['d1-1-1 open buy 0.00033 @ 60000', 'd1-1-2 close sell 0.00032 @ 60900', 'deal 1 closed, profit -0.331488', 'd1-2-1 open buy 0.00033 @ 60000']);
    // Closed at minute 3: the next deal may open at minute 13, not at 12.
    expect(
      replay(
        [
          ['60000', 0],
          ['60900', 3],
          ['60000', 12],
        ],
        p,
      ).journal,
    ).toHaveLength(3);
  });

  it('counts the next start from the close, under the parameters as they are now (an edit while it waits moves it)', () => {
    const p = { ...params, cooldown: 600 };
    const { state } = replay(
      [
        ['60000', 0],
        ['60900', 3],
      ],
      p,
    );
    expect(state).toMatchObject({ phase: 'waiting', cycle: 2, since: T0 + 3 * MIN });
    expect(dcaOpenAt(state, p)).toBe(T0 + 13 * MIN);
    expect(dcaOpenAt(state, { ...p, cooldown: 0 })).toBe(T0 + 3 * MIN);
    // The cooldown ends at 00:13, past today's 00:10: tomorrow's.
    expect(dcaOpenAt(state, { ...p, start: { kind: 'schedule', every: 'day', time: '00:10', utcOffset: 0 } })).toBe(T0 + 1450 * MIN);
    expect(dcaOpenAt(state, { ...p, cooldown: 0, start: { kind: 'schedule', every: 'day', time: '00:10', utcOffset: 0 } })).toBe(T0 + 10 * MIN);
    // Edited to no cooldown, it opens on the next price.
    expect(replay([['60100', 4]], { ...p, cooldown: 0 }, state).journal).toEqual(['d1-2-1 open buy 0.00033 @ 60100']);
  });

  it('opens on its schedule: the first deal at the next start, the next at the first start after the close', () => {
    const daily = { ...params, start: { kind: 'schedule', every: 'day', time: '00:10', utcOffset: 0 } as const };
    const first = replay(
      [
        ['60000', 0],
        ['60000', 9],
      ],
      daily,
    );
    expect(first.journal).toEqual([]);
    expect(first.state.since).toBe(T0);
    expect(dcaOpenAt(first.state, daily)).toBe(T0 + 10 * MIN);
    const { journal } = replay(
      [
        ['60000', 0],
        ['60000', 10],
        ['61000', 20],
        ['60500', 30],
        ['60400', 1449],
        ['60300', 1450],
      ],
      daily,
    );
    // Closed at 00:20: the next deal waits for 00:10 of the next day (minute 1450).
    expect(journal).toEqual(['d1-1-1 open buy 0.00033 @ 60000', 'd1-1-2 close sell 0.00032 @ 61000', 'deal 1 closed, profit -0.29952', 'd1-2-1 open buy 0.00033 @ 60300']);
    // No time, no schedule: a scheduled bot never opens on a tick without one.
    expect(replay([['60000'], ['60000']], daily).journal).toEqual([]);
  });

  it('trails the take profit: armed at 60900, follows the high, sells on a 0.5 % fall from it (README.md)', () => {
    const trailing = { ...params, trailingDeviation: '0.5' };
    const view = { params: trailing, market };
    let state = replay([['60000']], trailing).state;
    const ask = (price: string) => {
      const out = decideDca(state, { type: 'PriceTicked', price: money(price) }, view);
      state = out.state;
      return out.intents.map((i) =>
        i.type === 'TrailingMoved' ? `${i.step} ${toPlain(i.high)} ${toPlain(i.line)}` : i.type === 'PlaceOrder' ? `${i.reason} ${i.side} ${toPlain(i.amount!)}` : i.type,
      );
    };
    expect(ask('60899.99')).toEqual([]);
    // floor(60900 x 0.995) = 60595.5
    expect(ask('60900')).toEqual(['armed 60900 60595.5']);
    // Armed, the deal buys no safety order and follows the high: floor(61500 x 0.995) = 61192.5.
    expect(ask('61500')).toEqual(['raised 61500 61192.5']);
    expect(ask('61200')).toEqual([]);
    expect(dcaTriggers(state, view)).toEqual({ up: null, down: money('61192.5'), follow: money('61500') });
    // Stored and loaded, it keeps its high.
    state = decodeDca('d1', JSON.parse(JSON.stringify(encodeDca(state))), view);
    expect(ask('61192.5')).toEqual(['fired 61500 61192.5', 'close sell 0.00032']);
    const filled = decideDca(state, { type: 'OrderFilled', clientOrderId: state.pending!.id, side: 'sell', price: money('61192.5'), amount: money('0.00032') }, view);
    // 0.00032 x 61192.5 x 0.999 - 19.8 x 0.00032 / 0.00032967 (the sold part's cost)
    expect(filled.intents).toMatchObject([{ type: 'CycleClosed', cycle: 1 }]);
    expect(toPlain((filled.intents[0] as { profit: Decimal }).profit)).toBe('-0.2379816');
    expect(filled.state.trail).toBeNull();
  });

  it('trails the stop loss: 15 % below the high since the base order, it overtakes the last safety order (README.md)', () => {
    // Take profit 5 % (63000 on the base order), so the rise does not sell.
    const trailing: DcaParams = { ...params, takeProfit: '5', trailingStop: true };
    const view = { params: trailing, market };
    let state = replay([['60000']], trailing).state;
    // At the base order the stop is the fixed one: floor(60000 x 0.85) = 51000.
    expect(dcaTriggers(state, view)).toEqual({ up: money('63000'), down: money('59100'), follow: money('60000') });
    const ask = (price: string) => {
      const out = decideDca(state, { type: 'PriceTicked', price: money(price) }, view);
      state = out.state;
      const said = out.intents.map((i) =>
        i.type === 'TrailingMoved'
          ? `${i.exit} ${i.step} ${toPlain(i.high)} ${toPlain(i.line)}`
          : i.type === 'PlaceOrder'
            ? `${i.reason} ${i.side} ${toPlain(i.amount ?? buyAmount(i.quote!, money(price), market.stepSize))}`
            : i.type,
      );
      const order = out.intents.find((i) => i.type === 'PlaceOrder');
      if (order?.type === 'PlaceOrder') {
        const amount = order.amount ?? buyAmount(order.quote!, money(price), market.stepSize);
        const filled = decideDca(state, { type: 'OrderFilled', clientOrderId: order.clientOrderId, side: order.side, price: money(price), amount }, view);
        state = filled.state;
        for (const i of filled.intents) if (i.type === 'CycleClosed') said.push(`closed ${toPlain(i.profit)}`);
      }
      return said;
    };
    // floor(62500 x 0.85) = 53125; a new high moves it (stored with the state, not logged).
    expect(ask('62500')).toEqual(['stop_loss raised 62500 53125']);
    expect(ask('60500')).toEqual([]);
    // Stored and loaded, it keeps its high.
    state = decodeDca('d1', JSON.parse(JSON.stringify(encodeDca(state))), view);
    expect(state.stopHigh).toEqual(money('62500'));
    expect(ask('59100')).toEqual(['add buy 0.00033']);
    expect(ask('57750')).toEqual(['add buy 0.00069']);
    expect(ask('55725')).toEqual(['add buy 0.00143']);
    // The 4th safety order (52687.5) is now below the stop: it never fills.
    expect(dcaTriggers(state, view)).toEqual({ up: money('59992.49'), down: money('53125'), follow: money('62500') });
    expect(ask('53125.01')).toEqual([]);
    expect(ask('53125')).toEqual(['stop_loss fired 62500 53125', 'stop sell 0.00277', 'closed -11.82815625']);
    expect(state.stopHigh).toBeNull();
    // With the fixed stop (51000) the same path holds at 53125, waiting for the 4th safety order.
    expect(replay([['60000'], ['62500'], ['59100'], ['57750'], ['55725'], ['53125']], { ...trailing, trailingStop: false }).journal).toHaveLength(4);
  });

  it('keeps its state across a restart (stored form)', () => {
    const { state } = replay([['60000'], ['59100']]);
    const stored = JSON.parse(JSON.stringify(encodeDca(state)));
    const back = decodeDca('d1', stored, { params, market });
    expect(back).toEqual(state);
    expect(toPlain(back.targets!.nextSafety!)).toBe('57750');
    expect(replay([['57750']], params, back).journal).toEqual(['d1-1-3 add buy 0.00069 @ 57750']);
  });

  it('sells part of a deal by hand and keeps the average cost', () => {
    const { state } = replay([['60000'], ['59100']]);
    const out = decideDca(state, { type: 'ManualCloseRequested', price: money('59500'), part: { amount: money('0.0003'), share: '50' } }, { params, market });
    const order = out.intents[0]!;
    expect(order).toMatchObject({ type: 'PlaceOrder', side: 'sell', reason: 'manual_close' });
    const filled = decideDca(out.state, { type: 'OrderFilled', clientOrderId: (order as PlaceOrder).clientOrderId, side: 'sell', price: money('59500'), amount: money('0.0003') }, { params, market });
    expect(filled.intents[0]).toMatchObject({ type: 'PositionReduced', cycle: 1, share: '50' });
    expect(toPlain(filled.state.targets!.takeProfit)).toBe('60443.25');
    expect(filled.state.phase).toBe('holding');
  });
});

const columns = (rows: [number, number, number, number][], minutes = 1): CandleColumns & { time: Float64Array } => ({
  time: Float64Array.from(rows.map((_, i) => T0 + i * minutes * MIN)),
  open: Float64Array.from(rows.map((r) => r[0])),
  high: Float64Array.from(rows.map((r) => r[1])),
  low: Float64Array.from(rows.map((r) => r[2])),
  close: Float64Array.from(rows.map((r) => r[3])),
});
const line = (f: { candle: number; reason: string; side: string; amount: string; price: string }) => `${f.candle} ${f.reason} ${f.side} ${f.amount} @ ${f.price}`;

describe('the DCA backtest', () => {
  it('fills at the triggers, inside a candle or past a gap (hand-made candles)', () => {
    const r = backtestDca(
      { params: { ...params, stopLoss: undefined }, market },
      columns([
        [60000, 60000, 60000, 60000],
        [58000, 58100, 57900, 58000], // gaps past the 1st safety order (59100): fills there, where it waited (not at the open 58000)
        [58000, 58050, 55000, 55500], // red: down through 57750 and 55725
        [55500, 58500, 55400, 58000], // green: up through the take profit ceil(158.83725 / 0.00278 x 1.015) = 57992.74
      ]),
      { slippage: '0' },
    );
    expect(r.fills.map(line)).toEqual([
      '0 open buy 0.00033 @ 60000',
      '1 add buy 0.00033 @ 59100',
      '2 add buy 0.00069 @ 57750',
      '2 add buy 0.00143 @ 55725',
      '3 close sell 0.00277 @ 57992.74',
      '3 open buy 0.00034 @ 57992.74',
    ]);
    expect(r.cycles).toBe(1);
  });

  it('opens each deal after the cooldown, at the first candle open at or after its end', () => {
    const rows: [number, number, number, number][] = [
      [60000, 60000, 60000, 60000],
      [60000, 61000, 60000, 61000], // take profit 60900 at minute 1: next deal not before minute 6
      [61000, 61000, 61000, 61000],
      [61000, 61000, 61000, 61000],
      [61000, 61000, 61000, 61000],
      [61000, 61000, 61000, 61000],
      [61100, 61100, 61100, 61100],
    ];
    const r = backtestDca({ params: { ...params, cooldown: 300 }, market }, columns(rows), { slippage: '0' });
    expect(r.fills.map(line)).toEqual(['0 open buy 0.00033 @ 60000', '1 close sell 0.00032 @ 60900', '6 open buy 0.00032 @ 61100']);
  });

  it.each([
    ['', 'a fixed take profit'],
    ['0.4', 'a trailing take profit'],
  ])('gives the same fills as asking the strategy at every tick of the continuous path (%s: %s)', (trailingDeviation) => {
    const cheap: MarketRules = { ...market, stepSize: money('0.0001'), minAmount: money('0.0001') };
    const p: DcaParams = {
      ...params,
      investment: '2000',
      baseOrder: '50',
      safetyOrder: '40',
      maxSafetyOrders: 5,
      deviation: '0.8',
      stepScale: '1.3',
      volumeScale: '1.5',
      takeProfit: '1.2',
      stopLoss: '9',
      cooldown: 120,
      trailingDeviation: trailingDeviation || undefined,
    };
    const rows: [number, number, number, number][] = [];
    const cents = (x: number) => Math.round(x * 100);
    let price = 10_000;
    for (let i = 0; i < 1500; i++) {
      const o = price + (i % 7 === 3 ? Math.round(Math.sin(i) * 80) : 0);
      const c = Math.round(o * (1 + Math.sin(i * 0.37) * 0.012 + Math.cos(i * 0.11) * 0.004));
      rows.push([o / 100, (Math.max(o, c) + 25) / 100, (Math.min(o, c) - 25) / 100, c / 100]);
      price = c;
    }
    const view = { params: p, market: cheap };
    const fast = backtestDca(view, columns(rows), { slippage: '0' });
    // The reference: every cent of the path as a price round of the live engine on Paper (engineRound).
    let state = initialDcaState(botId('backtest'));
    const slow: string[] = [];
    const at = (text: string, i: number) => {
      const round = engineRound(dcaKit, state, view, money(text), cheap.stepSize, { at: T0 + i * MIN });
      state = round.state;
      for (const f of round.fills) slow.push(`${i} ${f.reason} ${f.side} ${f.amount.toFixed()} @ ${f.price.toFixed()}`);
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
    expect(fast.fills.map(line)).toEqual(slow);
    expect(fast.realized).toBe(state.realized.toFixed());
  });
});

/**
 * The indicator start (README.md "Deal start"): the custom bot's worked example's ten 1-minute candles
 * (../custom/README.md: RSI(3, 1m) is 80, 42.11, 24.62, 20.38, 55.12, 72.87, 80.56 at candles 3-9).
 */
describe('the DCA indicator start', () => {
  const coin: MarketRules = { tickSize: money('0.01'), stepSize: money('0.001'), minAmount: money('0.001'), minCost: money('5'), feeRate: money('0.001') };
  const candles: [number, number, number, number][] = [
    [100, 100.5, 99.5, 100],
    [100, 102.5, 99.5, 102],
    [102, 102.5, 100.5, 101],
    [101, 103.5, 100.5, 103],
    [103, 103.5, 99.5, 100],
    [100, 100.5, 96.5, 97],
    [97, 97.5, 95.5, 96],
    [96, 99.5, 95.5, 99],
    [99, 102.5, 98.5, 102],
    [102, 104.5, 101.5, 104],
  ];
  const rsi = { kind: 'rsi', period: 3, timeframe: '1m' } as const;
  const p: DcaParams = {
    investment: '100',
    baseOrder: '20',
    safetyOrder: '20',
    maxSafetyOrders: 1,
    deviation: '3',
    stepScale: '1',
    volumeScale: '1',
    takeProfit: '4',
    start: { kind: 'indicator', rule: { join: 'and', conditions: [{ left: rsi, op: '<', right: { kind: 'value', value: '30' } }] } },
  };
  const view = { params: p, market: coin };
  const asCandles = (rows: [number, number, number, number][], from = 0) => rows.map(([open, high, low, close], i) => ({ time: T0 + (from + i) * MIN, open, high, low, close }));

  it('opens a deal at the close where the rule holds, and waits for it again after the take profit (backtest)', () => {
    const r = backtestDca(view, columns(candles), { slippage: '0' });
    // RSI(3) 24.62 < 30 at candle 5: 20 / 97 -> 0.206; take profit ceil(97 x 1.04) = 100.88, reached by candle 8's rise.
    expect(r.fills.map(line)).toEqual(['5 open buy 0.206 @ 97', '8 close sell 0.205 @ 100.88']);
    // 0.205 x 100.88 x 0.999 - 19.982 x 0.205 / 0.205794
    expect(r.realized).toBe('0.6777196');
    // RSI 72.87 and 80.56 at candles 8 and 9: no second deal. A `now` start opens at the first candle.
    expect(r.state.phase).toBe('waiting');
    expect(backtestDca({ ...view, params: { ...p, start: { kind: 'now' } } }, columns(candles), { slippage: '0' }).fills.map(line)[0]).toBe('0 open buy 0.2 @ 100');
  });

  it('a warm-up lets the rule read from the first candle, in the backtest and live alike', () => {
    const warm = asCandles(candles.slice(0, 5));
    const rest: [number, number, number, number][] = candles.slice(5);
    const later = columns(rest);
    later.time = Float64Array.from(rest.map((_, i) => T0 + (5 + i) * MIN));
    // Without history RSI(3) first reads at the 4th candle here (85.71): no deal.
    expect(backtestDca(view, later, { slippage: '0' }).fills).toEqual([]);
    const warmed = backtestDca(view, later, { slippage: '0' }, { '1m': warm });
    expect(warmed.fills.map(line)).toEqual(['0 open buy 0.206 @ 97', '3 close sell 0.205 @ 100.88']);
    // Live: the engine seeds the feed with the same candles, then every price with its time; the first
    // price of a minute closes the one before, whose check opens the deal at that price (97, candle 6's open).
    let state = initialDcaState(botId('d1'));
    dcaFeedOf(state, view)!.seed('1m', warm);
    const journal: string[] = [];
    const tick = (price: number, at: number) => {
      for (;;) {
        const out = decideDca(state, { type: 'PriceTicked', price: money(String(price)), at }, view);
        state = out.state;
        const order = out.intents.find((x) => x.type === 'PlaceOrder');
        if (order?.type !== 'PlaceOrder') return;
        const amount = order.side === 'buy' ? buyAmount(order.quote!, money(String(price)), coin.stepSize) : order.amount!;
        journal.push(`${(at - T0 - 5 * MIN - ((at - T0) % MIN)) / MIN} ${order.reason} ${order.side} ${amount.toFixed()} @ ${price}`);
        state = decideDca(state, { type: 'OrderFilled', clientOrderId: order.clientOrderId, side: order.side, price: money(String(price)), amount }, view).state;
      }
    };
    // Each candle's path a cent at a time (open -> low -> high -> close when it rises), each price at its second.
    rest.forEach(([o, h, l, c], i) => {
      const corners = (c >= o ? [o, l, h, c] : [o, h, l, c]).map((x) => Math.round(x * 100));
      const path = [corners[0]!];
      for (const to of corners.slice(1)) for (let x = path.at(-1)!; x !== to; path.push(x)) x += to > x ? 1 : -1;
      for (const [k, x] of path.entries()) tick(x / 100, T0 + (5 + i) * MIN + k * 50);
    });
    // Live fills at the first price of the minute after the check (candle 1's open, 97 = candle 0's close).
    expect(journal).toEqual(['1 open buy 0.206 @ 97', '3 close sell 0.205 @ 100.88']);
  });

  it('trades a 1,500-minute continuous path as the tick-by-tick live strategy does (cooldown, trailing stop)', () => {
    const cheap: MarketRules = { ...market, stepSize: money('0.0001'), minAmount: money('0.0001') };
    const q: DcaParams = {
      investment: '2000',
      baseOrder: '50',
      safetyOrder: '40',
      maxSafetyOrders: 4,
      deviation: '0.8',
      stepScale: '1.3',
      volumeScale: '1.5',
      takeProfit: '1.2',
      stopLoss: '6',
      trailingStop: true,
      cooldown: 120,
      start: {
        kind: 'indicator',
        rule: {
          join: 'or',
          conditions: [
            { left: { kind: 'rsi', period: 6, timeframe: '1m' }, op: '<', right: { kind: 'value', value: '35' } },
            { left: { kind: 'price' }, op: 'crossesBelow', right: { kind: 'bb', band: 'lower', period: 20, deviation: '2', timeframe: '5m' } },
          ],
        },
      },
    };
    // Each candle opens at the last close (live, a deal opens at the next minute's first price: the same).
    const rows: [number, number, number, number][] = [];
    let price = 10_000;
    for (let i = 0; i < 1500; i++) {
      const c = Math.round(price * (1 + Math.sin(i * 0.37) * 0.012 + Math.cos(i * 0.11) * 0.004));
      rows.push([price / 100, (Math.max(price, c) + 25) / 100, (Math.min(price, c) - 25) / 100, c / 100]);
      price = c;
    }
    const v = { params: q, market: cheap };
    const fast = backtestDca(v, columns(rows), { slippage: '0' });
    let state = initialDcaState(botId('backtest'));
    const slow: string[] = [];
    const at = (cents: number, i: number, t: number) => {
      const text = (cents / 100).toFixed(2);
      for (;;) {
        const out = decideDca(state, { type: 'PriceTicked', price: money(text), at: t }, v);
        state = out.state;
        const intent = out.intents.find((x) => x.type === 'PlaceOrder');
        if (intent?.type !== 'PlaceOrder') return;
        const amount = intent.side === 'buy' ? buyAmount(intent.quote!, money(text), cheap.stepSize) : intent.amount!;
        // An entry at a minute's first price was decided at the close of the minute before (the backtest's candle).
        slow.push(`${intent.reason === 'open' ? i - 1 : i} ${intent.reason} ${intent.side} ${amount.toFixed()} @ ${money(text).toFixed()}`);
        state = decideDca(state, { type: 'OrderFilled', clientOrderId: intent.clientOrderId, side: intent.side, price: money(text), amount }, v).state;
      }
    };
    rows.forEach(([o, h, l, c], i) => {
      const corners = (c >= o ? [o, l, h, c] : [o, h, l, c]).map((x) => Math.round(x * 100));
      const path = [corners[0]!];
      for (const to of corners.slice(1)) for (let x = path.at(-1)!; x !== to; path.push(x)) x += to > x ? 1 : -1;
      for (const [k, x] of path.entries()) at(x, i, T0 + i * MIN + Math.floor((k * MIN) / path.length));
    });
    at(Math.round(rows.at(-1)![3] * 100), rows.length, T0 + rows.length * MIN);
    const reasons = new Set(fast.fills.map((f) => f.reason));
    expect([...reasons].sort()).toEqual(['add', 'close', 'open', 'stop']);
    expect(fast.cycles).toBeGreaterThan(10);
    expect(fast.fills.map(line)).toEqual(slow);
    expect(fast.realized).toBe(state.realized.toFixed());
  });
});
