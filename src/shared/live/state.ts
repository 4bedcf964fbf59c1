import { atom } from 'jotai';
import { store } from '../../lib/store.ts';
import { queryClient } from '../query.ts';

/**
 * The live stream's state in this tab: `connecting` until the first `ready`, `up` while events arrive
 * (here or relayed from the tab that holds the stream), `down` once it dropped after being up, or could not
 * connect for a while. Screens poll unless it is `up`.
 */
export type LiveState = 'connecting' | 'up' | 'down';
export const liveAtom = atom<LiveState>('connecting');

/** With the stream up, figures valued at the market price (no event moves them) are still refreshed this often. */
export const PRICED_WHILE_UP_MS = 30_000;

/**
 * A query's refetchInterval that polls only while the live stream is not up: for data an event covers
 * (bots, orders, positions, balances, notices, deposits, withdrawals), the stream's invalidation
 * refreshes it when it changes. `whileUp` keeps a slow poll for figures valued at the market price
 * (unrealized profit, a portfolio's value), which move with no event at all.
 */
export function livePoll<Q>(every: number | false | ((query: Q) => number | false), { whileUp = false }: { whileUp?: number | false } = {}): (query: Q) => number | false {
  return (query) => {
    const ms = typeof every === 'function' ? every(query) : every;
    if (ms === false || store.get(liveAtom) !== 'up') return ms;
    return whileUp === false ? false : Math.max(ms, whileUp);
  };
}

// A query computes its interval after each answer: when the stream goes down (or up) between two answers,
// every mounted query is told at once, so that polling resumes (or stops) now, not after its next answer.
store.sub(liveAtom, () => {
  for (const query of queryClient.getQueryCache().getAll()) {
    for (const observer of query.observers) observer.setOptions(observer.options);
  }
});
