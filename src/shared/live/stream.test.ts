import { describe, expect, it, vi } from 'vitest';
import { readStream } from './stream.ts';
import type { SseFrame } from './sse.ts';
import { livePoll, liveAtom } from './state.ts';
import { store } from '../../lib/store.ts';

/** A fetch answering an event stream of these chunks, then holding it open or ending it. */
function streaming(chunks: string[], { end = true } = {}) {
  const seen: RequestInit[] = [];
  const fetchStub = (async (_url: string, init: RequestInit) => {
    seen.push(init);
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const c of chunks) controller.enqueue(new TextEncoder().encode(c));
        if (end) controller.close();
        init.signal?.addEventListener('abort', () => controller.error(new DOMException('aborted', 'AbortError')));
      },
    });
    return new Response(body, { headers: { 'content-type': 'text/event-stream; charset=utf-8' } });
  }) as unknown as typeof fetch;
  return { fetchStub, seen };
}

describe('reading the live stream', () => {
  it('sends the token and Last-Event-ID in headers, never in the URL, and hands over each frame', async () => {
    const { fetchStub, seen } = streaming(['id: 8\ndata: {"kind":"bot"', '}\n\nevent: ready\nid: 8\ndata: {}\n\n']);
    const frames: SseFrame[] = [];
    const url = vi.fn();
    const end = await readStream({
      token: 'secret-token',
      lang: 'en',
      lastEventId: '7',
      signal: new AbortController().signal,
      onFrame: (f) => frames.push(f),
      fetch: ((u: string, init: RequestInit) => {
        url(u);
        return fetchStub(u, init);
      }) as typeof fetch,
    });
    expect(end).toEqual({ kind: 'closed' });
    expect(url.mock.calls[0]![0]).not.toContain('secret-token');
    expect(seen[0]!.headers).toMatchObject({ authorization: 'Bearer secret-token', 'last-event-id': '7', lang: 'en' });
    expect(frames.map((f) => f.event)).toEqual(['message', 'ready']);
  });

  it('leaves Last-Event-ID out on a first connect', async () => {
    const { fetchStub, seen } = streaming([]);
    await readStream({ token: 't', lang: 'zh', lastEventId: '', signal: new AbortController().signal, onFrame: () => undefined, fetch: fetchStub });
    expect(seen[0]!.headers).not.toHaveProperty('last-event-id');
  });

  it('gives a refusal back as its envelope', async () => {
    const refuse = (async () => new Response('{"code":1005,"msg":"bad"}', { status: 400, headers: { 'content-type': 'application/json' } })) as unknown as typeof fetch;
    const end = await readStream({ token: 't', lang: 'zh', lastEventId: 'x', signal: new AbortController().signal, onFrame: () => undefined, fetch: refuse });
    expect(end).toEqual({ kind: 'refused', status: 400, text: '{"code":1005,"msg":"bad"}' });
  });

  it('ends a stream that says nothing, not even a heartbeat, for the dead-after time', async () => {
    const { fetchStub } = streaming(['event: ready\nid: 1\ndata: {}\n\n'], { end: false });
    const started = Date.now();
    const end = await readStream({ token: 't', lang: 'zh', lastEventId: '', signal: new AbortController().signal, onFrame: () => undefined, fetch: fetchStub, deadAfterMs: 150 });
    expect(end).toEqual({ kind: 'closed' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
  });

  it('stops at once when aborted (a logout)', async () => {
    const { fetchStub } = streaming([': \n\n'], { end: false });
    const stop = new AbortController();
    const reading = readStream({ token: 't', lang: 'zh', lastEventId: '', signal: stop.signal, onFrame: () => undefined, fetch: fetchStub });
    setTimeout(() => stop.abort(), 20);
    const started = Date.now();
    expect(await reading).toEqual({ kind: 'aborted' });
    expect(Date.now() - started).toBeLessThan(500);
  });
});

describe('polling by the live state', () => {
  it('polls unless the stream is up; priced figures slowly while it is', () => {
    const covered = livePoll(3000);
    const priced = livePoll((q: { running: boolean }) => (q.running ? 3000 : false), { whileUp: 30_000 });
    store.set(liveAtom, 'connecting');
    expect(covered(undefined)).toBe(3000);
    expect(priced({ running: true })).toBe(3000);
    store.set(liveAtom, 'up');
    expect(covered(undefined)).toBe(false);
    expect(priced({ running: true })).toBe(30_000);
    expect(priced({ running: false })).toBe(false);
    store.set(liveAtom, 'down');
    expect(covered(undefined)).toBe(3000);
  });
});
