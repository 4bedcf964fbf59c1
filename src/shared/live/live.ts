/**
 * The live stream of the logged-in app: one per browser, not per tab. Loaded by the logged-in frame
 * (never by /login), it follows the token: a token opens it, a logout ('' ) ends it at once, another
 * user's token starts over.
 *
 * One tab holds the stream: the tab that holds the Web Lock `quantbot-live`, kept for as long as the tab
 * lives (a closed or reloaded tab releases it and the next waiting tab takes over, resuming from its own
 * last applied id). It relays every frame and its up/down state to the other tabs over the
 * BroadcastChannel `quantbot-live`; they apply the same frames by id, so a frame seen twice is applied
 * once. Relayed messages carry a key derived from the token, never the token: a tab of another session
 * ignores them. On HTTP/1.1 a browser has six connections per site: a stream per tab would starve every
 * other request with six tabs open. Without Web Locks (or BroadcastChannel) each tab opens its own.
 */
import type { CallName } from '../../../contract/calls.ts';
import type { StreamedEvent } from '../../../contract/live.ts';
import { store } from '../../lib/store.ts';
import { endsSession } from '../../lib/http.ts';
import { tokenAtom } from '../../state/session.ts';
import { languageAtom } from '../../state/preferences.ts';
import { queryClient } from '../query.ts';
import { backoffDelay } from './backoff.ts';
import { Ledger } from './ledger.ts';
import type { SseFrame } from './sse.ts';
import { liveAtom, type LiveState } from './state.ts';
import { readStream } from './stream.ts';

const NAME = 'quantbot-live';
/** Not up this long after (re)connecting began: the screens say so and poll. */
export const DOWN_AFTER_MS = 10_000;
/** The code of a refused Last-Event-ID (contract/codes.ts ValidationError, as a number: the table stays out of this file). */
export const VALIDATION_ERROR = 1005;

type Relay = { user: string } & ({ type: 'frame'; frame: SseFrame } | { type: 'state'; state: LiveState } | { type: 'hello' });

/** Tests set `window.__liveLog = []` before the app loads: each tab then records what its stream did. */
const testLog = (entry: Record<string, unknown>) => (globalThis as { __liveLog?: unknown[] }).__liveLog?.push({ at: Date.now(), ...entry });

/** A key for the user's relayed messages and stored id: a hash of the token (cyrb53), never the token itself. */
export function userKey(token: string): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < token.length; i++) {
    const c = token.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36);
}

/** Resolves after `ms`, at once when stopped or when the browser comes back online. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      globalThis.removeEventListener?.('online', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
    globalThis.addEventListener?.('online', done);
  });
}

/** Everything of one token: its ledger, its tab's part (holding the stream or listening), its end. */
class Session {
  private readonly token: string;
  readonly user: string;
  private readonly ledger: Ledger;
  private readonly stop = new AbortController();
  private channel: BroadcastChannel | null = null;
  private leading = false;

  constructor(token: string) {
    this.token = token;
    this.user = userKey(token);
    this.ledger = new Ledger({
      storage: globalThis.localStorage ?? null,
      key: `${NAME}:${this.user}`,
      refresh: (names) => {
        if (names === 'all') void queryClient.invalidateQueries();
        else if (names.size > 0) void queryClient.invalidateQueries({ predicate: (q) => names.has(q.queryKey[0] as CallName) });
      },
    });
  }

  start(): void {
    store.set(liveAtom, 'connecting');
    const locks = globalThis.navigator?.locks;
    if (!locks || typeof BroadcastChannel === 'undefined') {
      void this.lead();
      return;
    }
    this.channel = new BroadcastChannel(NAME);
    this.channel.onmessage = (e: MessageEvent<Relay>) => this.receive(e.data);
    this.post({ type: 'hello' });
    // Held until this session ends (or the tab goes): the promise below settles only then.
    locks.request(NAME, { signal: this.stop.signal }, () => this.lead()).catch(() => undefined);
  }

  end(): void {
    this.stop.abort();
    this.channel?.close();
  }

