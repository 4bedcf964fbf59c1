/**
 * The PWA's HTTP client: one ky instance and `request()`, which applies docs/product.md §7-§9 to every answer
 * (toasts, session end, redirects, HTTP statuses, network failures) in this one place, so screens only
 * ever see data or an ApiError whose message is already translated.
 */
import ky, { NetworkError, TimeoutError } from 'ky';
import { i18n, type MessageDescriptor } from '@lingui/core';
import type { CallRoute } from '../../contract/call.ts';
import { calls } from 'virtual:contract-calls';
import type { BodyOf, CallName, ParamsOf, QueryOf, AnswerOf } from '../../contract/calls.ts';
import { LANG_HEADER, NO_AUTO_ERROR_HEADER, Terminal, type TerminalCode } from '../../contract/envelope.ts';
import { sessionEndCodes } from '../../contract/session-end.ts';
import { store } from './store.ts';
import { tokenAtom } from '../state/session.ts';
import { languageAtom } from '../state/preferences.ts';
import { showToast } from './toast.ts';
import { navigateTo } from './navigation.ts';
import { wipeSession } from './session-end.ts';
import { clientMessages } from './messages.ts';
import { CACHED_AT_HEADER, OFFLINE_HEADER, servedOfflineAtom } from './offline.ts';
import { takeEarlyAnswer } from './early-answers.ts';

// The app's update watch (its own chunk) starts once a service worker is active: at once on a visit the
// worker serves, and on a first visit after public/boot.js has registered it, once the first screen's
// code and data are in (its file must not compete with them).
if (typeof navigator !== 'undefined' && navigator.serviceWorker) {
  void navigator.serviceWorker.ready
    .then(() => import('./sw-updates.ts'))
    .then((m) => m.watchUpdates())
    .catch(() => undefined);
}

/** docs/product.md §9. */
export const REQUEST_TIMEOUT_MS = 15_000;
export const SESSION_END_DELAY_MS = 1_500;
export const UNAUTHORIZED_DELAY_MS = 1_000;
export const REDIRECT_DELAY_MS = 1_000;

export const http = ky.create({
  prefix: '/api',
  // Node's Request (jsdom tests) cannot resolve a relative URL; in the browser this is the same origin anyway.
  baseUrl: globalThis.location?.origin,
  timeout: REQUEST_TIMEOUT_MS,
  // Never retry: a retried POST could open a second bot or send a second withdrawal.
  retry: 0,
  // Every status comes back as a Response: the spec's HTTP rules below need the status and the body.
  throwHttpErrors: false,
  headers: { accept: 'application/json' },
  // Home's first answers may have been asked for with the page already (early-answers.ts).
  fetch: (input, init) => takeEarlyAnswer(input) ?? fetch(input, init),
  hooks: {
    beforeRequest: [
      ({ request }) => {
        // Read at request time: the token and the language change while the app runs.
        const token = store.get(tokenAtom);
        if (token) request.headers.set('Authorization', `Bearer ${token}`);
        request.headers.set(LANG_HEADER, store.get(languageAtom));
      },
    ],
  },
});

export type ApiErrorKind = 'code' | 'http' | 'network';

/** What a failed call throws; `message` is ready to show (server text, or a client text in the UI language). */
export class ApiError extends Error {
  readonly kind: ApiErrorKind;
  readonly code?: number;
  readonly status?: number;
  readonly data?: unknown;
  constructor(init: { kind: ApiErrorKind; message: string; code?: number; status?: number; data?: unknown }) {
    super(init.message);
    this.name = 'ApiError';
    this.kind = init.kind;
    this.code = init.code;
    this.status = init.status;
    this.data = init.data;
  }
}

/** The text a screen shows for whatever a call threw. */
export function errorText(error: unknown): string {
  return error instanceof ApiError ? error.message : i18n._(clientMessages['toast.failure']);
}

