import { describe, expect, it } from 'vitest';
import { money } from './money.ts';
import { backtestMartin, type CandleColumns } from './backtest.ts';
import { decideMartin, initialMartinState } from './martin/strategy.ts';
import { botId } from './types.ts';
import { buyAmount } from './martin/plan.ts';
import type { MarketRules, MartinParams } from './martin/rules.ts';

const market: MarketRules = { tickSize: money('0.01'), stepSize: money('0.00001'), minAmount: money('0.00001'), minCost: money('5'), feeRate: money('0.001') };
const params: MartinParams = { investment: '700', firstOrder: '100', multiplier: '2', maxPositions: 3, addTrigger: '2', takeProfit: '1.5', repeat: true };
const columns = (rows: [number, number, number, number][]): CandleColumns => ({
  open: Float64Array.from(rows.map((r) => r[0])),
  high: Float64Array.from(rows.map((r) => r[1])),
  low: Float64Array.from(rows.map((r) => r[2])),
  close: Float64Array.from(rows.map((r) => r[3])),
});

describe('the martin backtest', () => {
  it('fills at the trigger crossings of each candle, as the strategy replay does', () => {
    // open/high/low/close: a red candle reaching 58800 (add), a red one reaching 57624 (add),
    // then a green one whose high crosses the take profit 59160.17 (strategy.test.ts example).
    const r = backtestMartin({ params, market }, columns([
      [60000, 60000, 60000, 60000],
      [59900, 59950, 58800, 58900],
      [58900, 58950, 57624, 57700],
      [57700, 60000, 57650, 59800],
    ]));
    expect(r.fills.map((f) => `${f.candle} ${f.reason} ${f.side} ${f.amount} @ ${f.price}`)).toEqual([
      '0 open buy 0.00166 @ 60000',
      '1 add buy 0.0034 @ 58800',
      '2 add buy 0.00694 @ 57624',
      '3 close sell 0.01198 @ 60000',
      '3 open buy 0.00167 @ 59800',
    ]);
    expect(r.cycles).toBe(1);
    expect(r.realized).toBe('19.11739379');
  });

  it('gives the same fills as asking the strategy at every tick', () => {
    // A long random-ish path: the fast scan must equal the plain tick-by-tick replay.
    const rows: [number, number, number, number][] = [];
    let p = 60000;
    for (let i = 0; i < 3000; i++) {
      const o = p;
      const c = Math.round((o * (1 + Math.sin(i * 0.37) * 0.012 + Math.cos(i * 0.11) * 0.004)) * 100) / 100;
      rows.push([o, Math.max(o, c) + 25.5, Math.min(o, c) - 25.5, c]);
      p = c;
    }
    const fast = backtestMartin({ params, market }, columns(rows));
    let state = initialMartinState(botId('backtest'));
    const slow: string[] = [];
    const tick = (price: number, i: number) => {
      const out = decideMartin(state, { type: 'PriceTicked', price: money(String(price)) }, { params, market });
      state = out.state;
      for (const intent of out.intents) {
        if (intent.type !== 'PlaceOrder') continue;
        const amount = intent.side === 'buy' ? buyAmount(intent.quote!, money(String(price)), market.stepSize) : intent.amount!;
        slow.push(`${i} ${intent.reason} ${amount.toFixed()} @ ${price}`);
        state = decideMartin(state, { type: 'OrderFilled', clientOrderId: intent.clientOrderId, side: intent.side, price: money(String(price)), amount }, { params, market }).state;
      }
    };
    rows.forEach(([o, h, l, c], i) => {
      tick(o, i);
      if (c >= o) { tick(l, i); tick(h, i); } else { tick(h, i); tick(l, i); }
      tick(c, i);
    });
    expect(fast.fills.length).toBeGreaterThan(10);
    expect(fast.fills.map((f) => `${f.candle} ${f.reason} ${f.amount} @ ${Number(f.price)}`)).toEqual(slow);
  });
});
