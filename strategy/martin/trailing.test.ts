import { describe, expect, it } from 'vitest';
import type Decimal from 'decimal.js';
import { money, toPlain } from '../money.ts';
import { botId, type EngineEvent, type Intent } from '../types.ts';
import { backtestMartin, type CandleColumns } from '../backtest.ts';
import { engineRound } from '../engine-round.test-support.ts';
import { martinKit } from '../kit.ts';
import type { MartinParams } from './rules.ts';
import type { MarketRules } from '../core/market.ts';
import { validateMartin } from './plan.ts';
import { buyAmount } from '../core/position.ts';
import { decodeMartin, encodeMartin } from './state-codec.ts';
import { decideMartin, initialMartinState, martinTriggers, type MartinState } from './strategy.ts';

/** README.md "Trailing take profit and trailing stop loss": the worked examples, number by number. */
const market: MarketRules = { tickSize: money('0.01'), stepSize: money('0.00001'), minAmount: money('0.00001'), minCost: money('5'), feeRate: money('0.001') };
const base: MartinParams = { investment: '700', firstOrder: '100', multiplier: '2', maxPositions: 3, addTrigger: '2', takeProfit: '1.5', repeat: false };
const trailingTp: MartinParams = { ...base, trailingDeviation: '0.5' };

/** Replays prices; market orders fill at once at the tick's price. The journal has the orders, the trailing moves and the closes. */
function replay(prices: string[], params: MartinParams, from: MartinState = initialMartinState(botId('t1'))) {
  let state = from;
  const journal: string[] = [];
  const view = { params, market };
  const run = (event: EngineEvent, price: Decimal) => {
    const out = decideMartin(state, event, view);
    state = out.state;
    for (const intent of out.intents as Intent[]) {
      if (intent.type === 'TrailingMoved') journal.push(`${intent.exit} ${intent.step} high ${toPlain(intent.high)} line ${toPlain(intent.line)}`);
      else if (intent.type === 'CycleClosed') journal.push(`profit ${toPlain(intent.profit)}`);
      else if (intent.type === 'PlaceOrder') {
        const amount = intent.side === 'buy' ? buyAmount(intent.quote!, price, market.stepSize) : intent.amount!;
        journal.push(`${intent.reason} ${intent.side} ${toPlain(amount)} @ ${toPlain(price)}`);
        run({ type: 'OrderFilled', clientOrderId: intent.clientOrderId, side: intent.side, price, amount }, price);
      }
    }
  };
  for (const p of prices) run({ type: 'PriceTicked', price: money(p) }, money(p));
  return { journal, state };
}

describe('martin trailing take profit (README example)', () => {
  it('arms at the take-profit price 60900, follows the high to 61500 and sells at 61192.50, 0.5 % below it', () => {
    const { journal, state } = replay(['60000', '60500', '60900', '61200', '61500', '61300', '61192.51', '61192.5'], trailingTp);
    expect(journal).toEqual([
      'open buy 0.00166 @ 60000',
      'take_profit armed high 60900 line 60595.5',
      'take_profit raised high 61200 line 60894',
      'take_profit raised high 61500 line 61192.5',
      'take_profit fired high 61500 line 61192.5',
      'close sell 0.00165 @ 61192.5',
      // 0.00165 x 61192.5 x 0.999 = 100.866657375; cost sold 99.6 x 0.00165 / 0.00165834 = 99.0990991 (8 places)
      'profit 1.266657375',
    ]);
    expect(state.phase).toBe('done');
    expect(state.trail).toBeNull();
  });

  it('without trailing the same path sells at the take-profit price 60900: 0.48 USDT less (0.784515)', () => {
    const { journal } = replay(['60000', '60500', '60900'], base);
    expect(journal).toEqual(['open buy 0.00166 @ 60000', 'close sell 0.00165 @ 60900', 'profit 0.784515']);
  });

  it('a turn right after arming sells below the take-profit price: at 60595.50, still over the average', () => {
    const { journal } = replay(['60000', '60900', '60700', '60595.5'], trailingTp);
    expect(journal.slice(1)).toEqual(['take_profit armed high 60900 line 60595.5', 'take_profit fired high 60900 line 60595.5', 'close sell 0.00165 @ 60595.5', 'profit 0.282592425']);
  });

  it('places no add while armed, and a fall through the line sells even past the next add', () => {
    const deep: MartinParams = { ...base, trailingDeviation: '3' };
    const { journal } = replay(['60000', '60900', '58800'], deep);
    // line floor(60900 x 0.97) = 59073: 58800 is below it and at the add price; the sale comes first.
    expect(journal.slice(1, 4)).toEqual(['take_profit armed high 60900 line 59073', 'take_profit fired high 60900 line 59073', 'close sell 0.00165 @ 58800']);
  });
});

describe('martin trailing stop loss (README example)', () => {
  it('the stop follows the high since the entry: 58800, then 59780 after 61000, and sells there', () => {
    const params: MartinParams = { ...base, takeProfit: '3', stopLoss: '2', trailingStop: true };
    const { journal } = replay(['60000', '60500', '61000', '60500', '59780'], params);
    expect(journal).toEqual([
      'open buy 0.00166 @ 60000',
      'stop_loss raised high 60500 line 59290',
      'stop_loss raised high 61000 line 59780',
      'stop_loss fired high 61000 line 59780',
      'stop sell 0.00165 @ 59780',
      // 0.00165 x 59780 x 0.999 = 98.538363, less the cost sold 99.0990991
      'profit -1.061637',
    ]);
  });

  it('needs a stop loss, and the deviation is bounded', () => {
    const price = money('60000');
    expect(validateMartin({ ...base, trailingStop: true }, market, price)).toEqual([{ field: 'stopLoss', reason: 'trailingStopNeedsStopLoss' }]);
    expect(validateMartin({ ...base, trailingDeviation: '25' }, market, price)).toEqual([{ field: 'trailingDeviation', reason: 'range' }]);
    expect(validateMartin({ ...base, trailingDeviation: 'x' }, market, price)).toEqual([{ field: 'trailingDeviation', reason: 'format' }]);
    expect(validateMartin({ ...base, trailingDeviation: '', stopLoss: '2', trailingStop: true }, market, price)).toEqual([]);
  });
});

