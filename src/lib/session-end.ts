import { store } from './store.ts';
import { signOutAtom } from '../state/session.ts';
import { PREFERENCES_KEY } from '../state/preferences.ts';

/**
 * Wipes localStorage and sessionStorage (docs/product.md §4) and forgets the session in memory. The preference
 * record survives: losing the trader's theme and language on a session end would only confuse.
 */
export function wipeSession(): void {
  const preferences = localStorage.getItem(PREFERENCES_KEY);
  localStorage.clear();
  sessionStorage.clear();
  if (preferences !== null) localStorage.setItem(PREFERENCES_KEY, preferences);
  store.set(signOutAtom);
  void wipeDeviceData();
}

/** The service worker's kept answers (every user's) and IndexedDB go too: nothing of this user stays offline. */
export async function wipeDeviceData(): Promise<void> {
  try {
    if ('caches' in globalThis) await Promise.all((await caches.keys()).filter((k) => k.startsWith('api-')).map((k) => caches.delete(k)));
    const databases = (await indexedDB.databases?.()) ?? [];
    await Promise.all(databases.map((d) => d.name && indexedDB.deleteDatabase(d.name)));
  } catch {
    // storage blocked (private mode): nothing was kept either
  }
}
