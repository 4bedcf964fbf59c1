import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createStore } from 'jotai';

describe('price colours', () => {
  beforeEach(() => {
    localStorage.clear();
    document.documentElement.classList.remove('red-up');
    vi.resetModules();
  });

  it('drive the red-up class from their own key, and repair what is stored there', async () => {
    localStorage.setItem('price-colors', JSON.stringify('purple'));
    const { priceColorsAtom } = await import('./price-colors.ts');
    const store = createStore();
    expect(store.get(priceColorsAtom)).toBe('green-up');
    store.set(priceColorsAtom, 'red-up');
    expect(document.documentElement.classList.contains('red-up')).toBe(true);
    expect(localStorage.getItem('price-colors')).toBe('"red-up"');
    store.set(priceColorsAtom, 'green-up');
    expect(document.documentElement.classList.contains('red-up')).toBe(false);
    expect(localStorage.getItem('price-colors')).toBe('"green-up"');
  });
});
