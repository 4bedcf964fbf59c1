import type { createStore } from 'jotai';
import { preferencesAtom, type Preferences, type Language } from './preferences.ts';

/** Applies the preferences now and whenever they change: the theme class on <html>, the language (the price colours: state/price-colors.ts). */
export function applyPreferences(store: ReturnType<typeof createStore>, activate: (language: Language) => unknown): () => void {
  const apply = (p: Preferences) => {
    document.documentElement.classList.toggle('dark', p.theme === 'dark');
    // The browser chrome around the app follows the theme too (same colours as public/boot.js).
    document.querySelector('meta[name="theme-color"]')?.setAttribute('content', p.theme === 'dark' ? '#0e1116' : '#1d5fd6');
    activate(p.language);
  };
  apply(store.get(preferencesAtom));
  return store.sub(preferencesAtom, () => apply(store.get(preferencesAtom)));
}
