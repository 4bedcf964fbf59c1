import { describe, expect, it } from 'vitest';
import { assetAmount, num, pct, signed, usdt } from './format.ts';

/** Issue 14: one module decides each figure's precision; never "63,995.206667" or "104.95629975". */
describe('figures', () => {
  it('shows USDT at 2 decimals at most, a coin at 8, in the trader’s language', () => {
    expect(usdt('9980.4041219', 'zh')).toBe('9,980.4');
    expect(usdt('104.95629975', 'en')).toBe('104.96');
    expect(usdt('25.5', 'en')).toBe('25.5');
    expect(assetAmount('9980.4041219', 'USDT', 'en')).toBe('9,980.4');
    expect(assetAmount('0.00012345678', 'BTC', 'en')).toBe('0.00012346');
    expect(assetAmount('1', 'usdc', 'en')).toBe('1');
  });

  it('shows a change in percent with its sign and always 2 decimals', () => {
    expect(pct('4.2', 'en')).toBe('+4.20%');
    expect(pct('-0.6345', 'zh')).toBe('-0.63%');
    expect(pct('0', 'en')).toBe('0.00%');
    expect(pct(null, 'en')).toBe('—');
  });

  it('keeps exact decimals exact (no float noise) and a dash for nothing', () => {
    expect(num('0.30000000000000004', 'en', 8)).toBe('0.3');
    expect(signed('-0.5', 'en')).toBe('-0.5');
    expect(num('', 'en')).toBe('—');
  });
});
