import type { StreamFrame, StreamedEvent } from '../../contract/live.ts';
import { STREAM_HEARTBEAT_MS } from '../../contract/live.ts';
import type { Db } from '../db/connect.ts';
import { EVENT_CHANNEL, listenDatabase, SESSION_CHANNEL, type BotListener } from '../cluster/notify.ts';
import { eventsAfter, headOf, replayFrom } from './log.ts';

/** One open stream: who it belongs to, what it has sent, and how to write to it. */
export interface StreamSink {
  userId: string;
  sessionId: string;
  /** When the session ends by itself: the stream is closed then. */
  expiresAt: number;
  /** Writes one frame; false when the client reads too slowly (the stream is closed, it reconnects and replays). */
  write(chunk: string): boolean;
  /** Ends the response. */
  end(): void;
}

interface Open extends StreamSink {
  /** The last event number sent. */
  last: bigint;
  closed: boolean;
}

/** An event as an SSE frame: its number as the id, the event itself as the data. */
export const eventFrame = (e: StreamedEvent): string => `id: ${e.id}\ndata: ${JSON.stringify(e)}\n\n`;
const controlFrame = (frame: StreamFrame): string => `event: ${frame.type}\nid: ${frame.id}\ndata: ${JSON.stringify(frame)}\n\n`;

export interface HubOptions {
  /** Streams one user may hold on this process (one per browser; more close the oldest). */
  maxPerUser?: number;
  heartbeatMs?: number;
  log?: { error(obj: unknown, msg: string): void };
}

/**
 * This process's open streams, by user. Nothing here is the truth: every event comes from the database
 * (server/events/log.ts), read when a notification says the user has new ones, so a stream on any process
 * sends what any process committed, and a reconnect to another process resumes from its Last-Event-ID.
 *
 * Each user's work (opening a stream with its replay, reading new events, checking sessions) runs one
 * task at a time, in order: an event committed while a stream opens is read after its replay, never
 * before, and no event is sent twice or skipped. Reads of one user are coalesced: a burst of a hundred
 * commits is one or two reads.
 */
export class StreamHub {
  private readonly byUser = new Map<string, Set<Open>>();
  private readonly chains = new Map<string, Promise<void>>();
  private readonly waking = new Set<string>();
  private readonly maxPerUser: number;
  private heartbeat: NodeJS.Timeout | undefined;
  private listener: BotListener | undefined;
  private total = 0;
  private readonly db: Db;
  private readonly options: HubOptions;

  constructor(db: Db, options: HubOptions = {}) {
    this.db = db;
    this.options = options;
    this.maxPerUser = options.maxPerUser ?? 10;
  }

  /** Open streams on this process. */
  count(): number {
    return this.total;
  }

  /** Listens for committed events and ended sessions of every process (PostgreSQL with `url`, or the embedded PGlite). */
  async start(url: string | undefined): Promise<void> {
    this.listener = await listenDatabase(
      this.db,
      url,
      { [EVENT_CHANNEL]: (userId) => this.wake(userId), [SESSION_CHANNEL]: (userId) => this.checkSessions(userId) },
      {
        // Notifications may have been missed while the connection was down: every user with a stream reads again.
        onReconnect: () => {
          for (const userId of this.byUser.keys()) {
            this.wake(userId);
            this.checkSessions(userId);
          }
        },
        ...(this.options.log ? { log: this.options.log } : {}),
      },
    );
    const every = this.options.heartbeatMs ?? STREAM_HEARTBEAT_MS;
    this.heartbeat = setInterval(() => this.beat(), every);
    this.heartbeat.unref();
  }

  /** Ends every stream (the server is closing: clients reconnect to another process) and stops listening. */
  async stop(): Promise<void> {
    if (this.heartbeat) clearInterval(this.heartbeat);
    for (const streams of this.byUser.values()) for (const s of [...streams]) this.close(s);
    await this.listener?.close();
  }

