import { describe, expect, it } from 'vitest';
import { msg } from '@lingui/core/macro';
import { shownProblems, type FieldProblems } from './form-problems.ts';

type F = 'lower' | 'upper' | 'grids' | 'investment';
const upperBelowLower = msg`最高价须高于最低价`;
const required = msg`必填`;
const problems: FieldProblems<F> = {
  upper: { message: upperBelowLower, fields: ['upper', 'lower'] },
  investment: { message: required, fields: ['investment'] },
};
const shown = (left: F[], submitted = false) => Object.keys(shownProblems(problems, new Set(left), submitted)).sort();

describe('which problems a form shows', () => {
  it('shows none while no field has been left and the form was not sent', () => {
    expect(shown([])).toEqual([]);
  });

  it("shows a field's problem once that field is left, and keeps an unvisited field's problem hidden", () => {
    expect(shown(['upper'])).toEqual(['upper']);
    expect(shownProblems(problems, new Set<F>(['upper']), false).upper).toBe(upperBelowLower);
  });

  it('shows a problem once a field it is checked against is left (the lower price raised above the upper)', () => {
    expect(shown(['lower'])).toEqual(['upper']);
    expect(shown(['grids'])).toEqual([]);
  });

  it('shows every problem once the form was sent', () => {
    expect(shown([], true)).toEqual(['investment', 'upper']);
  });
});