  private post(message: { type: 'frame'; frame: SseFrame } | { type: 'state'; state: LiveState } | { type: 'hello' }): void {
    this.channel?.postMessage({ ...message, user: this.user });
  }

  private receive(message: Relay): void {
    if (this.stop.signal.aborted || message?.user !== this.user) return;
    if (this.leading) {
      if (message.type === 'hello') this.post({ type: 'state', state: store.get(liveAtom) });
      return;
    }
    if (message.type === 'frame') this.frame(message.frame, 'relay');
    else if (message.type === 'state') {
      store.set(liveAtom, message.state);
      testLog({ t: 'state', state: message.state, via: 'relay' });
    }
  }

  private setState(state: LiveState): void {
    if (this.stop.signal.aborted) return;
    store.set(liveAtom, state);
    this.post({ type: 'state', state });
    testLog({ t: 'state', state });
  }

  /** Applies a frame, from the stream or relayed: an event once by its id, a ready or reset to the ledger. */
  private frame(frame: SseFrame, via: 'stream' | 'relay'): void {
    if (frame.event === 'message') {
      let event: StreamedEvent;
      try {
        event = JSON.parse(frame.data) as StreamedEvent;
      } catch {
        return;
      }
      const applied = this.ledger.apply(event);
      testLog({ t: 'event', id: event.id, kind: event.kind, via, applied });
    } else if (frame.event === 'ready' && frame.id) {
      this.ledger.advance(frame.id);
      testLog({ t: 'ready', id: frame.id, via });
    } else if (frame.event === 'reset' && frame.id) {
      this.ledger.reset(frame.id);
      testLog({ t: 'reset', id: frame.id, via });
    }
  }

  /** Holds the stream for the browser: connects, relays, reconnects with back-off, until the session ends. */
  private async lead(): Promise<void> {
    const signal = this.stop.signal;
    this.leading = true;
    testLog({ t: 'lead' });
    let attempt = 0;
    let downTimer: ReturnType<typeof setTimeout> | undefined;
    const armDown = () => {
      clearTimeout(downTimer);
      downTimer = setTimeout(() => store.get(liveAtom) !== 'up' && this.setState('down'), DOWN_AFTER_MS);
    };
    if (store.get(liveAtom) !== 'up') armDown();
    try {
      while (!signal.aborted) {
        const lastEventId = this.ledger.last;
        testLog({ t: 'open', last: lastEventId });
        const end = await readStream({
          token: this.token,
          lang: store.get(languageAtom),
          lastEventId,
          signal,
          onFrame: (frame) => {
            this.frame(frame, 'stream');
            this.post({ type: 'frame', frame });
            if (frame.event === 'ready') {
              attempt = 0;
              clearTimeout(downTimer);
              this.setState('up');
            }
          },
        });
        testLog({ t: 'end', kind: end.kind });
        if (end.kind === 'aborted' || signal.aborted) return;
        if (end.kind === 'refused') {
          // The session ended: the app's usual way out (wipe, words, /login); the token's end stops this loop.
          if (endsSession(end.status, end.text)) return;
          if (lastEventId && isValidationError(end.text)) this.ledger.forget();
        }
        if (store.get(liveAtom) === 'up') this.setState('down');
        await pause(backoffDelay(attempt++), signal);
      }
    } finally {
      clearTimeout(downTimer);
      this.leading = false;
    }
  }
}

function isValidationError(text: string): boolean {
  try {
    return (JSON.parse(text) as { code?: unknown }).code === VALIDATION_ERROR;
  } catch {
    return false;
  }
}

let session: Session | undefined;
let following = false;

function follow(): void {
  // The storage is synchronous (localStorage): the token is a string here, never a promise.
  const token = store.get(tokenAtom) as string;
  if (session && token && userKey(token) === session.user) return;
  session?.end();
  session = undefined;
  if (!token) {
    store.set(liveAtom, 'connecting');
    return;
  }
  session = new Session(token);
  session.start();
}

/** Starts the live stream for the logged-in user and follows the token from then on (idempotent). */
export function startLive(): void {
  if (!following) {
    following = true;
    store.sub(tokenAtom, follow);
  }
  follow();
}
