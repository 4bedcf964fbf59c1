/**
 * The text/event-stream format, read by hand: the live stream is fetched (a browser's EventSource cannot
 * send the bearer token in a header, and a token in the URL would end up in logs and history), so the
 * frames are cut here. Only what the server sends is kept: `event`, `data` (several lines joined by a
 * newline) and `id`; comment lines are the heartbeat and carry nothing but the proof of life.
 */
export interface SseFrame {
  /** `message` unless the frame names another (`ready`, `reset`). */
  event: string;
  data: string;
  id?: string;
}

/** Cuts a stream of text into frames, whatever the chunks' boundaries and line endings (LF, CRLF, CR). */
export class SseParser {
  private buffer = '';
  /** A CR ended the last chunk: an LF opening the next one belongs to it. */
  private pendingCr = false;
  private event = '';
  private data: string[] = [];
  private id: string | undefined;

  /** Feeds one chunk; answers the frames it completed. */
  push(chunk: string): SseFrame[] {
    let text = chunk;
    if (this.pendingCr && text.startsWith('\n')) text = text.slice(1);
    this.pendingCr = false;
    this.buffer += text;
    const frames: SseFrame[] = [];
    for (;;) {
      const end = this.buffer.search(/[\r\n]/);
      if (end < 0) break;
      const line = this.buffer.slice(0, end);
      if (this.buffer[end] === '\r') {
        if (end + 1 === this.buffer.length) this.pendingCr = true;
        else if (this.buffer[end + 1] === '\n') {
          this.buffer = this.buffer.slice(end + 2);
          this.line(line, frames);
          continue;
        }
      }
      this.buffer = this.buffer.slice(end + 1);
      this.line(line, frames);
    }
    return frames;
  }

  private line(line: string, frames: SseFrame[]): void {
    if (line === '') {
      if (this.data.length > 0) frames.push({ event: this.event || 'message', data: this.data.join('\n'), ...(this.id !== undefined ? { id: this.id } : {}) });
      this.event = '';
      this.data = [];
      this.id = undefined;
      return;
    }
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') this.event = value;
    else if (field === 'data') this.data.push(value);
    else if (field === 'id' && !value.includes('\0')) this.id = value;
  }
}