/** Device terminal code (docs/product.md §9); iPadOS reports a Mac user agent, its touch screen gives it away. */
export function detectTerminal(ua = navigator.userAgent, touchPoints = navigator.maxTouchPoints): TerminalCode {
  if (/iPhone|iPad|iPod/i.test(ua) || (/Macintosh/.test(ua) && touchPoints > 1)) return Terminal.IOS;
  if (/Android/i.test(ua)) return Terminal.Android;
  return Terminal.Default;
}

type Flag<N extends CallName, F extends string> = (typeof calls)[N] extends Record<F, true> ? true : false;
/** The body a caller passes: on terminal calls the code is filled in unless given (a wallet login passes 4). */
export type SentBody<N extends CallName> = Flag<N, 'terminal'> extends true ? Omit<NonNullable<BodyOf<N>>, 'terminal'> & { terminal?: TerminalCode } : BodyOf<N>;
export interface CallInput<N extends CallName> {
  body?: SentBody<N>;
  query?: QueryOf<N>;
  params?: ParamsOf<N>;
}
export interface RequestOptions {
  /** false: show nothing for this call (no toast, no redirect); the session end still happens. */
  show?: boolean;
  /**
   * Long work only (the AI search): a longer wait than docs/product.md §9's 15 s, for a call whose progress the
   * screen shows meanwhile through another call that keeps the 15 s.
   */
  timeout?: number;
}

interface Answer {
  code: number;
  message: string;
  data: unknown;
  show?: unknown;
  redirect?: unknown;
}

/** The envelope of docs/product.md §3 (`msg` or `message`), or null when the body is not one. */
function parseEnvelope(text: string): Answer | null {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return null;
  }
  if (!body || typeof body !== 'object' || typeof (body as { code?: unknown }).code !== 'number') return null;
  const b = body as Record<string, unknown>;
  const message = typeof b.msg === 'string' ? b.msg : typeof b.message === 'string' ? b.message : '';
  return { code: b.code as number, message, data: b.data, show: b.show, redirect: b.redirect };
}

function buildPath(path: string, params: Record<string, unknown> | undefined): string {
  return path.replace(/:(\w+)/g, (_, key: string) => encodeURIComponent(String(params?.[key] ?? '')));
}

function definedOnly(query: object | undefined): Record<string, string> | undefined {
  if (!query) return undefined;
  const entries = Object.entries(query).filter(([, v]) => v !== undefined);
  return Object.fromEntries(entries.map(([k, v]) => [k, String(v)]));
}

const t = (descriptor: MessageDescriptor) => i18n._(descriptor);

const httpMessages: Record<number, MessageDescriptor> = {
  401: clientMessages['http.401'],
  403: clientMessages['http.403'],
  404: clientMessages['http.404'],
  500: clientMessages['http.500'],
  502: clientMessages['http.503'],
  503: clientMessages['http.503'],
};

function networkMessage(error: unknown): string {
  if (error instanceof TimeoutError) return t(clientMessages['net.timeout']);
  // ky wraps the fetch failures it recognises in NetworkError; other runtimes throw a bare TypeError.
  if (!navigator.onLine || error instanceof NetworkError || error instanceof TypeError) return t(clientMessages['net.offline']);
  return t(clientMessages['net.other']);
}

// Several calls of one page can end the session at once: one toast and one navigation are enough.
let leaving = false;
function endSession(text: string | null, delay: number): void {
  wipeSession();
  if (leaving) return;
  leaving = true;
  if (text !== null) showToast('error', text);
  setTimeout(() => {
    leaving = false;
    navigateTo('/login');
  }, delay);
}

/**
 * An answer read outside request() (the live stream's refusal) that ends the session goes the same way as
 * a call's: HTTP 401 or a session-end code wipes the session and goes to /login with the server's words.
 * Answers whether it did.
 */
export function endsSession(status: number, text: string): boolean {
  const answer = parseEnvelope(text);
  if (status === 401) endSession(answer?.show !== 0 ? t(clientMessages['http.401']) : null, UNAUTHORIZED_DELAY_MS);
  else if (answer && sessionEndCodes.includes(answer.code)) endSession(answer.show !== 0 ? answer.message || t(clientMessages['toast.failure']) : null, SESSION_END_DELAY_MS);
  else return false;
  return true;
}

