import { describe, expect, it } from 'vitest';
import { ago, amount, assetAmount, decimalsOf, fuel, num, pct, percent, platformAmount, price, profit, signed, usdt } from './format.ts';

/** One module decides each figure's precision; never "63,995.206667" or "104.95629975". */
describe('figures', () => {
  // Quote amounts (USDT) at exactly 2 places with their trailing zeros and thousands separators, in both languages.
  it.each([
    ['9980.4041219', '9,980.40'],
    ['104.95629975', '104.96'],
    ['105.5', '105.50'],
    ['72133', '72,133.00'],
    ['0', '0.00'],
    ['-0.004', '0.00'],
    ['1234567.891', '1,234,567.89'],
  ])('shows USDT %s as %s', (value, shown) => {
    expect(usdt(value, 'zh')).toBe(shown);
    expect(usdt(value, 'en')).toBe(shown);
    expect(assetAmount(value, 'USDT', 'en')).toBe(shown);
    expect(platformAmount(value, 'usdt', 'en')).toBe(shown);
  });

  it.each([
    ['12.5', '+12.50'],
    ['-0.7', '-0.70'],
    ['0', '0.00'],
    ['-0.001', '0.00'],
    ['1234.567', '+1,234.57'],
  ])('shows a USDT profit %s as %s', (value, shown) => {
    expect(profit(value, 'zh')).toBe(shown);
  });

  it('shows a coin other than a stable one at 8 decimals at most', () => {
    expect(assetAmount('0.00012345678', 'BTC', 'en')).toBe('0.00012346');
    expect(assetAmount('1', 'usdc', 'en')).toBe('1.00');
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
    expect(price('64715.80', 'en')).toBe('64,715.80'); // a ticker's string is at its tick
    expect(price('0.15000', 'en')).toBe('0.15000');
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
    expect(amount('0.0003', 'en', '0.00001')).toBe('0.00030'); // every decimal the step allows
    expect(amount('12345', 'en', '1')).toBe('12,345');
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
    expect(percent('5.3', 'en')).toBe('5.30%');
    expect(percent('12.345', 'zh')).toBe('12.35%');
  });

  it('keeps exact decimals exact (no float noise) and a dash for nothing', () => {
    expect(num('0.30000000000000004', 'en', 8)).toBe('0.3');
    expect(signed('-0.5', 'en')).toBe('-0.5');
    expect(num('', 'en')).toBe('—');
  });
});

describe('ago', () => {
  it("says how long ago in the trader's language: seconds, then minutes, then hours", () => {
    const now = Date.parse('2026-11-28T12:00:00Z');
    expect(ago('2026-11-28T11:59:48Z', 'en', now)).toBe('12 seconds ago');
    expect(ago('2026-11-28T11:59:48Z', 'zh', now)).toBe('12秒钟前');
    expect(ago('2026-11-28T11:55:00Z', 'en', now)).toBe('5 minutes ago');
    expect(ago('2026-11-28T09:00:00Z', 'zh', now)).toBe('3小时前');
    // A clock a little ahead of the phone's is "0 seconds ago", never in the future.
    expect(ago('2026-11-28T12:00:03Z', 'en', now)).toBe('0 seconds ago');
  });
});
