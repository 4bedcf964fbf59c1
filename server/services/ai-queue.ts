import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../db/connect.ts';
import { fail } from '../errors.ts';

/** A trader's place in the line, as GET /api/strategy/aiQueue answers it. */
export interface SearchPlace {
  /** 0 while their search runs, n with n searches running or waiting before it in its line; null when they have none. */
  position: number | null;
  /** The searches in that line (this process's line when they have none). */
  length: number;
  /** How far their running search is: candidates done of all. */
  progress: { done: number; total: number } | null;
}

/** One of this process's searches: its row, its place, and its progress as reported and as written. */
interface Entry {
  /** Its row's id ('' until written): the order of the line. */
  id: string;
  /** joining: being checked; waiting: in line; yielding: giving its place to a trader who waited longer; running: handed to a worker. */
  state: 'joining' | 'waiting' | 'yielding' | 'running';
  /** When it joined (ms, the database's clock). */
  joined: number;
  /** When the trader's last search ended (ms, the database's clock); null: never. */
  lastEnded: number | null;
  /** Settled when its turn comes (or it gives its place away). */
  turn: Promise<void>;
  go: () => void;
  refuse: (e: Error) => void;
  progress: { done: number; total: number } | null;
  writing: Promise<void> | undefined;
  dirty: boolean;
}

export interface SearchQueueOptions {
  /** How often this process says its searches are still there (default 2 s). */
  refreshMs?: number;
  /** A search not refreshed for this long is a dead process's (SIGKILL): ignored, and its trader may search again (default 10 s). */
  staleMs?: number;
  /** How many searches run at once: the size of the worker pool they are handed to (default 1). */
  slots?: number;
}

/**
 * The AI searches wait in line: one search per trader in the whole cluster, and at most `max` searches
 * waiting or running in one process (AI_QUEUE_MAX). Each process runs its own line (the searches whose
 * requests it holds) and hands them to its workers in the line's order, `slots` at a time: first come,
 * first served, and with one search per trader a trader who just had a search is behind everyone who
 * was waiting when they asked again. A full line does not go to whoever asks first: a trader who asks
 * while it is full takes the place of the waiting search of the trader whose last search ended most
 * recently (after the oldest waiting search joined), when theirs ended earlier or never; that trader is
 * told the line is full. So traders who search again and again cannot keep out one who has waited,
 * and "full" means `max` searches, each of a trader who has waited at least as long.
 *
 * The line is kept in the database (`ai_searches`, one row per search, `started_at` once handed to a
 * worker; `ai_turns`, when each trader's last search ended), so the place and progress the AI screen
 * polls for are the same from every process. A row is its process's while that process refreshes it; a
 * process that died leaves rows that go stale. On the embedded PGlite the same tables serve one process.
 */
export class SearchQueue {
  /** This process's line (a process's id in `ai_searches.line`). */
  readonly line = randomUUID();
  private readonly db: Db;
  private readonly max: number;
  private readonly slots: number;
  private readonly refreshMs: number;
  private readonly staleMs: number;
  /** This process's searches, by trader. */
  private readonly mine = new Map<string, Entry>();
  private timer: NodeJS.Timeout | undefined;

  constructor(db: Db, max: number, options: SearchQueueOptions = {}) {
    this.db = db;
    this.max = max;
    this.slots = Math.max(1, options.slots ?? 1);
    this.refreshMs = options.refreshMs ?? 2000;
    this.staleMs = options.staleMs ?? 10_000;
  }

  private fresh() {
    return sql`seen_at > now() - ${sql.raw(`interval '${Math.floor(this.staleMs)} milliseconds'`)}`;
  }

  private full() {
    return fail('AiSearchQueueFull', { values: { max: this.max } });
  }

