import Decimal from 'decimal.js';
import { describe, expect, it } from 'vitest';
import { abovePercent, belowPercent, ceilTo, floorTo, money } from './money.ts';

/** A deterministic stream of doubles in [0, 1) (a linear congruential generator). */
function numbers(seed: number): () => number {
  let x = seed;
  return () => {
    x = (x * 1_103_515_245 + 12_345) % 2_147_483_648;
    return x / 2_147_483_648;
  };
}

describe('rounding to a step', () => {
  it('gives exactly what a division by the step gives, for steps that are powers of ten and others', () => {
    const next = numbers(7);
    const steps = ['1', '0.1', '0.01', '0.00001', '1e-8', '0.5', '0.25', '0.0025', '5', '10', '100'].map((s) => money(s));
    const values: Decimal[] = [money(0), money('-0.001'), money('123456789012345678901234567890.123456789'), money('1e-30'), money('1234567890123456789012345678901234567890.98765')];
    for (let k = 0; k < 400; k++) {
      const digits = Math.floor(next() * 30) + 1;
      const places = Math.floor(next() * 20) - 5;
      const sign = next() < 0.2 ? '-' : '';
      let text = '';
      for (let d = 0; d < digits; d++) text += String(Math.floor(next() * 10));
      values.push(money(`${sign}${text}e${-places}`));
    }
    let compared = 0;
    for (const step of steps) {
      for (const value of values) {
        const floor = floorTo(value, step);
        const ceil = ceilTo(value, step);
        expect([floor.toFixed(), floor.isNegative()]).toEqual([value.toNearest(step, Decimal.ROUND_DOWN).toFixed(), value.toNearest(step, Decimal.ROUND_DOWN).isNegative()]);
        expect([ceil.toFixed(), ceil.isNegative()]).toEqual([value.toNearest(step, Decimal.ROUND_UP).toFixed(), value.toNearest(step, Decimal.ROUND_UP).isNegative()]);
        compared++;
      }
    }
    expect(compared).toBe(steps.length * values.length);
    expect(floorTo(money('60071.769'), money('0.01')).toFixed()).toBe('60071.76');
    expect(ceilTo(money('60071.761'), money('0.01')).toFixed()).toBe('60071.77');
    expect(floorTo(money('7.3'), money('0.5')).toFixed()).toBe('7');
  });

  it('keeps the percentage factors exact, the same from the first ask to the thousandth', () => {
    expect(belowPercent('2').toFixed()).toBe('0.98');
    expect(abovePercent('1.5').toFixed()).toBe('1.015');
    for (let i = 0; i < 1000; i++) belowPercent(String(i / 10));
    expect(belowPercent('0.35').toFixed()).toBe('0.9965');
    expect(abovePercent('100').toFixed()).toBe('2');
  });
});
