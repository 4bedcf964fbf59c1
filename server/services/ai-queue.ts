import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../db/connect.ts';
import { fail } from './errors.ts';

/** A trader's place in the line, as GET /api/strategy/aiQueue answers it. */
export interface SearchPlace {
  /** 0 while their search runs, n with n searches before it in its line; null when they have none. */
  position: number | null;
  /** The searches in that line (this process's line when they have none). */
  length: number;
  /** How far their running search is: candidates done of all. */
  progress: { done: number; total: number } | null;
}

/** One of this process's searches: its row, and its progress as reported and as written. */
interface Entry {
  id: string;
  progress: { done: number; total: number } | null;
  writing: Promise<void> | undefined;
  dirty: boolean;
}

export interface SearchQueueOptions {
  /** How often this process says its searches are still there (default 2 s). */
  refreshMs?: number;
  /** A search not refreshed for this long is a dead process's (SIGKILL): ignored, and its trader may search again (default 10 s). */
  staleMs?: number;
}

/**
 * The AI searches wait in line (the worker thread runs one at a time; issue 12 finding 8): at most
 * `max` searches queued or running per process, and one per trader in the whole cluster, so a few
 * traders cannot keep everyone else waiting without end. Each process runs its own line, but the line
 * is kept in PostgreSQL (`ai_searches`, issue 15): a trader's second search is refused whichever process
 * it reaches, and the place and progress the AI screen polls for are the same from every process. A row
 * is its process's while that process refreshes it; a process that died leaves rows that go stale. On
 * the embedded PGlite the same table serves one process.
 */
export class SearchQueue {
  /** This process's line (a process's id in `ai_searches.line`). */
  readonly line = randomUUID();
  private readonly db: Db;
  private readonly max: number;
  private readonly refreshMs: number;
  private readonly staleMs: number;
  /** This process's searches, by trader: their row, and their progress not yet written. */
  private readonly mine = new Map<string, Entry>();
  private timer: NodeJS.Timeout | undefined;

  constructor(db: Db, max: number, options: SearchQueueOptions = {}) {
    this.db = db;
    this.max = max;
    this.refreshMs = options.refreshMs ?? 2000;
    this.staleMs = options.staleMs ?? 10_000;
  }

  private fresh() {
    return sql`seen_at > now() - ${sql.raw(`interval '${Math.floor(this.staleMs)} milliseconds'`)}`;
  }

  /**
   * Runs `work` in the trader's place in the line; refused when the trader already has a search on any
   * process, or this process's line is full. `work` is handed the function through which it reports how far it is.
   */
  async run<T>(user: string, work: (progress: (done: number, total: number) => void) => Promise<T>): Promise<T> {
    if (this.mine.has(user)) throw fail('AiSearchUserBusy');
    if (this.mine.size >= this.max) throw fail('AiSearchQueueFull');
    // Held here from now on (the checks above stay true while the row is written); a dead process's row of the trader is removed first.
    const entry: Entry = { id: '', progress: null, writing: undefined, dirty: false };
    this.mine.set(user, entry);
    try {
      await sql`delete from ai_searches where user_id = ${user} and not ${this.fresh()}`.execute(this.db);
      const { rows } = await sql<{ id: string }>`
        insert into ai_searches (user_id, line) values (${user}, ${this.line}) on conflict (user_id) do nothing returning id`.execute(this.db);
      if (!rows[0]) throw fail('AiSearchUserBusy');
      entry.id = String(rows[0].id);
    } catch (e) {
      this.mine.delete(user);
      throw e;
    }
    this.timer ??= setInterval(() => void this.refresh(), this.refreshMs);
    this.timer.unref?.();
    try {
      return await work((done, total) => {
        entry.progress = { done, total };
        this.writeProgress(entry);
      });
    } finally {
      this.mine.delete(user);
      if (this.mine.size === 0 && this.timer) {
        clearInterval(this.timer);
        this.timer = undefined;
      }
      await entry.writing;
      // Left to go stale when the database cannot be reached now.
      await sql`delete from ai_searches where id = ${entry.id}`.execute(this.db).catch(() => undefined);
    }
  }

  /** Writes the search's progress for the other processes: one write at a time, the latest figures. */
  private writeProgress(entry: Entry): void {
    if (entry.writing) {
      entry.dirty = true;
      return;
    }
    const progress = entry.progress;
    entry.dirty = false;
    entry.writing = sql`update ai_searches set done = ${progress?.done ?? null}, total = ${progress?.total ?? null} where id = ${entry.id}`
      .execute(this.db)
      .then(
        () => undefined,
        () => undefined,
      )
      .finally(() => {
        entry.writing = undefined;
        if (entry.dirty) this.writeProgress(entry);
      });
  }

  /** This process's searches are still there (one statement for all of them). */
  private async refresh(): Promise<void> {
    await sql`update ai_searches set seen_at = now() where line = ${this.line}`.execute(this.db).catch(() => undefined);
  }

  /** The trader's place, wherever their search runs. */
  async placeOf(user: string): Promise<SearchPlace> {
    const { rows } = await sql<{ line: string; ahead: string; length: string; done: number | null; total: number | null }>`
      select s.line, s.done, s.total,
        (select count(*) from ai_searches o where o.line = s.line and o.id < s.id and ${this.fresh()}) as ahead,
        (select count(*) from ai_searches o where o.line = s.line and ${this.fresh()}) as length
      from ai_searches s where s.user_id = ${user} and ${this.fresh()}`.execute(this.db);
    const row = rows[0];
    if (!row) {
      const { rows: here } = await sql<{ n: string }>`select count(*) as n from ai_searches where line = ${this.line} and ${this.fresh()}`.execute(this.db);
      return { position: null, length: Number(here[0]?.n ?? 0), progress: null };
    }
    const progress = row.done !== null && row.total !== null ? { done: row.done, total: row.total } : null;
    return { position: Number(row.ahead), length: Number(row.length), progress };
  }
}

/** At most this many AI searches wait or run in one process, unless configured (AI_QUEUE_MAX). */
export const DEFAULT_AI_QUEUE_MAX = 8;
