import { describe, expect, it } from 'vitest';
import { money, toPlain } from './money.ts';
import { stepTrailingStop, stepTrailingTakeProfit, trailLine, worstTrailingGain, type TrailStep } from './trailing.ts';

const tick = money('0.01');
const show = (s: TrailStep) => (s.kind === 'idle' ? 'idle' : `${s.kind} ${toPlain(s.high)} ${toPlain(s.line)}`);

describe('trailing take profit', () => {
  it('stays idle below the take-profit price, arms at it, follows the high, fires on the fall (martin/README.md example)', () => {
    const tp = money('60900');
    let high: ReturnType<typeof money> | null = null;
    const seen: string[] = [];
    for (const p of ['60500', '60900', '61200', '61500', '61300', '61192.51', '61192.5']) {
      const s = stepTrailingTakeProfit(high, money(p), tp, '0.5', tick);
      seen.push(show(s));
      if (s.kind !== 'idle') high = s.high;
    }
    expect(seen).toEqual(['idle', 'armed 60900 60595.5', 'raised 61200 60894', 'raised 61500 61192.5', 'held 61500 61192.5', 'held 61500 61192.5', 'fired 61500 61192.5']);
  });

  it('sells below the take-profit price when the price turns right after arming (no floor at the take profit)', () => {
    const armed = stepTrailingTakeProfit(null, money('60900'), money('60900'), '0.5', tick);
    expect(show(armed)).toBe('armed 60900 60595.5');
    expect(show(stepTrailingTakeProfit(money('60900'), money('60595.5'), money('60900'), '0.5', tick))).toBe('fired 60900 60595.5');
  });

  it('a price that jumps far past the line fires at once, and a jump above the take profit arms at that price', () => {
    expect(show(stepTrailingTakeProfit(null, money('62000'), money('60900'), '1', tick))).toBe('armed 62000 61380');
    expect(show(stepTrailingTakeProfit(money('62000'), money('50000'), money('60900'), '1', tick))).toBe('fired 62000 61380');
  });

  it('floors the line to the tick: the fall is at least the deviation', () => {
    expect(toPlain(trailLine(money('61234.57'), '0.3', tick))).toBe('61050.86'); // 61234.57 x 0.997 = 61050.8662.. down
  });
});

describe('trailing stop loss', () => {
  it('follows the high since the entry and never moves down', () => {
    let high = money('60000');
    const seen: string[] = [];
    for (const p of ['59000', '61000', '60500', '59780']) {
      const s = stepTrailingStop(high, money(p), '2', tick);
      seen.push(show(s));
      high = s.high;
    }
    expect(seen).toEqual(['held 60000 58800', 'raised 61000 59780', 'held 61000 59780', 'fired 61000 59780']);
  });
});

describe('the worst trailing sale', () => {
  it('is (1 + t)(1 - d) - 1 over the average: a gain while d < t / (1 + t), a loss beyond', () => {
    expect(toPlain(worstTrailingGain('1.5', '0.5'))).toBe('0.9925');
    expect(worstTrailingGain('1.5', '1.5').lt(0)).toBe(true);
    expect(toPlain(worstTrailingGain('1', '2'))).toBe('-1.02');
  });
});
