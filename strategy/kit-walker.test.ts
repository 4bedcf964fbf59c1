import { describe, expect, it } from 'vitest';
import { backtestMartin, type CandleColumns, walkKit } from './backtest.ts';
import { martinKit } from './kit.ts';
import type { MartinParams } from './martin/rules.ts';
import type { MarketRules } from './core/market.ts';
import { money } from './money.ts';

const market: MarketRules = { tickSize: money('0.01'), stepSize: money('0.0001'), minAmount: money('0.0001'), minCost: money('5'), feeRate: money('0.001') };

/** A long random-ish path of a 100-USDT coin, with a gap now and then. */
function path(n: number): CandleColumns {
  const rows: [number, number, number, number][] = [];
  let p = 10_000;
  for (let i = 0; i < n; i++) {
    const o = p + (i % 7 === 3 ? Math.round(Math.sin(i) * 80) : 0);
    const c = Math.round(o * (1 + Math.sin(i * 0.37) * 0.012 + Math.cos(i * 0.11) * 0.004));
    rows.push([o / 100, (Math.max(o, c) + 25) / 100, (Math.min(o, c) - 25) / 100, c / 100]);
    p = c;
  }
  return { open: Float64Array.from(rows, (r) => r[0]), high: Float64Array.from(rows, (r) => r[1]), low: Float64Array.from(rows, (r) => r[2]), close: Float64Array.from(rows, (r) => r[3]) };
}

/**
 * The walk of any kit (backtest.ts walkKit) asks a strategy only through its kit: its triggers and its decide
 * function. Driving the martin kit, it must make exactly the fills of martin's own walker, which the
 * martin tests hold to a tick-by-tick replay of the live engine.
 */
describe('the kit walker', () => {
  const candles = path(1500);
  for (const [name, params] of [
    ['take profit and adds, repeating', { investment: '700', firstOrder: '100', multiplier: '2', maxPositions: 3, addTrigger: '2', takeProfit: '1.5', repeat: true }],
    ['with a stop loss', { investment: '700', firstOrder: '100', multiplier: '2', maxPositions: 3, addTrigger: '2', takeProfit: '3', stopLoss: '4', repeat: true }],
  ] as [string, MartinParams][]) {
    it(`walks martin as martin's own walker does: ${name}`, () => {
      for (const slippage of ['0', '0.0005']) {
        const own = backtestMartin({ params, market }, candles, { slippage });
        const kit = walkKit(martinKit, { params, market }, candles, { slippage });
        expect(own.fills.length).toBeGreaterThan(3);
        expect(kit.fills).toEqual(own.fills);
        expect(kit.cycles).toBe(own.cycles);
        expect(kit.realized).toBe(own.realized);
      }
    });
  }
});