/**
 * Sends one call of contract/calls.ts and returns its `data` on code 1; otherwise throws an ApiError
 * after the toast, session end or redirect that docs/product.md §7-§9 ask for.
 */
export async function request<N extends CallName>(name: N, input: CallInput<N> = {}, options: RequestOptions = {}): Promise<AnswerOf<N>> {
  const spec: CallRoute = calls[name];
  // Screen-handled calls (docs/product.md §7) show their errors inline: a toast as well would say it twice.
  const screen = Boolean(spec.screen || spec.noAutoError);
  const allowed = options.show !== false;

  let body: Record<string, unknown> | undefined = input.body as Record<string, unknown> | undefined;
  if (spec.terminal) body = { ...body, terminal: body?.terminal ?? detectTerminal() };

  let status: number;
  let text: string;
  try {
    // Offline, a write fails at once (docs/product.md §8's text) and nothing is sent, kept or replayed later.
    if (spec.method !== 'GET' && navigator.onLine === false) throw new TypeError('offline');
    const response = await http(buildPath(spec.path, input.params as Record<string, unknown> | undefined), {
      method: spec.method,
      searchParams: definedOnly(input.query as object | undefined),
      json: body,
      headers: spec.noAutoError ? { [NO_AUTO_ERROR_HEADER]: '1' } : undefined,
      ...(options.timeout ? { timeout: options.timeout } : {}),
    });
    status = response.status;
    text = await response.text();
    if (spec.method === 'GET') store.set(servedOfflineAtom, response.headers.has(OFFLINE_HEADER) ? Number(response.headers.get(CACHED_AT_HEADER)) : null);
  } catch (error) {
    const failure = new ApiError({ kind: 'network', message: networkMessage(error) });
    if (allowed && !screen) showToast('error', failure.message);
    throw failure;
  }

  const answer = parseEnvelope(text);
  const display = allowed && answer?.show !== 0;

  // HTTP statuses first: our server answers an unknown /api path with 404 and an envelope.
  if (status < 200 || status > 299 || !answer) {
    const known = httpMessages[status];
    const message = known ? t(known) : answer?.message || t(clientMessages['http.other']);
    const failure = new ApiError({ kind: 'http', status, message, code: answer?.code, data: answer?.data });
    // A 401 ends the session like codes 101/1006/2003 do: toasted even on screen-handled calls,
    // because the screen that would show the message inline is about to be left.
    if (status === 401) endSession(answer?.show !== 0 ? message : null, UNAUTHORIZED_DELAY_MS);
    else if (display && !screen) showToast('error', message);
    throw failure;
  }

  if (sessionEndCodes.includes(answer.code)) {
    const message = answer.message || t(clientMessages['toast.failure']);
    // Shown even when the call itself was quiet (a background refresh): the trader is about to be sent
    // to /login and must see why. Only the server's show: 0 silences it.
    endSession(answer.show !== 0 ? message : null, SESSION_END_DELAY_MS);
    throw new ApiError({ kind: 'code', code: answer.code, message, data: answer.data });
  }

  // Only an in-app path: the envelope must not be able to send the user to another site.
  if (display && typeof answer.redirect === 'string' && /^\/(?![/\\])/.test(answer.redirect)) {
    const to = answer.redirect;
    setTimeout(() => navigateTo(to), REDIRECT_DELAY_MS);
  }

  if (answer.code === 1) {
    // GETs stay quiet: docs/product.md §7's success toast is meant for actions; toasting every page load, poll
    // and refresh would bury the toasts that matter.
    if (display && spec.method !== 'GET') showToast('success', answer.message || t(clientMessages['toast.success']));
    return answer.data as AnswerOf<N>;
  }

  const message = answer.message || t(clientMessages['toast.failure']);
  if (display && !screen) showToast('error', message);
  throw new ApiError({ kind: 'code', code: answer.code, message, data: answer.data });
}