  /**
   * Opens a stream: resumes after `after` (the client's Last-Event-ID) with what it missed, or a reset;
   * without one, from now. Then `ready`, and every event of the user as it is committed. Answers the
   * function that closes it (the client went away).
   */
  open(sink: StreamSink, after: string | undefined): () => void {
    const s: Open = { ...sink, last: 0n, closed: false };
    let streams = this.byUser.get(s.userId);
    if (!streams) {
      streams = new Set();
      this.byUser.set(s.userId, streams);
    }
    // One per browser is the norm; a user opening ever more (a script, a leak) costs this process
    // nothing more than maxPerUser: the oldest goes.
    if (streams.size >= this.maxPerUser) {
      const oldest = streams.values().next().value;
      if (oldest) this.close(oldest);
    }
    streams.add(s);
    this.total++;
    this.run(s.userId, async () => {
      if (s.closed) return;
      if (after === undefined) {
        s.last = BigInt(await headOf(this.db, s.userId));
        this.send(s, controlFrame({ type: 'ready', id: String(s.last) }));
        return;
      }
      const replay = await replayFrom(this.db, s.userId, after);
      if ('reset' in replay) {
        s.last = BigInt(replay.reset);
        this.send(s, controlFrame({ type: 'reset', id: replay.reset }));
      } else {
        s.last = BigInt(after);
        for (const e of replay.events) {
          if (!this.send(s, eventFrame(e))) return;
          s.last = BigInt(e.id);
        }
      }
      this.send(s, controlFrame({ type: 'ready', id: String(s.last) }));
    });
    return () => this.close(s);
  }

  /** The user has new events: each of their streams here is sent those after its last. */
  wake(userId: string): void {
    if (!this.byUser.has(userId) || this.waking.has(userId)) return;
    this.waking.add(userId);
    this.run(userId, async () => {
      this.waking.delete(userId);
      for (;;) {
        const streams = [...(this.byUser.get(userId) ?? [])].filter((s) => !s.closed);
        if (streams.length === 0) return;
        let from = streams[0]!.last;
        for (const s of streams) if (s.last < from) from = s.last;
        const events = await eventsAfter(this.db, userId, String(from), 500);
        // Each frame written once, whatever the number of the user's streams that get it.
        const frames = events.map((e) => ({ id: BigInt(e.id), frame: eventFrame(e) }));
        for (const s of streams) {
          for (const f of frames) {
            if (s.closed || f.id <= s.last) continue;
            if (!this.send(s, f.frame)) break;
            s.last = f.id;
          }
        }
        if (events.length < 500) return;
      }
    });
  }

  /** The user's sessions changed (a logout, a revocation): streams of sessions no longer live end now. */
  checkSessions(userId: string): void {
    if (!this.byUser.has(userId)) return;
    this.run(userId, async () => {
      const streams = [...(this.byUser.get(userId) ?? [])];
      if (streams.length === 0) return;
      const live = await this.db
        .selectFrom('sessions')
        .select('id')
        .where(
          'id',
          'in',
          streams.map((s) => s.sessionId),
        )
        .where('revoked_at', 'is', null)
        .where('expires_at', '>', new Date())
        .execute();
      const alive = new Set(live.map((r) => String(r.id)));
      for (const s of streams) if (!alive.has(s.sessionId)) this.close(s);
    });
  }

  private beat(): void {
    const now = Date.now();
    for (const streams of this.byUser.values()) {
      for (const s of [...streams]) {
        if (s.expiresAt <= now) this.close(s);
        else this.send(s, ': \n\n');
      }
    }
  }

  private send(s: Open, chunk: string): boolean {
    if (s.closed) return false;
    if (s.write(chunk)) return true;
    this.close(s);
    return false;
  }

  private close(s: Open): void {
    if (s.closed) return;
    s.closed = true;
    this.total--;
    const streams = this.byUser.get(s.userId);
    streams?.delete(s);
    if (streams?.size === 0) this.byUser.delete(s.userId);
    try {
      s.end();
    } catch {
      // the socket is gone already
    }
  }

  /** Runs `task` after the user's earlier tasks; a failure is logged (the client's reconnect replays what it missed). */
  private run(userId: string, task: () => Promise<void>): void {
    const previous = this.chains.get(userId) ?? Promise.resolve();
    const next = previous
      .then(task)
      .catch((e: unknown) => {
        this.options.log?.error({ err: { message: String((e as Error)?.message ?? e) } }, 'live stream read failed');
        // What could not be read is not lost: the user's streams end, and each reconnects and replays.
        for (const s of [...(this.byUser.get(userId) ?? [])]) this.close(s);
      })
      .finally(() => {
        if (this.chains.get(userId) === next) this.chains.delete(userId);
      });
    this.chains.set(userId, next);
  }
}
