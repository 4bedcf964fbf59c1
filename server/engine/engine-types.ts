// The engine's small shared types, apart from the runner so that its parts (ownership, command routing) need not import it.

export interface EngineLog {
  error(obj: unknown, msg: string): void;
}

/**
 * What the engine tells about its own work (GET /metrics): each round's duration, how long
 * a bot's event waited behind the ones before it, and the leases gained and lost. server/metrics.ts
 * implements it; the engine imports nothing of the HTTP side.
 */
export interface EngineObserver {
  round(seconds: number): void;
  /** The time from one round's start to the next's: the tick when nothing holds the event loop up. */
  interval?(seconds: number): void;
  queued(seconds: number): void;
  leases(change: 'gained' | 'lost', count: number): void;
  /**
   * What reconciliation found (reconciliation.ts, lost-orders.ts, account-health.ts): an order lost, one
   * that never reached its venue (sent again), an orphan order cancelled, a bot paused for a coin its account lacks; each round, the accounts out of
   * reach and how long the oldest of those outages has lasted; and each outage's length when it ends.
   */
  reconciled?(found: 'lost' | 'unreached' | 'orphan' | 'short', count: number): void;
  accountsDown?(count: number, longestSeconds: number): void;
  outageEnded?(seconds: number): void;
  /** Orders in flight looked up on their venue by client order id in a lookup round (lookup-budget.ts). */
  lookedUp?(count: number): void;
}

/** What a manual add or close came to on the process that owns the bot. */
export type CommandResult = 'placed' | 'busy' | 'nothing';
