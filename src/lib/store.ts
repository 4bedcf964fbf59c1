import { createStore } from 'jotai';

/** The one jotai store: React reads it through the Provider, the HTTP client and guards directly. */
export const store = createStore();
