import { describe, expect, it } from 'vitest';
import { isTabBarVisible } from './tabs.ts';

describe('tab bar visibility', () => {
  it.each(['/', '/simulation', '/rank', '/strategy', '/my', '/my/'])('shows on %s', (p) => {
    expect(isTabBarVisible(p)).toBe(true);
  });
  it.each(['/market', '/my/profile', '/strategy/bill', '/login', '/portfolio', '/rankings', '/setting'])('hides on %s', (p) => {
    expect(isTabBarVisible(p)).toBe(false);
  });
});
