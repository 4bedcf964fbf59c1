import { describe, expect, it } from 'vitest';
import { money } from '../money.ts';
import { validateGrid } from '../grid/plan.ts';
import type { GridParams } from '../grid/rules.ts';
import { refitGrid, refitMartin } from './refit.ts';

const market = { tickSize: money('0.01'), stepSize: money('0.00001'), minAmount: money('0.00001'), minCost: money('5'), feeRate: money('0.001') };
// The AI search's ±10 % range around 50,000 (strategy/ai/search.ts configure), 8 grids.
const proposal: GridParams = { investment: '1000', lower: '45000', upper: '55000', grids: 8, spacing: 'geometric' };

describe('an AI proposal at the price it is created at', () => {
  it('keeps a grid the price is still inside and botCreate accepts', () => {
    expect(refitGrid(proposal, market, money('51234.5'))).toEqual({ params: proposal, moved: false });
  });

  it('moves a grid whose range the price has left to the price now: same width, grids and spacing', () => {
    const fit = refitGrid(proposal, market, money('40000'));
    expect(fit).toEqual({ params: { ...proposal, lower: '36000', upper: '44000' }, moved: true });
    expect(validateGrid(fit!.params, market, money('40000'))).toEqual([]);
    // Above the range too; the bounds are floored to the tick.
    expect(refitGrid(proposal, market, money('61111.11'))!.params).toMatchObject({ lower: '54999.99', upper: '67222.22' });
  });

  it('gives up on a grid that cannot fit the price now, moved or not', () => {
    // 1 USDT a grid is below the 5 USDT minimum order at any price: nothing to move it to.
    expect(validateGrid({ ...proposal, investment: '8' }, market, money('50000'))).toMatchObject([{ field: 'investment', reason: 'belowMinimum' }]);
    expect(refitGrid({ ...proposal, investment: '8' }, market, money('50000'))).toBeNull();
    expect(refitGrid({ ...proposal, investment: '8' }, market, money('30000'))).toBeNull();
  });

  it('keeps a martin proposal that fits (its prices are relative), and gives up on one whose first order the price now makes too small', () => {
    const martin = { investment: '1000', firstOrder: '10', multiplier: '1.5', maxPositions: 5, addTrigger: '2', takeProfit: '1', repeat: true };
    expect(refitMartin(martin, market, money('50000'))).toEqual({ params: martin, moved: false });
    const coarse = { ...market, stepSize: money('0.001'), minAmount: money('0.001') };
    expect(refitMartin(martin, coarse, money('5000'))).toEqual({ params: martin, moved: false }); // 10 USDT buys 0.002
    expect(refitMartin(martin, coarse, money('20000'))).toBeNull(); // 10 USDT buys 0.0005: under the 0.001 minimum
  });
});
