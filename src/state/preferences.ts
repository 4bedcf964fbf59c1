import { atom } from 'jotai';
import { atomWithStorage, createJSONStorage } from 'jotai/utils';

export type Theme = 'light' | 'dark';
export type Language = 'zh' | 'en';
export interface Preferences {
  theme: Theme;
  language: Language;
}

/** localStorage key of the preference record (spec §3); public/boot.js reads it before first paint. */
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

/**
 * Which colour a rise takes (issue 14): green up and red down (the default, as on Binance's global
 * site), or red up and green down, as many Chinese traders read a market. Its own localStorage key,
 * beside the theme-storage record of spec §3; public/boot.js reads it before the first paint too.
 */
export type PriceColors = 'green-up' | 'red-up';
export const PRICE_COLORS_KEY = 'price-colors';
const colorStorage = createJSONStorage<PriceColors>(() => localStorage);
export const priceColorsAtom = atomWithStorage<PriceColors>(
  PRICE_COLORS_KEY,
  'green-up',
  { ...colorStorage, getItem: (key: string, initial: PriceColors) => (colorStorage.getItem(key, initial) === 'red-up' ? 'red-up' : 'green-up') },
  { getOnInit: true },
);
