import { STREAM_PATH } from '../../../contract/live.ts';
import { LANG_HEADER } from '../../../contract/envelope.ts';
import { SseParser, type SseFrame } from './sse.ts';

/** Nothing at all (not even the 20 s heartbeat) for this long: the connection is dead, though no error said so. */
export const DEAD_AFTER_MS = 45_000;

/** How one connection ended. */
export type StreamEnd =
  /** It was open (200, an event stream) and then ended: the server closed it, the network dropped it, or it went silent. */
  | { kind: 'closed' }
  /** It never opened: no network, no answer. */
  | { kind: 'failed' }
  /** Stopped from here (a logout, another user). */
  | { kind: 'aborted' }
  /** Refused before it started: the usual JSON envelope, as text. */
  | { kind: 'refused'; status: number; text: string };

export interface StreamOptions {
  token: string;
  lang: string;
  /** The last event applied: the server replays what came after it. */
  lastEventId: string;
  signal: AbortSignal;
  onFrame(frame: SseFrame): void;
  deadAfterMs?: number;
  fetch?: typeof fetch;
}

/**
 * Opens the live stream once and reads it to its end. With fetch, not EventSource: the bearer token goes
 * in the Authorization header, never in the URL (URLs end up in logs and history).
 */
export async function readStream(options: StreamOptions): Promise<StreamEnd> {
  const { signal, onFrame } = options;
  if (signal.aborted) return { kind: 'aborted' };
  const controller = new AbortController();
  const abort = () => controller.abort();
  signal.addEventListener('abort', abort, { once: true });
  let watchdog: ReturnType<typeof setTimeout> | undefined;
  const alive = () => {
    clearTimeout(watchdog);
    watchdog = setTimeout(abort, options.deadAfterMs ?? DEAD_AFTER_MS);
  };
  let opened = false;
  try {
    alive();
    const headers: Record<string, string> = { accept: 'text/event-stream', authorization: `Bearer ${options.token}`, [LANG_HEADER]: options.lang };
    if (options.lastEventId) headers['last-event-id'] = options.lastEventId;
    const response = await (options.fetch ?? fetch)(`${globalThis.location?.origin ?? ''}${STREAM_PATH}`, { headers, signal: controller.signal, cache: 'no-store' });
    if (!response.ok || !(response.headers.get('content-type') ?? '').startsWith('text/event-stream') || !response.body) {
      return { kind: 'refused', status: response.status, text: await response.text() };
    }
    opened = true;
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    const parser = new SseParser();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      alive();
      for (const frame of parser.push(value)) onFrame(frame);
    }
    return { kind: 'closed' };
  } catch {
    if (signal.aborted) return { kind: 'aborted' };
    return { kind: opened ? 'closed' : 'failed' };
  } finally {
    clearTimeout(watchdog);
    signal.removeEventListener('abort', abort);
    controller.abort();
  }
}
