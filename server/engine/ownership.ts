import type { Db } from '../db/connect.ts';
import { claim, type Fence, leaseOf, liveWorkers, owned, release, wanted, winner } from '../cluster/leases.ts';
import { botsWithCommands, type LeaseNow } from '../cluster/commands.ts';
import type { Worker } from '../cluster/workers.ts';
import type { EngineLog, EngineObserver } from './engine-types.ts';

/** The most bots one claim round takes: a worker that starts late does not swallow a whole cluster at once. */
const CLAIMS_PER_ROUND = 500;
/** The most bots one round hands over to the worker that now wins them (about 50 bots a second). */
const RELEASES_PER_ROUND = 50;

/** What ownership asks of the engine whose bots it holds. */
export interface OwnedBots {
  serial<T>(botId: string, work: () => Promise<T>): Promise<T>;
  /** Loads a gained bot and looks its order in flight up, as at a start. Call inside `serial`. */
  resume(botId: string): Promise<void>;
  /** Takes a bot's changed row into account (started, paused, stopped elsewhere). Call inside `serial`. */
  refresh(botId: string): Promise<void>;
  /** Forgets a bot: off the book, out of memory. */
  forget(botId: string): void;
  /** A loaded bot's owner, status and whether it has an order in flight. */
  loaded(botId: string): { userId: string; status: string; pending: boolean } | undefined;
  /** Whether the bot has work queued. */
  busy(botId: string): boolean;
  /** Runs the manual commands waiting for a bot held here. */
  commandArrived(botId: string): void;
}

/**
 * Which bots this process trades, in a cluster: the leases it holds (their epochs, which every decision
 * shows as its fence), the claims of free bots it wins (rendezvous hashing on the trader, an orphan after
 * 3 x TTL), the hand-over of bots a worker that joined now wins, and the round that keeps all of it
 * current every `claimMs`. Without a cluster there is no Ownership: the engine owns every bot.
 */
export class Ownership {
  private readonly epochs = new Map<string, string>();
  /** When this process first saw each bot that no live worker owns (the fallback after 3 x TTL). */
  private readonly orphans = new Map<string, number>();
  private owning = false;
  /** A round was asked for (a notification) while one ran: it runs again once done, else that bot would wait for the next period. */
  private again = false;
  private timer: NodeJS.Timeout | undefined;
  /** When the last round finished: /api/ready's liveness. */
  lastRoundAt: number | undefined;
  private readonly db: Db;
  readonly cluster: Worker;
  private readonly bots: OwnedBots;
  private readonly observe: EngineObserver | undefined;
  private readonly log: () => EngineLog | undefined;

  constructor(db: Db, cluster: Worker, bots: OwnedBots, observe: EngineObserver | undefined, log: () => EngineLog | undefined) {
    this.db = db;
    this.cluster = cluster;
    this.bots = bots;
    this.observe = observe;
    this.log = log;
  }

  /** Registers the worker, takes the bots it wins (all of them when alone), and keeps claiming every `periodMs`. */
  async start(periodMs: number): Promise<void> {
    await this.cluster.start();
    await this.round();
    this.timer = setInterval(() => void this.round(), periodMs);
    this.timer.unref?.();
  }

