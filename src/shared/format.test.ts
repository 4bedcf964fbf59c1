import { describe, expect, it } from 'vitest';
import { amount, assetAmount, decimalsOf, fuel, num, pct, price, signed, usdt } from './format.ts';

/** One module decides each figure's precision; never "63,995.206667" or "104.95629975". */
describe('figures', () => {
  it('shows USDT at 2 decimals at most, a coin at 8, in the trader’s language', () => {
    expect(usdt('9980.4041219', 'zh')).toBe('9,980.4');
    expect(usdt('104.95629975', 'en')).toBe('104.96');
    expect(usdt('25.5', 'en')).toBe('25.5');
    expect(assetAmount('9980.4041219', 'USDT', 'en')).toBe('9,980.4');
    expect(assetAmount('0.00012345678', 'BTC', 'en')).toBe('0.00012346');
    expect(assetAmount('1', 'usdc', 'en')).toBe('1');
  });

  it("shows a price at the pair's tick, or by its size when the tick is not known", () => {
    expect(price('63995.206667', 'en', '0.01')).toBe('63,995.21');
    expect(price('63995.2', 'zh', '0.01')).toBe('63,995.20');
    expect(price('0.123456789', 'en', '0.0001')).toBe('0.1235');
    expect(price('104.95629975', 'en', '1')).toBe('105');
    expect(price('63995.206667', 'en')).toBe('63,995.21');
    expect(price('2.3456789', 'en')).toBe('2.3457');
    expect(price('0.000012345678', 'en')).toBe('0.00001235');
    expect(price(undefined, 'en', '0.01')).toBe('—');
  });

  it('reads the decimals of a tick or step in any of its spellings', () => {
    expect(decimalsOf('0.01')).toBe(2);
    expect(decimalsOf('0.00010000')).toBe(4);
    expect(decimalsOf('1')).toBe(0);
    expect(decimalsOf('10')).toBe(0);
    expect(decimalsOf('1e-8')).toBe(8);
    expect(decimalsOf('0')).toBeUndefined();
    expect(decimalsOf(undefined)).toBeUndefined();
  });

  it("shows an amount at the market's step, fuel and rewards at 2 to 4 decimals", () => {
    expect(amount('0.001234567', 'en', '0.0001')).toBe('0.0012');
    expect(amount('0.00129999', 'en', '0.0001')).toBe('0.0012'); // cut, never shown larger than held
    expect(amount('0.001234567', 'en')).toBe('0.00123456');
    expect(fuel('12.5', 'zh')).toBe('12.50');
    expect(fuel('0.037512', 'en')).toBe('0.0375');
    expect(fuel('1000', 'en')).toBe('1,000.00');
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
