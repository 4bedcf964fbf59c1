import type { createStore } from 'jotai';
import { preferencesAtom, priceColorsAtom, type Preferences, type Language } from './preferences.ts';

/** Applies the preferences now and whenever they change: the theme and price-colour classes on <html>, the language. */
export function applyPreferences(store: ReturnType<typeof createStore>, activate: (language: Language) => unknown): () => void {
  const apply = (p: Preferences) => {
    document.documentElement.classList.toggle('dark', p.theme === 'dark');
    // The browser chrome around the app follows the theme too (same colours as public/boot.js).
    document.querySelector('meta[name="theme-color"]')?.setAttribute('content', p.theme === 'dark' ? '#0e1116' : '#1d5fd6');
    activate(p.language);
  };
  const colors = () => document.documentElement.classList.toggle('red-up', store.get(priceColorsAtom) === 'red-up');
  apply(store.get(preferencesAtom));
  colors();
  const stops = [store.sub(preferencesAtom, () => apply(store.get(preferencesAtom))), store.sub(priceColorsAtom, colors)];
  return () => {
    for (const stop of stops) stop();
  };
}
