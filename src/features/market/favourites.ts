/** The trader's favourite pairs per exchange, kept on this device (localStorage, "market-favourites"). */
const KEY = 'market-favourites';

function read(): Record<string, string[]> {
  try {
    const value = JSON.parse(localStorage.getItem(KEY) ?? '{}') as unknown;
    return value && typeof value === 'object' ? (value as Record<string, string[]>) : {};
  } catch {
    return {};
  }
}

export function favouritesOf(exchange: string): string[] {
  const list = read()[exchange];
  return Array.isArray(list) ? list.filter((s) => typeof s === 'string') : [];
}

/** Adds or removes a pair; answers the new list. */
export function toggleFavourite(exchange: string, symbol: string): string[] {
  const all = read();
  const list = favouritesOf(exchange);
  const next = list.includes(symbol) ? list.filter((s) => s !== symbol) : [...list, symbol];
  localStorage.setItem(KEY, JSON.stringify({ ...all, [exchange]: next }));
  return next;
}
