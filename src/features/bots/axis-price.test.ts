import { describe, expect, it } from 'vitest';
import { axisPrice } from './axis-price.ts';

describe('axisPrice', () => {
  it('never shows a negative zero on a PnL axis', () => {
    expect(axisPrice(-0.001)).toBe('0.00');
    expect(axisPrice(-0)).toBe('0.00');
    expect(axisPrice(0.004)).toBe('0.00');
  });
  it('shows USDT at 2 decimals, grouped, with the sign of a real loss', () => {
    expect(axisPrice(-0.02)).toBe('-0.02');
    expect(axisPrice(1234.567)).toBe('1,234.57');
    expect(axisPrice(0.07)).toBe('0.07');
  });
});