describe('the trailing high survives a restart', () => {
  it('is stored and read back; the restored bot fires at the same line', () => {
    const params: MartinParams = { ...trailingTp, stopLoss: '5', trailingStop: true };
    const view = { params, market };
    const { state } = replay(['60000', '60900', '61500'], params);
    expect([toPlain(state.trail!), toPlain(state.stopHigh!)]).toEqual(['61500', '61500']);
    const stored = JSON.parse(JSON.stringify(encodeMartin(state)));
    expect(stored).toMatchObject({ trail: '61500', stopHigh: '61500' });
    const back = decodeMartin('t1', stored, view);
    expect(encodeMartin(back)).toEqual(stored);
    expect(martinKit.triggers(back, view)).toEqual(martinKit.triggers(state, view));
    expect(replay(['61192.5'], params, back).journal.slice(-2, -1)).toEqual(['close sell 0.00165 @ 61192.5']);
  });

  it('an old bot without trailing stores nothing new and behaves as before', () => {
    const { state } = replay(['60000', '60500'], base);
    expect(Object.keys(encodeMartin(state))).not.toContain('trail');
    expect(Object.keys(encodeMartin(state))).not.toContain('stopHigh');
    expect(martinKit.triggers(state, { params: base, market })).toEqual({ up: 60900, down: 58800, asks: false, upAt: money('60900'), downAt: money('58800') });
  });

  it("the engine's triggers ask at the high while armed, and the line below", () => {
    const { state } = replay(['60000', '60900', '61200'], trailingTp);
    const view = { params: trailingTp, market };
    // The line is a trigger price a round is decided at; the high is not (a new high is decided at itself).
    expect(martinKit.triggers(state, view)).toEqual({ up: 61200, down: 60894, asks: false, upAt: null, downAt: money('60894') });
    const t = martinTriggers(state, view)!;
    expect([t.up, toPlain(t.down!), toPlain(t.follow!)]).toEqual([null, '60894', '61200']);
  });
});

/** Rows of open, high, low, close. */
const columns = (rows: [number, number, number, number][]): CandleColumns => ({
  open: Float64Array.from(rows.map((r) => r[0])),
  high: Float64Array.from(rows.map((r) => r[1])),
  low: Float64Array.from(rows.map((r) => r[2])),
  close: Float64Array.from(rows.map((r) => r[3])),
});

describe('the backtest with trailing exits', () => {
  it('follows the high of each candle and sells at the line (hand-made candles)', () => {
    const r = backtestMartin(
      { params: trailingTp, market },
      columns([
        [60000, 60000, 60000, 60000], // opens: take profit 60900
        [60100, 61500, 60050, 61400], // green: rises through 60900 (armed) to 61500 (line 61192.5), closes 61400
        [61400, 61700, 61000, 61100], // red: 61400 -> 61700 (line 61391.5) -> 61000 passes the line: sells at 61391.5
      ]),
      { slippage: '0' },
    );
    expect(r.fills.map((f) => `${f.candle} ${f.reason} ${f.amount} @ ${f.price}`)).toEqual(['0 open 0.00166 @ 60000', '2 close 0.00165 @ 61391.5']);
  });

  // 1.8 s on a quiet machine, 36 s with two `npm test` side by side (load 17).
  it('gives the same fills as asking the strategy at every tick of the continuous path', { timeout: 120_000 }, () => {
    const cheap: MarketRules = { ...market, stepSize: money('0.0001'), minAmount: money('0.0001') };
    const rows: [number, number, number, number][] = [];
    const cents = (x: number) => Math.round(x * 100);
    let p = 10_000;
    for (let i = 0; i < 1500; i++) {
      const o = p + (i % 7 === 3 ? Math.round(Math.sin(i) * 80) : 0);
      const c = Math.round(o * (1 + Math.sin(i * 0.37) * 0.012 + Math.cos(i * 0.11) * 0.004));
      rows.push([o / 100, (Math.max(o, c) + 25) / 100, (Math.min(o, c) - 25) / 100, c / 100]);
      p = c;
    }
    for (const params of [
      { ...base, repeat: true, trailingDeviation: '0.4' },
      { ...base, repeat: true, stopLoss: '3', trailingStop: true },
      { ...base, repeat: true, trailingDeviation: '0.8', stopLoss: '4', trailingStop: true },
    ] as MartinParams[]) {
      const view = { params, market: cheap };
      const fast = backtestMartin(view, columns(rows), { slippage: '0' });
      // The reference: every cent of the path as a price round of the live engine on Paper (engineRound).
      let state = initialMartinState(botId('backtest'));
      const slow: string[] = [];
      const at = (price: string, i: number) => {
        const round = engineRound(martinKit, state, view, money(price), cheap.stepSize);
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
      expect(fast.fills.length).toBeGreaterThan(20);
      expect(fast.fills.map((f) => `${f.candle} ${f.reason} ${f.amount} @ ${f.price}`)).toEqual(slow);
    }
  });
});
