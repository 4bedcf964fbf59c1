import { describe, expect, it } from 'vitest';
import { closeCycle } from '../core/position.ts';
import type { MarketRules } from '../core/market.ts';
import { money, toPlain } from '../money.ts';
import { dcaStopPrice, dealFunds, nextSlot, planDeal, safetyDeviation, startRuleProblems, validateDca } from './plan.ts';
import type { Rule } from '../custom/rules.ts';
import type { DcaParams } from './rules.ts';

// The worked example of README.md, number by number.
const btc: MarketRules = { tickSize: money('0.01'), stepSize: money('0.00001'), minAmount: money('0.00001'), minCost: money('5'), feeRate: money('0.001') };
const example: DcaParams = {
  investment: '320',
  baseOrder: '20',
  safetyOrder: '20',
  maxSafetyOrders: 4,
  deviation: '1.5',
  stepScale: '1.5',
  volumeScale: '2',
  takeProfit: '1.5',
  stopLoss: '15',
  start: { kind: 'now' },
};

describe('DCA worked example: BTC/USDT from 60000, 4 safety orders, step scale 1.5, volume scale 2', () => {
  const deal = planDeal(example, btc, money('60000'));
  const row = (i: number) => {
    const o = deal[i]!;
    return [toPlain(o.deviation), toPlain(o.price), toPlain(o.quote), toPlain(o.amount), toPlain(o.cost), toPlain(o.totalCost), toPlain(o.takeProfit)];
  };

  it('places every safety order at d x (s^n - 1) / (s - 1) below the base price, sized SO x v^(n-1)', () => {
    expect([1, 2, 3, 4].map((n) => toPlain(safetyDeviation(example, n)))).toEqual(['1.5', '3.75', '7.125', '12.1875']);
    expect(row(0)).toEqual(['0', '60000', '20', '0.00033', '19.8', '19.8', '60900']);
    expect(row(1)).toEqual(['1.5', '59100', '20', '0.00033', '19.503', '39.303', '60443.25']);
    expect(row(2)).toEqual(['3.75', '57750', '40', '0.00069', '39.8475', '79.1505', '59509.45']);
    expect(row(3)).toEqual(['7.125', '55725', '80', '0.00143', '79.68675', '158.83725', '57992.74']);
    expect(row(4)).toEqual(['12.1875', '52687.5', '160', '0.00303', '159.643125', '318.480375', '55638.14']);
  });

  it('averages the cost after each order', () => {
    expect(deal.map((o) => o.average.toDecimalPlaces(8).toFixed())).toEqual(['60000', '59550', '58630', '57135.70143885', '54815.89931153']);
    expect(toPlain(deal[4]!.totalAmount)).toBe('0.00581');
  });

  it('needs 320 USDT for a whole deal and stops at 51000', () => {
    expect(toPlain(dealFunds(example))).toBe('320');
    expect(toPlain(dcaStopPrice(money('60000'), '15', btc.tickSize))).toBe('51000');
  });

  it('closes the full deal at its take profit 55638.14 for 3.898135788 USDT', () => {
    const r = closeCycle(deal, money('55638.14'), btc);
    expect([toPlain(r.sellAmount), toPlain(r.dust), toPlain(r.proceeds), toPlain(r.costSold), toPlain(r.profit), toPlain(r.dustCost)]).toEqual([
      '0.0058',
      '0.00000419',
      '322.378510788',
      '318.480375',
      '3.898135788',
      '0',
    ]);
  });

  it('gives n x d when the step scale is 1', () => {
    expect([1, 2, 3].map((n) => toPlain(safetyDeviation({ deviation: '2', stepScale: '1' }, n)))).toEqual(['2', '4', '6']);
  });
});

