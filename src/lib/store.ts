import { getDefaultStore } from 'jotai';

/**
 * The one jotai store: React reads it as the default store (no Provider needed), the HTTP client and
 * the route guards read it directly.
 */
export const store = getDefaultStore();
