import { atom } from 'jotai';
import { atomWithStorage, createJSONStorage } from 'jotai/utils';

/**
 * Which colour a rise takes: green up and red down (the default, as on Binance's global
 * site), or red up and green down, as many Chinese traders read a market. Its own localStorage key,
 * beside the theme-storage record of docs/product.md §3. public/boot.js puts the class red-up on <html> before
 * the first paint of every load; this module, loaded with /setting only (not with the /login entry: src/state travels with it),
 * changes both when the trader chooses.
 */
export type PriceColors = 'green-up' | 'red-up';
export const PRICE_COLORS_KEY = 'price-colors';
const storage = createJSONStorage<PriceColors>(() => localStorage);
const storedAtom = atomWithStorage<PriceColors>(
  PRICE_COLORS_KEY,
  'green-up',
  { ...storage, getItem: (key: string, initial: PriceColors) => (storage.getItem(key, initial) === 'red-up' ? 'red-up' : 'green-up') },
  { getOnInit: true },
);

export const priceColorsAtom = atom(
  (get) => get(storedAtom),
  (_get, set, colors: PriceColors) => {
    set(storedAtom, colors);
    document.documentElement.classList.toggle('red-up', colors === 'red-up');
  },
);
