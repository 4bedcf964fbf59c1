/**
 * Answers public/boot.js asked for with the page (home's first calls): on a phone's
 * network the scripts that would ask come a few round trips after the page, and home waits for these
 * answers. Each is handed to the first GET of the same path and query with the same token, once, in
 * the page's first seconds; every other request goes to the network as usual.
 */
type Early = Record<string, { auth: string; answer: Promise<Response> } | undefined>;

/** After this, an answer not taken is stale: its screen has asked anew (or was left). */
const FRESH_MS = 10_000;

export function takeEarlyAnswer(input: RequestInfo | URL): Promise<Response> | undefined {
  const early = (globalThis as { __early?: Early }).__early;
  if (!early || !(input instanceof Request) || input.method !== 'GET') return undefined;
  const url = new URL(input.url);
  const key = url.pathname + url.search;
  const found = early[key];
  if (!found) return undefined;
  delete early[key];
  return found.auth === input.headers.get('authorization') && performance.now() < FRESH_MS ? found.answer : undefined;
}