describe('the schedule', () => {
  const at = (iso: string) => Date.parse(iso);
  it('finds the next daily start at the trader offset', () => {
    const daily = { kind: 'schedule', every: 'day', time: '09:30', utcOffset: 480 } as const; // 09:30 in UTC+8 = 01:30 UTC
    expect(new Date(nextSlot(at('2026-03-02T00:00:00Z'), daily)).toISOString()).toBe('2026-03-02T01:30:00.000Z');
    expect(new Date(nextSlot(at('2026-03-02T01:30:00Z'), daily)).toISOString()).toBe('2026-03-02T01:30:00.000Z');
    expect(new Date(nextSlot(at('2026-03-02T01:30:00.001Z'), daily)).toISOString()).toBe('2026-03-03T01:30:00.000Z');
    // 20:00 UTC on the 2nd is already 04:00 of the 3rd in UTC+8.
    expect(new Date(nextSlot(at('2026-03-02T20:00:00Z'), daily)).toISOString()).toBe('2026-03-03T01:30:00.000Z');
  });
  it('finds the next weekly start on the ISO weekday', () => {
    // 2026-03-02 is a Monday.
    const friday = { kind: 'schedule', every: 'week', weekday: 5, time: '12:00', utcOffset: 0 } as const;
    expect(new Date(nextSlot(at('2026-03-02T10:00:00Z'), friday)).toISOString()).toBe('2026-03-06T12:00:00.000Z');
    expect(new Date(nextSlot(at('2026-03-06T12:00:01Z'), friday)).toISOString()).toBe('2026-03-13T12:00:00.000Z');
    const monday = { ...friday, weekday: 1 };
    expect(new Date(nextSlot(at('2026-03-02T11:00:00Z'), monday)).toISOString()).toBe('2026-03-02T12:00:00.000Z');
    const sunday = { ...friday, weekday: 7, utcOffset: -300 };
    // Sunday 12:00 at UTC-5 is 17:00 UTC.
    expect(new Date(nextSlot(at('2026-03-02T11:00:00Z'), sunday)).toISOString()).toBe('2026-03-08T17:00:00.000Z');
  });
});

describe('validateDca', () => {
  const check = (p: Partial<DcaParams>) => validateDca(p, btc, money('60000')).map((x) => `${x.field}:${x.reason}`);
  it('accepts the example', () => {
    expect(check(example)).toEqual([]);
    expect(check({ ...example, maxSafetyOrders: 0, investment: '20', stopLoss: undefined })).toEqual([]);
    expect(check({ ...example, start: { kind: 'schedule', every: 'week', weekday: 3, time: '08:00', utcOffset: 480 }, cooldown: 3600 })).toEqual([]);
  });
  it('names each problem', () => {
    expect(check({ ...example, investment: '319.99' })).toEqual(['investment:insufficient']);
    expect(check({ ...example, baseOrder: '4' })).toEqual(['baseOrder:belowMinimum']);
    expect(check({ ...example, safetyOrder: '1', investment: '1000' })).toEqual(['safetyOrder:belowMinimum']);
    expect(check({ ...example, stopLoss: '12' })).toEqual(['stopLoss:withinSafety']);
    expect(check({ ...example, deviation: '10', stepScale: '2' })).toEqual(['deviation:tooDeep']);
    expect(check({ ...example, deviation: 'x', maxSafetyOrders: 51, takeProfit: undefined })).toEqual(['deviation:format', 'takeProfit:required', 'maxSafetyOrders:range']);
    expect(check({ ...example, volumeScale: '11', cooldown: -1 })).toEqual(['volumeScale:range', 'cooldown:range']);
    expect(check({ ...example, start: { kind: 'schedule', every: 'week', time: '8:00', utcOffset: 0 } })).toEqual(['start:format']);
    expect(check({ ...example, start: { kind: 'schedule', every: 'week', time: '08:00', utcOffset: 0 } })).toEqual(['start:format']);
    expect(check({ ...example, stopLoss: undefined, trailingStop: true })).toEqual(['stopLoss:trailingStopNeedsStopLoss']);
    expect(check({ ...example, trailingStop: true })).toEqual([]);
  });
  it('checks an indicator start’s rule with the custom bot’s validation, each problem under start.rule', () => {
    const rsi = { kind: 'rsi', period: 14, timeframe: '1h' } as const;
    const rule = { join: 'and', conditions: [{ left: rsi, op: '<', right: { kind: 'value', value: '30' } }] } as const;
    expect(check({ ...example, start: { kind: 'indicator', rule: rule as unknown as Rule } })).toEqual([]);
    const bad = {
      join: 'xor',
      conditions: [
        { left: { ...rsi, period: 1 }, op: '<', right: { kind: 'value', value: '30' } },
        { left: rsi, op: '>', right: rsi },
      ],
    };
    const problems = validateDca({ ...example, start: { kind: 'indicator', rule: bad as unknown as Rule } }, btc, money('60000'));
    expect(problems.map((x) => `${x.field}:${x.reason}:${x.rule?.field}:${x.rule?.reason}`)).toEqual([
      'start:rule:start.rule.join:unknown',
      'start:rule:start.rule.conditions.0.left.period:range',
      'start:rule:start.rule.conditions.1.right:sameSides',
    ]);
    expect(startRuleProblems({ join: 'or', conditions: Array(6).fill(rule.conditions[0]) })).toEqual([{ field: 'start.rule.conditions', reason: 'tooMany', max: 5 }]);
  });
});
