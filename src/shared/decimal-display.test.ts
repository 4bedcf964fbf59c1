import { describe, expect, it } from 'vitest';
import { formatDecimal } from './decimal-display.ts';

/** The same figures Intl.NumberFormat writes (zh-CN and en-US), for every option the app uses. */
function intl(value: string | number, locale: 'zh-CN' | 'en-US', min: number, max: number, signed: boolean, down: boolean): string {
  return new Intl.NumberFormat(locale, {
    minimumFractionDigits: min,
    maximumFractionDigits: max,
    signDisplay: signed ? 'exceptZero' : 'auto',
    ...(down ? { roundingMode: 'trunc' as const } : {}),
  }).format(value as unknown as number);
}

/** A seeded generator, so a failure repeats. */
function lcg(seed: number) {
  let s = seed;
  return () => {
    s = (s * 1_103_515_245 + 12_345) % 2 ** 31;
    return s / 2 ** 31;
  };
}

describe('formatDecimal', () => {
  it('writes what Intl.NumberFormat writes, on edge values', () => {
    const values = [
      '0',
      '-0',
      '0.0',
      '5',
      '-5',
      '0.5',
      '0.05',
      '0.005',
      '0.0049',
      '-0.005',
      '-0.0049',
      '9.995',
      '99.995',
      '999.9999',
      '-999.995',
      '1234567.891',
      '0.30000000000000004',
      '1e-8',
      '1.5E-7',
      '-2.5e-9',
      '1.2e3',
      '12e+2',
      '.5',
      '5.',
      '+7.25',
      '00012.3400',
      '  42.1  ',
      '63995.206667',
      '104.95629975',
    ];
    const numbers = [0, -0, 1, -1, 0.1, 0.125, -0.125, 1e-7, 1.5e-10, 123456.789, 2 ** 53, 1e21, -Math.PI];
    for (const v of [...values, ...numbers])
      for (const [min, max] of [
        [0, 0],
        [0, 2],
        [2, 2],
        [0, 4],
        [2, 4],
        [0, 8],
      ] as const)
        for (const signed of [false, true])
          for (const down of [false, true]) {
            const want = intl(v, 'en-US', min, max, signed, down);
            expect(formatDecimal(v, { min, max, signed, down }), `${JSON.stringify(v)} ${min}-${max} signed=${signed} down=${down}`).toBe(want);
            expect(intl(v, 'zh-CN', min, max, signed, down)).toBe(want);
          }
  });

  it('writes what Intl.NumberFormat writes, on 5,000 random decimals', () => {
    const random = lcg(20_261_124);
    for (let i = 0; i < 5000; i++) {
      const whole = String(Math.floor(random() * 10 ** Math.floor(random() * 12)));
      const fraction = String(Math.floor(random() * 1e9)).padStart(Math.floor(random() * 12), '0');
      const v = `${random() < 0.3 ? '-' : ''}${whole}.${fraction}`;
      const max = Math.floor(random() * 9);
      const min = Math.floor(random() * (max + 1));
      const signed = random() < 0.5;
      const down = random() < 0.5;
      expect(formatDecimal(v, { min, max, signed, down }), `${v} ${min}-${max} ${signed} ${down}`).toBe(intl(v, 'en-US', min, max, signed, down));
    }
  });

  it('keeps more digits than a float has', () => {
    expect(formatDecimal('12345678901234567890.123456789', { min: 0, max: 9, signed: false, down: false })).toBe('12,345,678,901,234,567,890.123456789');
    expect(formatDecimal('abc', { min: 0, max: 2, signed: false, down: false })).toBe('NaN');
  });
});
