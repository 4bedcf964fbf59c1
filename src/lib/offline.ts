import { atom } from 'jotai';

/**
 * When the screens' data came from the service worker's last kept answer (offline or a network too
 * slow), the time that answer was fetched (ms); null when the last answer came from the network.
 */
export const servedOfflineAtom = atom<number | null>(null);

/** The header the service worker puts on such an answer (sw/sw.ts). */
export const OFFLINE_HEADER = 'x-sw-offline';
export const CACHED_AT_HEADER = 'x-sw-cached-at';
