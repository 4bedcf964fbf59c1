import { describe, expect, it } from 'vitest';
import { kitOf, tradableTypes } from '../../strategy/kit.ts';
import { botTypes } from './catalog.ts';

/** The strategy types say available exactly for what the engine trades: every type it trades has its entry. */
describe('the strategy types', () => {
  it('are available exactly when the engine has their strategy (AI: when martin and grid are)', () => {
    const list = botTypes('en');
    expect(
      list
        .filter((t) => t.available)
        .map((t) => t.code)
        .sort(),
    ).toEqual(['ai', ...tradableTypes].sort());
    for (const t of list) {
      if (t.code === 'ai') continue;
      expect(t.available, t.code).toBe(tradableTypes.includes(t.code));
      if (t.available) expect(() => kitOf(t.code)).not.toThrow();
      else expect(() => kitOf(t.code)).toThrow();
    }
  });
});
