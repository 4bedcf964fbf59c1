import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createStore } from 'jotai';
import { normalizePreferences, PREFERENCES_KEY } from './preferences.ts';

describe('preferences', () => {
  beforeEach(() => {
    localStorage.clear();
    vi.resetModules();
  });

  it('default to light and zh, and repair anything unknown', () => {
    expect(normalizePreferences(undefined)).toEqual({ theme: 'light', language: 'zh' });
    expect(normalizePreferences({ theme: 'blue', language: 'fr' })).toEqual({ theme: 'light', language: 'zh' });
    expect(normalizePreferences({ theme: 'dark', language: 'en' })).toEqual({ theme: 'dark', language: 'en' });
  });

  it('are read from theme-storage at start and written back as one record', async () => {
    localStorage.setItem(PREFERENCES_KEY, JSON.stringify({ theme: 'dark', language: 'en' }));
    const { preferencesAtom, toggleThemeAtom, setLanguageAtom } = await import('./preferences.ts');
    const store = createStore();
    expect(store.get(preferencesAtom)).toEqual({ theme: 'dark', language: 'en' });
    store.set(toggleThemeAtom);
    store.set(setLanguageAtom, 'zh');
    expect(JSON.parse(localStorage.getItem(PREFERENCES_KEY)!)).toEqual({ theme: 'light', language: 'zh' });
  });

  it('drive the theme class and the language as they change', async () => {
    const { toggleThemeAtom, setLanguageAtom } = await import('./preferences.ts');
    const { applyPreferences } = await import('./apply-preferences.ts');
    const store = createStore();
    const activate = vi.fn();
    const stop = applyPreferences(store, activate);
    expect(document.documentElement.classList.contains('dark')).toBe(false);
    expect(activate).toHaveBeenLastCalledWith('zh');
    store.set(toggleThemeAtom);
    expect(document.documentElement.classList.contains('dark')).toBe(true);
    store.set(setLanguageAtom, 'en');
    expect(activate).toHaveBeenLastCalledWith('en');
    stop();
    store.set(toggleThemeAtom);
    expect(document.documentElement.classList.contains('dark')).toBe(true);
  });
});
