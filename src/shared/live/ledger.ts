import type { CallName } from '../../../contract/calls.ts';
import { liveChanges, liveKinds, type LiveKind, type StreamedEvent } from '../../../contract/live.ts';

/** What a ledger needs from the page: where it keeps the last id, and how it refreshes queries. */
export interface LedgerDeps {
  /** Keeps the last applied id across reloads (localStorage), or nothing. */
  storage: Pick<Storage, 'getItem' | 'setItem'> | null;
  /** The storage key: one per user, so another user's tab never resumes from it. */
  key: string;
  /** Refreshes the queries of these calls; `'all'` after a reset. */
  refresh(names: ReadonlySet<CallName> | 'all'): void;
  /** Runs the coalesced refresh later (a timer; tests pass their own). */
  schedule?(run: () => void): void;
}

/** Bursts (a grid filling ten orders in one round) are one refresh of each screen, not ten. */
export const COALESCE_MS = 100;

const isKind = (kind: unknown): kind is LiveKind => typeof kind === 'string' && (liveKinds as readonly string[]).includes(kind);
/** Event ids are 64-bit sequence numbers: compared as bigints, never as doubles. */
const asId = (id: string | undefined | null): bigint | null => (id && /^\d{1,19}$/.test(id) ? BigInt(id) : null);

/**
 * The events this tab has applied, by the user's sequence number: each is applied once (a replay after a
 * reconnect, or the same frame arriving from the stream and from another tab, is ignored), and the last id
 * is what a reconnect sends as Last-Event-ID.
 */
export class Ledger {
  private lastId: bigint;
  private pending = new Set<CallName>();
  private scheduled = false;
  private all = false;
  private readonly deps: LedgerDeps;

  constructor(deps: LedgerDeps) {
    this.deps = deps;
    this.lastId = asId(read(deps)) ?? 0n;
  }

  /** The last applied id ('' when none: a first connect starts from now). */
  get last(): string {
    return this.lastId === 0n ? '' : String(this.lastId);
  }

  /** Applies one event: its calls are refreshed soon. False when it was applied before (or is not one). */
  apply(event: StreamedEvent): boolean {
    const id = asId(event.id);
    if (id === null || id <= this.lastId || !isKind(event.kind)) return false;
    this.move(id);
    for (const name of liveChanges[event.kind]) this.pending.add(name);
    this.flushSoon();
    return true;
  }

  /** The stream is caught up to `id` (a `ready`): a later reconnect resumes from there. */
  advance(id: string): void {
    const n = asId(id);
    if (n !== null && n > this.lastId) this.move(n);
  }

  /** What was missed cannot be replayed: every screen loads again, and the stream goes on from `id`. */
  reset(id: string): void {
    const n = asId(id);
    if (n !== null) this.move(n);
    this.all = true;
    this.flushSoon();
  }

  /** The stored id was refused by the server: forget it (the next connect starts from now). */
  forget(): void {
    this.lastId = 0n;
    write(this.deps, '');
  }

  private move(id: bigint): void {
    this.lastId = id;
    write(this.deps, String(id));
  }

  private flushSoon(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    const run = () => {
      this.scheduled = false;
      const names = this.all ? 'all' : this.pending;
      this.pending = new Set();
      this.all = false;
      this.deps.refresh(names);
    };
    if (this.deps.schedule) this.deps.schedule(run);
    else setTimeout(run, COALESCE_MS);
  }
}

function read(deps: LedgerDeps): string | null {
  try {
    return deps.storage?.getItem(deps.key) ?? null;
  } catch {
    return null; // storage blocked: the stream starts from now
  }
}

function write(deps: LedgerDeps, value: string): void {
  try {
    deps.storage?.setItem(deps.key, value);
  } catch {
    // storage full or blocked: the id stays in memory
  }
}
