/**
 * One typed function per call of contract/calls.ts, built from the table so the two cannot drift:
 * `api.loginAccount(body)`, `api.userBotList(query)`, `api.exchangesUnbind(params)`,
 * `api.userBotUpdate(query, body)`; each takes `{ show }` last. Plus the client caches of docs/product.md §7.
 */
import { calls } from 'virtual:contract-calls';
import type { BodyOf, CallName, ParamsOf, QueryOf, AnswerOf } from '../../contract/calls.ts';
import { request, type CallInput, type RequestOptions, type SentBody } from './http.ts';

/** Where a call's single argument goes: path params when the path has one, the query on GET and DELETE, else the body. */
type Slot<N extends CallName> = (typeof calls)[N]['path'] extends `${string}:${string}` ? 'params' : (typeof calls)[N]['method'] extends 'GET' | 'DELETE' ? 'query' : 'body';
/** The one call with both a query and a body (docs/product.md §7: botUpdate, id in the query). */
const twoPart = ['userBotUpdate'] as const;
type TwoPart = (typeof twoPart)[number];

type Present<N extends CallName> = (BodyOf<N> extends undefined ? never : 'body') | (QueryOf<N> extends undefined ? never : 'query') | (ParamsOf<N> extends undefined ? never : 'params');
/** Calls whose schema parts differ from what the runtime rule sends: must stay empty (compile error otherwise). */
type Misplaced = {
  [N in CallName]: N extends TwoPart ? ([Present<N>] extends ['query' | 'body'] ? ('query' | 'body' extends Present<N> ? never : N) : N) : [Exclude<Present<N>, Slot<N>>] extends [never] ? never : N;
}[CallName];
const contractMatches: [Misplaced] extends [never] ? true : Misplaced = true;
void contractMatches;

type Input<N extends CallName> = Slot<N> extends 'params' ? ParamsOf<N> : Slot<N> extends 'query' ? QueryOf<N> : SentBody<N>;
/** The argument may be left out when it is undefined-able or only has optional fields (a list's page). */
type Optional<I> = undefined extends I ? true : Record<never, never> extends I ? (string extends keyof I ? false : true) : false;
export type ApiArgs<N extends CallName> = N extends TwoPart
  ? [query: QueryOf<N>, body: SentBody<N>, options?: RequestOptions]
  : Optional<Input<N>> extends true
    ? [input?: Input<N>, options?: RequestOptions]
    : [input: Input<N>, options?: RequestOptions];
export type Api = { [N in CallName]: (...args: ApiArgs<N>) => Promise<AnswerOf<N>> };

function slotOf(name: CallName): 'params' | 'query' | 'body' {
  const { path, method } = calls[name];
  if (path.includes(':')) return 'params';
  return method === 'GET' || method === 'DELETE' ? 'query' : 'body';
}

function callFor<N extends CallName>(name: N) {
  if ((twoPart as readonly string[]).includes(name)) {
    return (query: unknown, body: unknown, options?: RequestOptions) => request(name, { query, body } as CallInput<N>, options);
  }
  const slot = slotOf(name);
  return (input: unknown, options?: RequestOptions) => request(name, (input === undefined ? {} : { [slot]: input }) as CallInput<N>, options);
}

export const api = Object.fromEntries((Object.keys(calls) as CallName[]).map((name) => [name, callFor(name)])) as unknown as Api;

// ---- Client caches (docs/product.md §7, §9) ----

export const EXCHANGES_CACHE_KEY = 'exchanges-cache';
export const BOT_TYPES_CACHE_KEY = 'bot-types-cache';
export const EXCHANGES_TTL_MS = 5 * 60_000;
export const BOT_TYPES_TTL_MS = 24 * 60 * 60_000;
export const DEFAULT_SERVER_IPS = ['127.0.0.1'];

type Exchanges = AnswerOf<'marketExchanges'>;
interface Entry<T> {
  at: number;
  data: T;
}

function readEntry<T>(key: string): Entry<T> | null {
  try {
    const entry = JSON.parse(localStorage.getItem(key) ?? 'null') as Entry<T> | null;
    return entry && typeof entry.at === 'number' && 'data' in entry ? entry : null;
  } catch {
    return null;
  }
}

function writeEntry<T>(key: string, entry: Entry<T>): void {
  try {
    localStorage.setItem(key, JSON.stringify(entry));
  } catch {
    // A full or blocked storage only costs a refetch next time.
  }
}

/** The caches, with an injectable clock so tests can move time; the app uses `caches` below. */
export function createCaches(now: () => number = Date.now) {
  let exchanges: Entry<Exchanges> | null = null;
  let exchangesLoading: Promise<Exchanges> | null = null;
  let botTypesLoading: Promise<AnswerOf<'marketBotTypes'>> | null = null;
  const fresh = (entry: Entry<unknown> | null, ttl: number) => entry !== null && now() - entry.at < ttl;

  /** The exchange list and server ips: memory first, then localStorage, then the server (5 min). */
  function getExchanges(): Promise<Exchanges> {
    if (fresh(exchanges, EXCHANGES_TTL_MS)) return Promise.resolve(exchanges!.data);
    const stored = readEntry<Exchanges>(EXCHANGES_CACHE_KEY);
    if (fresh(stored, EXCHANGES_TTL_MS)) {
      exchanges = stored;
      return Promise.resolve(stored!.data);
    }
    // Screens asking at the same time share one request.
    exchangesLoading ??= api
      .marketExchanges()
      .then((data) => {
        exchanges = { at: now(), data };
        writeEntry(EXCHANGES_CACHE_KEY, exchanges);
        return data;
      })
      .finally(() => {
        exchangesLoading = null;
      });
    return exchangesLoading;
  }

  /** The ips to whitelist on an exchange key: from the exchange cache (even a stale one), else a local address. */
  function getServerIps(): string[] {
    const ips = (exchanges ?? readEntry<Exchanges>(EXCHANGES_CACHE_KEY))?.data.ips;
    return Array.isArray(ips) && ips.length > 0 ? ips : DEFAULT_SERVER_IPS;
  }

  /** Strategy types change rarely: kept in localStorage for 24 h. */
  function getBotTypes(): Promise<AnswerOf<'marketBotTypes'>> {
    const stored = readEntry<AnswerOf<'marketBotTypes'>>(BOT_TYPES_CACHE_KEY);
    if (fresh(stored, BOT_TYPES_TTL_MS)) return Promise.resolve(stored!.data);
    botTypesLoading ??= api
      .marketBotTypes()
      .then((data) => {
        writeEntry(BOT_TYPES_CACHE_KEY, { at: now(), data });
        return data;
      })
      .finally(() => {
        botTypesLoading = null;
      });
    return botTypesLoading;
  }

  return { getExchanges, getServerIps, getBotTypes };
}

export const caches = createCaches();
export const { getExchanges, getServerIps, getBotTypes } = caches;
