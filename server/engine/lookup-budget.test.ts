import { describe, expect, it } from 'vitest';
import { LOOKUPS_PER_ACCOUNT, takeLookups } from './lookup-budget.ts';

describe('the lookups of a round', () => {
  const orders = [...Array.from({ length: 25 }, (_, i) => ({ account: 'a', id: `a${i}` })), ...Array.from({ length: 3 }, (_, i) => ({ account: 'b', id: `b${i}` }))];
  const round = (turn: number) => takeLookups(orders, (o) => o.account, turn).map((o) => o.id);

  it('ask at most the cap of one account, all of an account under it', () => {
    const first = round(0);
    expect(first.filter((id) => id.startsWith('a'))).toHaveLength(LOOKUPS_PER_ACCOUNT);
    expect(first.filter((id) => id.startsWith('b'))).toEqual(['b0', 'b1', 'b2']);
  });

  it('walk the whole list of a busy account over consecutive rounds', () => {
    const asked = new Set([0, 1, 2].flatMap(round));
    expect(orders.every((o) => asked.has(o.id))).toBe(true);
    expect(round(1).filter((id) => id.startsWith('a'))).toEqual(Array.from({ length: 10 }, (_, i) => `a${10 + i}`));
    // The third round wraps: the last five, then the first five again.
    expect(round(2).filter((id) => id.startsWith('a'))).toEqual(['a20', 'a21', 'a22', 'a23', 'a24', 'a0', 'a1', 'a2', 'a3', 'a4']);
  });
});
