import { describe, expect, it } from 'vitest';
import { DEFAULT_SLIPPAGE } from '../../../strategy/backtest.ts';
import { defaultSlippage, slippagePercent, slippages } from './slippage.ts';

describe('the slippage choices of the backtest and AI screens', () => {
  it('start at the server’s default and stay within what the API takes (0 to 0.05)', () => {
    expect(defaultSlippage).toBe(DEFAULT_SLIPPAGE);
    expect(slippages).toContain(defaultSlippage);
    for (const s of slippages) expect(Number(s) >= 0 && Number(s) <= 0.05 && /^0(\.\d{1,8})?$/.test(s)).toBe(true);
  });

  it('are shown as percents', () => {
    expect(slippages.map((s) => slippagePercent(s, 'zh-CN'))).toEqual(['0', '0.05', '0.1', '0.3']);
  });
});