  /**
   * Runs `work` at the trader's turn; refused when the trader already has a search on any process, or
   * this process's line is full of traders who have waited at least as long. `work` is handed the function
   * through which it reports how far it is.
   */
  async run<T>(user: string, work: (progress: (done: number, total: number) => void) => Promise<T>): Promise<T> {
    if (this.mine.has(user)) throw fail('AiSearchUserBusy');
    let go = () => {};
    let refuse: (e: Error) => void = () => {};
    const turn = new Promise<void>((resolve, reject) => {
      go = resolve;
      refuse = reject;
    });
    // Given away before it is awaited when the place goes to another trader.
    turn.catch(() => undefined);
    const entry: Entry = { id: '', state: 'joining', joined: 0, lastEnded: null, turn, go, refuse, progress: null, writing: undefined, dirty: false };
    // Held here from now on: the trader's second search on this process is refused while this one is checked.
    this.mine.set(user, entry);
    let yielder: Entry | undefined;
    try {
      const { rows } = await sql<{ now: string; last_ended: string | null; busy: boolean }>`
        select extract(epoch from now()) * 1000 as now,
          (select extract(epoch from ended_at) * 1000 from ai_turns where user_id = ${user}) as last_ended,
          exists (select 1 from ai_searches where user_id = ${user} and ${this.fresh()}) as busy`.execute(this.db);
      const row = rows[0]!;
      if (row.busy) throw fail('AiSearchUserBusy');
      entry.joined = Number(row.now);
      entry.lastEnded = row.last_ended === null ? null : Number(row.last_ended);
      if (this.count() >= this.max) {
        yielder = this.yielderFor(entry);
        if (!yielder) throw this.full();
        yielder.state = 'yielding';
      }
      entry.state = 'waiting';
      // A dead process's row of the trader is removed first.
      await sql`delete from ai_searches where user_id = ${user} and not ${this.fresh()}`.execute(this.db);
      const { rows: inserted } = await sql<{ id: string }>`
        insert into ai_searches (user_id, line) values (${user}, ${this.line}) on conflict (user_id) do nothing returning id`.execute(this.db);
      if (!inserted[0]) throw fail('AiSearchUserBusy');
      entry.id = String(inserted[0].id);
    } catch (e) {
      this.mine.delete(user);
      if (yielder?.state === 'yielding') yielder.state = 'waiting';
      this.pump();
      throw e;
    }
    yielder?.refuse(this.full());
    this.timer ??= setInterval(() => void this.refresh(), this.refreshMs);
    this.timer.unref?.();
    this.pump();
    let ran = false;
    try {
      await entry.turn;
      ran = true;
      await sql`update ai_searches set started_at = now() where id = ${entry.id}`.execute(this.db).catch(() => undefined);
      return await work((done, total) => {
        entry.progress = { done, total };
        this.writeProgress(entry);
      });
    } finally {
      this.mine.delete(user);
      this.pump();
      if (this.mine.size === 0 && this.timer) {
        clearInterval(this.timer);
        this.timer = undefined;
      }
      // Known to every process before the trader can ask again: their next search waits behind those who waited.
      if (ran) await sql`insert into ai_turns (user_id, ended_at) values (${user}, now()) on conflict (user_id) do update set ended_at = excluded.ended_at`.execute(this.db).catch(() => undefined);
      await entry.writing;
      // Left to go stale when the database cannot be reached now.
      await sql`delete from ai_searches where id = ${entry.id}`.execute(this.db).catch(() => undefined);
    }
  }

  /** The searches that take a place in this process's line. */
  private count(): number {
    let n = 0;
    for (const e of this.mine.values()) if (e.state === 'waiting' || e.state === 'running') n++;
    return n;
  }

  /**
   * Whose waiting search gives its place to `asking` in a full line: the one whose trader's last search
   * ended most recently, when that was after the oldest waiting search joined (they had a turn while
   * others waited) and after the asking trader's own last search ended. None: the line is truly full.
   */
  private yielderFor(asking: Entry): Entry | undefined {
    const waiting = [...this.mine.values()].filter((e) => e.state === 'waiting');
    if (waiting.length === 0) return undefined;
    const since = Math.min(...waiting.map((e) => e.joined));
    const recent = (e: Entry) => (e.lastEnded !== null && e.lastEnded > since ? e.lastEnded : Number.NEGATIVE_INFINITY);
    let found: Entry | undefined;
    for (const e of waiting) if (recent(e) > recent(asking) && (!found || recent(e) > recent(found))) found = e;
    return found;
  }

  /** Hands waiting searches to free workers, first in line first. */
  private pump(): void {
    let running = 0;
    for (const e of this.mine.values()) if (e.state === 'running') running++;
    while (running < this.slots) {
      let next: Entry | undefined;
      for (const e of this.mine.values()) if (e.state === 'waiting' && e.id !== '' && (!next || BigInt(e.id) < BigInt(next.id))) next = e;
      if (!next) return;
      next.state = 'running';
      running++;
      next.go();
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

  /** The trader's place, wherever their search runs: 0 once handed to a worker, else the searches started or ahead of it. */
  async placeOf(user: string): Promise<SearchPlace> {
    const { rows } = await sql<{ line: string; ahead: string; length: string; done: number | null; total: number | null }>`
      select s.line, s.done, s.total,
        case when s.started_at is not null then 0 else
          (select count(*) from ai_searches o where o.line = s.line and o.id <> s.id and (o.started_at is not null or o.id < s.id) and ${this.fresh()}) end as ahead,
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