  stopTimer(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Whether this process holds the bot's lease. */
  holds(botId: string): boolean {
    return this.epochs.has(botId);
  }

  /** This process's lease on a bot, as its decisions must show it. */
  fence(botId: string): Fence | undefined {
    const epoch = this.epochs.get(botId);
    return epoch !== undefined ? { worker: this.cluster.id, epoch } : undefined;
  }

  /** The lease is no longer counted as this process's. */
  forget(botId: string): void {
    this.epochs.delete(botId);
  }

  /**
   * Whether this process may trade the bot now: when it holds the lease or takes it here (a bot just
   * started, that no live worker owns and this one wins). Call inside the bot's `serial`.
   */
  async claimOne(botId: string): Promise<boolean> {
    const cluster = this.cluster;
    if (this.epochs.has(botId)) return true;
    if (cluster.fenced()) return false;
    const [free] = await wanted(this.db, cluster.ttlMs, 1, botId);
    if (free) {
      const workers = await liveWorkers(this.db, cluster.ttlMs);
      if (winner(workers, free.userId) !== cluster.id) return false;
      const [won] = await claim(this.db, cluster.id, [free], cluster.ttlMs);
      if (won) {
        this.epochs.set(botId, won.epoch);
        return true;
      }
    }
    // Not free, or our claim lost: maybe to this process's own ownership round, which took the bot
    // between our read and our claim and has not counted it yet. Ours all the same (it was a flaky
    // refusal of a bot this process held: paper-fence.test.ts).
    const epoch = this.epochs.get(botId) ?? (await leaseOf(this.db, cluster.id, botId));
    if (epoch === undefined) return false;
    this.epochs.set(botId, epoch);
    return true;
  }

  /** Takes a bot no live process holds, whatever its status (a command is the trader's own). Call inside the bot's `serial`. */
  async takeFree(botId: string, lease: LeaseNow): Promise<boolean> {
    const cluster = this.cluster;
    if (cluster.fenced()) return false;
    const [won] = await claim(this.db, cluster.id, [{ botId, userId: lease.userId, epoch: lease.epoch }], cluster.ttlMs);
    if (!won) return false;
    this.epochs.set(botId, won.epoch);
    return true;
  }

  /** Asks for a round now (a bot was started that no live worker owns); one running goes again once done. */
  wake(): void {
    void this.round();
  }

  /**
   * One ownership round (every second): claims the free bots it wins, re-reads the leases it holds,
   * forgets the ones it lost, loads and reconciles the ones it gained, reloads a bot whose status was
   * changed through another process, runs the manual commands waiting for its bots, and hands over a
   * few bots that a worker which joined now wins.
   */
  async round(): Promise<void> {
    const cluster = this.cluster;
    if (cluster.fenced()) return;
    if (this.owning) {
      this.again = true;
      return;
    }
    this.owning = true;
    this.again = false;
    const bots = this.bots;
    try {
      const db = this.db;
      const me = cluster.id;
      const workers = await liveWorkers(db, cluster.ttlMs);
      const now = performance.now();
      const free = await wanted(db, cluster.ttlMs);
      const seen = new Set(free.map((b) => b.botId));
      for (const id of this.orphans.keys()) if (!seen.has(id)) this.orphans.delete(id);
      const mine = free.filter((b) => {
        const first = this.orphans.get(b.botId) ?? now;
        this.orphans.set(b.botId, first);
        return winner(workers, b.userId) === me || now - first > 3 * cluster.ttlMs;
      });
      // Halted or without a heartbeat since the round began: it takes nothing (its row may be gone too).
      if (cluster.fenced()) return;
      await claim(db, me, mine.slice(0, CLAIMS_PER_ROUND), cluster.ttlMs);
      const leases = await owned(db, me);
      const held = new Map(leases.map((l) => [l.botId, l]));
      let lost = 0;
      for (const id of [...this.epochs.keys()]) {
        if (held.get(id)?.epoch === this.epochs.get(id)) continue;
        // Lost (taken by another worker after a missed heartbeat, or freed): forgotten; its queued decisions are void.
        bots.forget(id);
        lost++;
      }
      const gained = leases.filter((l) => !this.epochs.has(l.botId)).length;
      for (const lease of leases) {
        const live = bots.loaded(lease.botId);
        if (!this.epochs.has(lease.botId)) {
          // Gained: recovered like at a start, from the database and the exchange's answer by client order id.
          this.epochs.set(lease.botId, lease.epoch);
          void bots.serial(lease.botId, () => bots.resume(lease.botId)).catch((error: unknown) => this.log()?.error({ err: error, bot: lease.botId }, 'bot could not be resumed'));
        } else if (live && (lease.deleted || live.status !== lease.status)) {
          // Started, paused or stopped through another process: taken into account within a round.
          void bots.serial(lease.botId, () => bots.refresh(lease.botId)).catch(() => undefined);
        }
      }
      if (workers.includes(me)) {
        // Nothing awaited since the gains above: a bot gained in this round is still queued, never handed on at once.
        const moving: string[] = [];
        for (const lease of leases) {
          const live = bots.loaded(lease.botId);
          if (!live || live.pending || bots.busy(lease.botId)) continue;
          if ((winner(workers, live.userId) ?? me) !== me) moving.push(lease.botId);
          if (moving.length >= RELEASES_PER_ROUND) break;
        }
        for (const id of moving) bots.forget(id);
        await release(db, me, moving);
        lost += moving.length;
      }
      if (gained) this.observe?.leases('gained', gained);
      if (lost) this.observe?.leases('lost', lost);
      this.lastRoundAt = performance.now();
      // Manual commands whose notification was lost, or sent before this process gained the bot (one a
      // bot just handed on is no longer ours: its next owner runs it).
      for (const id of await botsWithCommands(db, me)) bots.commandArrived(id);
    } catch (error) {
      this.log()?.error({ err: error }, 'claim round failed');
    } finally {
      this.owning = false;
      // A bot started on another process while this round ran (read before its commit): claimed now,
      // not a period later (a start's 5 s in a test with minute-long periods; up to 1 s in a server).
      if (this.again && this.timer) void this.round();
    }
  }
}
