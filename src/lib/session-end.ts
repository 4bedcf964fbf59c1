import { store } from './store.ts';
import { signOutAtom } from '../state/session.ts';
import { PREFERENCES_KEY } from '../state/preferences.ts';

/**
 * Wipes localStorage and sessionStorage (spec §4) and forgets the session in memory. The preference
 * record survives: losing the trader's theme and language on a session end would only confuse.
 */
export function wipeSession(): void {
  const preferences = localStorage.getItem(PREFERENCES_KEY);
  localStorage.clear();
  sessionStorage.clear();
  if (preferences !== null) localStorage.setItem(PREFERENCES_KEY, preferences);
  store.set(signOutAtom);
}
