/**
 * Server state of the logged-in screens, through TanStack Query: one QueryClient, one query per call
 * and input (`call('userBotList', { page: '1' })`), and `write()` for the calls that change something,
 * which invalidates the lists that change with it. Loaded with the logged-in screens, never by /login.
 *
 * What stays in the HTTP client (src/lib/http.ts): the envelope, toasts, the session end, redirects,
 * HTTP statuses, network errors and the service worker's offline answers (docs/product.md §7-9). A query's
 * function is the same typed `api.<call>()` the rest of the app uses, so all of that applies as before.
 */
import { keepPreviousData, QueryClient, queryOptions, type UseQueryResult } from '@tanstack/react-query';
import type { CallName, AnswerOf } from '../../contract/calls.ts';
import type { CallRoute } from '../../contract/call.ts';
import { calls } from 'virtual:contract-calls';
import { sessionEndCodes } from '../../contract/session-end.ts';
import { api, EXCHANGES_TTL_MS, getExchanges, type ApiArgs } from '../lib/api.ts';
import { ApiError } from '../lib/http.ts';
import { store } from '../lib/store.ts';
import { tokenAtom } from '../state/session.ts';

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // The client never retries (a toast per failure, docs/product.md §9); the screen offers 重试 instead.
      retry: false,
      // Offline, the service worker answers from its cache: the request must still be made.
      networkMode: 'always',
      // Going back shows the cached answer at once and refreshes it behind.
      staleTime: 1_000,
      refetchOnWindowFocus: true,
      refetchOnReconnect: true,
      // Polling (refetchInterval) stops while the page is hidden.
      refetchIntervalInBackground: false,
    },
    mutations: { retry: false, networkMode: 'always' },
  },
});

// Another session (a logout, a session end, another login) never sees this one's answers.
store.sub(tokenAtom, () => queryClient.clear());

type Input<N extends CallName> = ApiArgs<N>[0];

/** The query of one call with one input; `show: false` keeps its failures quiet (the screen says it). */
export function call<N extends CallName>(name: N, input?: Input<N>, { show = true }: { show?: boolean } = {}) {
  const run = api[name] as (input: unknown, options?: { show?: boolean }) => Promise<AnswerOf<N>>;
  return queryOptions({
    queryKey: [name, input ?? null] as const,
    queryFn: () => run(input, show ? undefined : { show: false }),
  });
}

/** The exchange list and server ips, through the client cache of docs/product.md §7 (memory, localStorage, 5 min). */
export const exchangesQuery = queryOptions({ queryKey: ['marketExchanges', null] as const, queryFn: getExchanges, staleTime: EXCHANGES_TTL_MS });

/** A paginated or filtered list keeps showing its last page while the next one loads. */
export const keepPage = { placeholderData: keepPreviousData } as const;

/**
 * A failure the screen should show: not a session that ended (the client already shows that and goes
 * to /login, so the screen shows no error box on the way out).
 */
export function failed(query: Pick<UseQueryResult, 'isError' | 'error'>): boolean {
  if (!query.isError) return false;
  const e = query.error;
  return !(e instanceof ApiError && (e.status === 401 || sessionEndCodes.includes(e.code ?? 0)));
}

/** Still waiting for a first answer (and not failed). */
export function loading(query: Pick<UseQueryResult, 'data' | 'isError'>): boolean {
  return query.data === undefined && !query.isError;
}

/** What each write changes (contract/calls.ts `changes`): the queries to fetch again once it succeeds. */
const changes: Partial<Record<CallName, readonly CallName[]>> = Object.fromEntries(
  Object.entries(calls as Record<CallName, CallRoute>).flatMap(([name, spec]) => (spec.changes ? [[name, spec.changes]] : [])),
);

/** The calls that change something on the server: a screen makes them with `write()`. */
export type WriteName = { [N in CallName]: (typeof calls)[N] extends { changes: readonly CallName[] } ? N : never }[CallName];

/** Makes a write and, once it succeeds, refreshes every query it changes (those on screen now, the rest when next shown). */
export async function write<N extends WriteName>(name: N, ...args: ApiArgs<N>): Promise<AnswerOf<N>> {
  const data = await (api[name] as (...a: ApiArgs<N>) => Promise<AnswerOf<N>>)(...args);
  changed(name);
  return data;
}

/** Refreshes what a write changes, again: for a write whose work goes on after its answer (a batch task). */
export function changed(name: WriteName): void {
  const names = new Set<CallName>(changes[name] ?? []);
  void queryClient.invalidateQueries({ predicate: (q) => names.has(q.queryKey[0] as CallName) });
}

/** The list of which call each write refreshes, for tests. */
export const writeChanges: Readonly<Partial<Record<CallName, readonly CallName[]>>> = changes;
