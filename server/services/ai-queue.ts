import { fail } from './errors.ts';

/**
 * The AI searches of this process wait in one line (the worker runs one at a time; issue 12 finding
 * 8): at most `max` searches queued or running, and one per trader, so a few traders cannot keep
 * everyone else waiting without end. A trader's place in the line is what the AI screen shows while it
 * waits. Each server process has its own worker and line.
 */
export class SearchQueue {
  private readonly line: { user: string; progress: { done: number; total: number } | null }[] = [];
  private readonly max: number;

  constructor(max: number) {
    this.max = max;
  }

  /**
   * Runs `work` in the trader's place in the line; refused when the trader already waits or the line is
   * full. `work` is handed the function through which it reports how far it is.
   */
  async run<T>(user: string, work: (progress: (done: number, total: number) => void) => Promise<T>): Promise<T> {
    if (this.line.some((e) => e.user === user)) throw fail('AiSearchUserBusy');
    if (this.line.length >= this.max) throw fail('AiSearchQueueFull');
    const entry: (typeof this.line)[number] = { user, progress: null };
    this.line.push(entry);
    try {
      return await work((done, total) => {
        entry.progress = { done, total };
      });
    } finally {
      this.line.splice(this.line.indexOf(entry), 1);
    }
  }

  /** The trader's place: 0 while their search runs, n with n searches before it; null when they have none. And how far it is. */
  placeOf(user: string): { position: number | null; length: number; progress: { done: number; total: number } | null } {
    const i = this.line.findIndex((e) => e.user === user);
    return { position: i < 0 ? null : i, length: this.line.length, progress: this.line[i]?.progress ?? null };
  }
}

/** At most this many AI searches wait or run in one process, unless configured (AI_QUEUE_MAX). */
export const DEFAULT_AI_QUEUE_MAX = 8;
