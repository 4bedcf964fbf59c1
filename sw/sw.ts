/// <reference lib="webworker" />
/**
 * The service worker:
 * - the app shell precached (HTML, every route chunk, CSS, icons), every navigation answered with the
 *   shell, so any route opens offline after the first visit;
 * - the market lists stale-while-revalidate within their docs/product.md §7 limits (exchanges 5 min, bot types
 *   24 h), never served older than that;
 * - the bot screens' GETs network-first with a short timeout, falling back to the last answer;
 * - answers kept per user: the cache's name carries a hash of the caller's token, so one user's answers
 *   can never be served to another; the app deletes these caches on logout and session end;
 * - no write is ever cached, queued or replayed: only the GETs below are routed here;
 * - the live stream (/api/stream) never passes through here: an answer that never ends cannot be kept,
 *   and a worker between the page and it would only add a hop that can stall or be stopped by the browser.
 * A fallback answer carries `x-sw-offline` and `x-sw-cached-at` (ms) so the screens can say how old it is.
 */
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import './push.ts';

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: Array<{ url: string; revision: string | null }> };

const API_CACHE_PREFIX = 'api-';
const CACHED_AT = 'x-sw-cached-at';
/** Marks an answer served from the cache because the network failed or was too slow. */
const OFFLINE = 'x-sw-offline';
const NETWORK_TIMEOUT_MS = 3000;
/** contract/live.ts STREAM_PATH (the worker compiles alone, without the contract's modules). */
const STREAM_PATH = '/api/stream';

cleanupOutdatedCaches();
precacheAndRoute(self.__WB_MANIFEST);
registerRoute(new NavigationRoute(createHandlerBoundToURL('/index.html'), { denylist: [/^\/api\//, /^\/sw\.js$/] }));

/** The cache of the user a request belongs to: named by a hash of its bearer token (none: not cached). */
async function userCache(request: Request): Promise<Cache | null> {
  const token = /^Bearer +(\S+)/i.exec(request.headers.get('authorization') ?? '')?.[1];
  if (!token) return null;
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(token)));
  const name = Array.from(digest.subarray(0, 12), (b) => b.toString(16).padStart(2, '0')).join('');
  return caches.open(`${API_CACHE_PREFIX}${name}`);
}

/** The cache key: the URL with its query (the lang header does not change the data). */
const keyOf = (request: Request) => new Request(request.url);

/**
 * Keeps a successful envelope (code 1) with the time it was fetched; errors and session ends are never
 * kept. Best effort, behind the answer: keeping can fail (storage full, the cache deleted by a logout
 * meanwhile) and that must never fail the request itself.
 */
function keep(cache: Cache, request: Request, response: Response): Response {
  if (!response.ok) return response;
  const copy = response.clone();
  void (async () => {
    const text = await copy.text();
    if (!text.startsWith('{"code":1,')) return;
    const headers = new Headers(copy.headers);
    headers.set(CACHED_AT, String(Date.now()));
    await cache.put(keyOf(request), new Response(text, { status: 200, headers }));
  })().catch(() => undefined);
  return response;
}

const ageOf = (response: Response) => Date.now() - Number(response.headers.get(CACHED_AT) ?? 0);

/** Network first: the fresh answer when it comes within the timeout, else the last kept one, else the network's failure. */
async function networkFirst(request: Request): Promise<Response> {
  const cache = await userCache(request);
  const network = fetch(request);
  if (!cache) return network;
  const fresh = network.then((response) => keep(cache, request, response));
  fresh.catch(() => undefined);
  const timedOut = new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), NETWORK_TIMEOUT_MS));
  try {
    const first = await Promise.race([fresh, timedOut]);
    if (first !== 'timeout') return first;
  } catch {
    // offline or refused: the last answer below
  }
  const kept = await cache.match(keyOf(request));
  if (!kept) return fresh; // nothing kept: the network's own answer or failure
  const headers = new Headers(kept.headers);
  headers.set(OFFLINE, '1');
  return new Response(kept.body, { status: kept.status, headers });
}

/** Stale-while-revalidate within `maxAgeMs`: a young enough kept answer at once (refreshed behind it), else the network. */
function staleWhileRevalidate(maxAgeMs: number) {
  return async (request: Request): Promise<Response> => {
    const cache = await userCache(request);
    if (!cache) return fetch(request);
    const refresh = fetch(request).then((response) => keep(cache, request, response));
    const kept = await cache.match(keyOf(request));
    if (kept && ageOf(kept) < maxAgeMs) {
      refresh.catch(() => undefined);
      return kept;
    }
    return refresh;
  };
}

const swr: Record<string, (request: Request) => Promise<Response>> = {
  '/api/market/exchanges': staleWhileRevalidate(5 * 60_000),
  '/api/market/botTypes': staleWhileRevalidate(24 * 60 * 60_000),
};
const networkFirstPaths = new Set([
  '/api/user/botList',
  '/api/user/botCount',
  '/api/user/botDetail',
  '/api/user/botInfo',
  '/api/user/botPositions',
  '/api/user/positionAdds',
  '/api/user/botActions',
  '/api/user/bill',
  '/api/user/positions',
  // Also kept for offline viewing: the all-bots log, the PnL chart and the bill's days and cycles, home's
  // portfolio and balances, and the market list with its prices (each screen says when it was updated).
  '/api/user/actions',
  '/api/user/pnl',
  '/api/user/billGroup',
  '/api/user/billLogs',
  '/api/user/portfolio',
  '/api/user/asset',
  '/api/market/symbols',
  '/api/market/price',
]);

self.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET') return; // writes go straight to the network, never kept or replayed
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (url.pathname === STREAM_PATH) return; // the browser's own fetch, whatever routes are added below
  const handler = swr[url.pathname] ?? (networkFirstPaths.has(url.pathname) ? networkFirst : undefined);
  if (handler) event.respondWith(handler(request));
});

// The page asks a waiting new version to take over (after the trader agreed to reload).
self.addEventListener('message', (event) => {
  if ((event.data as { type?: string } | null)?.type === 'SKIP_WAITING') void self.skipWaiting();
});
