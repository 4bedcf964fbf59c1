import type { StreamedEvent } from '../../contract/live.ts';

/** A frame read off the live stream: an event, or a control frame (ready, reset). */
export type ReadFrame = { type: 'event'; id: string; event: StreamedEvent } | { type: 'ready' | 'reset'; id: string };

export interface TestStream {
  /** The HTTP status and content type of the answer (an envelope when the stream was refused). */
  status: number;
  contentType: string;
  /** The refusal's envelope, when the answer was not a stream. */
  refusal?: { code: number; msg: string };
  frames: ReadFrame[];
  events(): StreamedEvent[];
  /** Resolves when the server ends the stream (or the connection drops). */
  ended: Promise<void>;
  /** Waits until `check` holds over the frames read so far. */
  until(check: (frames: ReadFrame[]) => boolean, timeoutMs?: number): Promise<void>;
  close(): void;
}

/**
 * Reads GET /api/stream with fetch, as the PWA does: the bearer token in the Authorization header, the
 * last id in Last-Event-ID. Parses the SSE frames (id, event, data, comments) into `frames`.
 */
export async function openTestStream(baseURL: string, token: string, lastEventId?: string, headers: Record<string, string> = {}): Promise<TestStream> {
  const abort = new AbortController();
  const response = await fetch(`${baseURL}/api/stream`, {
    headers: { authorization: `Bearer ${token}`, lang: 'en', ...(lastEventId !== undefined ? { 'last-event-id': lastEventId } : {}), ...headers },
    signal: abort.signal,
  });
  const contentType = response.headers.get('content-type') ?? '';
  const frames: ReadFrame[] = [];
  const waiters = new Set<() => void>();
  const stream: TestStream = {
    status: response.status,
    contentType,
    frames,
    events: () => frames.flatMap((f) => (f.type === 'event' ? [f.event] : [])),
    ended: Promise.resolve(),
    until: (check, timeoutMs = 5000) =>
      new Promise<void>((resolve, reject) => {
        if (check(frames)) return resolve();
        const timer = setTimeout(() => {
          waiters.delete(look);
          reject(new Error(`stream: condition not met in ${timeoutMs} ms; frames: ${JSON.stringify(frames).slice(0, 2000)}`));
        }, timeoutMs);
        const look = () => {
          if (!check(frames)) return;
          clearTimeout(timer);
          waiters.delete(look);
          resolve();
        };
        waiters.add(look);
      }),
    close: () => abort.abort(),
  };
  if (!contentType.startsWith('text/event-stream')) {
    stream.refusal = (await response.json()) as { code: number; msg: string };
    return stream;
  }
  stream.ended = (async () => {
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        buffer += value;
        let cut = buffer.indexOf('\n\n');
        while (cut >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          cut = buffer.indexOf('\n\n');
          let id = '';
          let type = 'message';
          let data = '';
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) continue;
            const colon = line.indexOf(':');
            const field = colon < 0 ? line : line.slice(0, colon);
            const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
            if (field === 'id') id = value;
            else if (field === 'event') type = value;
            else if (field === 'data') data += value;
          }
          if (!data) continue;
          if (type === 'ready' || type === 'reset') frames.push({ type, id });
          else frames.push({ type: 'event', id, event: JSON.parse(data) as StreamedEvent });
        }
        for (const look of [...waiters]) look();
      }
    } catch {
      // aborted by close(), or the connection dropped
    } finally {
      for (const look of [...waiters]) look();
    }
  })();
  return stream;
}
