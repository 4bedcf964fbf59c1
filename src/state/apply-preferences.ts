import type { createStore } from 'jotai';
import { preferencesAtom, type Preferences, type Language } from './preferences.ts';

/** Applies the preferences now and whenever they change: the theme class on <html>, the language. */
export function applyPreferences(
  store: ReturnType<typeof createStore>,
  activate: (language: Language) => void,
): () => void {
  const apply = (p: Preferences) => {
    document.documentElement.classList.toggle('dark', p.theme === 'dark');
    activate(p.language);
  };
  apply(store.get(preferencesAtom));
  return store.sub(preferencesAtom, () => apply(store.get(preferencesAtom)));
}
