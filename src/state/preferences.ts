import { atom } from 'jotai';
import { atomWithStorage, createJSONStorage } from 'jotai/utils';

export type Theme = 'light' | 'dark';
export type Language = 'zh' | 'en';
export interface Preferences {
  theme: Theme;
  language: Language;
}

/** localStorage key of the preference record (docs/product.md §3); public/boot.js reads it before first paint. */
export const PREFERENCES_KEY = 'theme-storage';
export const defaultPreferences: Preferences = { theme: 'light', language: 'zh' };

/** Repairs whatever is stored: unknown values fall back to the defaults (zh, light). */
export function normalizePreferences(value: unknown): Preferences {
  const v = (value && typeof value === 'object' ? value : {}) as Partial<Record<keyof Preferences, unknown>>;
  return {
    theme: v.theme === 'dark' ? 'dark' : 'light',
    language: v.language === 'en' ? 'en' : 'zh',
  };
}

const storage = createJSONStorage<Preferences>(() => localStorage);
const normalizedStorage = {
  ...storage,
  getItem: (key: string, initial: Preferences) => normalizePreferences(storage.getItem(key, initial)),
};

export const preferencesAtom = atomWithStorage<Preferences>(PREFERENCES_KEY, defaultPreferences, normalizedStorage, {
  getOnInit: true,
});
export const themeAtom = atom((get) => get(preferencesAtom).theme);
export const languageAtom = atom((get) => get(preferencesAtom).language);

export const toggleThemeAtom = atom(null, (get, set) => {
  const p = get(preferencesAtom);
  set(preferencesAtom, { ...p, theme: p.theme === 'light' ? 'dark' : 'light' });
});
export const setLanguageAtom = atom(null, (get, set, language: Language) => {
  set(preferencesAtom, { ...get(preferencesAtom), language });
});
