import { describe, expect, it } from 'vitest';
import { SseParser } from './sse.ts';

const all = (chunks: string[]) => {
  const parser = new SseParser();
  return chunks.flatMap((c) => parser.push(c));
};

describe('the event-stream parser', () => {
  it('reads events and control frames as the server writes them', () => {
    const text = 'id: 7\ndata: {"kind":"bot","id":"7"}\n\nevent: ready\nid: 7\ndata: {"type":"ready","id":"7"}\n\n';
    expect(all([text])).toEqual([
      { event: 'message', id: '7', data: '{"kind":"bot","id":"7"}' },
      { event: 'ready', id: '7', data: '{"type":"ready","id":"7"}' },
    ]);
  });

  it('gives the same frames whatever the chunks are cut at, even one character at a time', () => {
    const text = 'id: 1\ndata: {"a":1}\n\n: \n\nevent: reset\nid: 9\ndata: {"type":"reset","id":"9"}\n\n';
    const whole = all([text]);
    expect(all(text.split(''))).toEqual(whole);
    for (let cut = 1; cut < text.length; cut++) expect(all([text.slice(0, cut), text.slice(cut)])).toEqual(whole);
  });

  it('joins data lines with a newline', () => {
    expect(all(['data: one\ndata: two\ndata:three\n\n'])).toEqual([{ event: 'message', data: 'one\ntwo\nthree' }]);
  });

  it('skips comments (the heartbeat) and frames without data', () => {
    expect(all([': \n\n', ':keep-alive\n\n', 'event: ready\n\n', 'id: 3\n\n'])).toEqual([]);
  });

  it('reads CRLF and lone CR line endings, also a CRLF split between chunks', () => {
    const crlf = 'id: 2\r\ndata: x\r\n\r\n';
    expect(all([crlf])).toEqual([{ event: 'message', id: '2', data: 'x' }]);
    expect(all(['id: 2\r', '\ndata: x\r', '\n\r', '\n'])).toEqual([{ event: 'message', id: '2', data: 'x' }]);
    expect(all(['id: 2\rdata: x\r\r'])).toEqual([{ event: 'message', id: '2', data: 'x' }]);
  });

  it('keeps an unfinished frame until its blank line arrives', () => {
    const parser = new SseParser();
    expect(parser.push('id: 5\ndata: {"partial"')).toEqual([]);
    expect(parser.push(':true}\n')).toEqual([]);
    expect(parser.push('\n')).toEqual([{ event: 'message', id: '5', data: '{"partial":true}' }]);
  });
});
