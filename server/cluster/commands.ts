import { randomUUID } from 'node:crypto';
import type Decimal from 'decimal.js';
import { sql } from 'kysely';
import type { Db } from '../db/connect.ts';
import { botLeaseNow } from '../store/bot-leases.ts';
import { money } from '../../strategy/money.ts';
import type { Fence } from './leases.ts';
import { COMMAND_CHANNEL, COMMAND_DONE_CHANNEL, notify } from './notify.ts';

/**
 * Manual commands reach the owning process: a manual add or close needs the engine's
 * in-memory state of the bot, which only the process holding the bot's lease has. A process that
 * receives one for a bot another live process owns writes a `bot_commands` row and
 * `pg_notify('qb_command', bot id)` in one transaction, then waits for the row's result (a
 * `qb_command_done` notification, or a poll of the row). The owner takes the row (one statement, `FOR
 * UPDATE SKIP LOCKED`, only while it holds the lease and the deadline has not passed), runs it in the
 * bot's queue like its own command, writes the result and notifies. A row nobody took by its deadline
 * is marked expired by its sender and can never be taken afterwards: a trader's close does not fire a
 * minute later by surprise.
 */

/** A manual add or close, or an outside signal (its stored id in `options.signal`). */
export type CommandKind = 'add' | 'close' | 'signal';

/** A manual add's quote to spend, or a manual close's part (unset: the next order, everything). */
export interface CommandOptions {
  quote?: Decimal | undefined;
  part?: { amount: Decimal; share: string } | undefined;
  /** A signal command's stored signal (bot_signals.id). */
  signal?: string | undefined;
}

/** What a command came to: as the owner's engine answers it (runner.ts CommandResult), or 'error' (it threw) or 'expired' (not taken in time). */
export type CommandOutcome = 'placed' | 'busy' | 'nothing' | 'error' | 'expired';

/** A command's result, and whether the bot holds a position after it (what a refusal is worded by). */
export interface CommandReport {
  result: CommandOutcome;
  holding: boolean;
}

/** A command as its owner takes it. */
export interface TakenCommand {
  id: string;
  kind: CommandKind;
  options: CommandOptions;
}

/** The stored options: exact decimal strings. */
interface StoredOptions {
  quote?: string;
  part?: { amount: string; share: string };
  signal?: string;
}

function encodeOptions(options: CommandOptions): StoredOptions {
  return {
    ...(options.quote ? { quote: options.quote.toFixed() } : {}),
    ...(options.part ? { part: { amount: options.part.amount.toFixed(), share: options.part.share } } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  };
}

function decodeOptions(stored: unknown): CommandOptions {
  const s = (typeof stored === 'string' ? JSON.parse(stored) : stored) as StoredOptions | null;
  return {
    ...(s?.quote !== undefined ? { quote: money(s.quote) } : {}),
    ...(s?.part ? { part: { amount: money(s.part.amount), share: s.part.share } } : {}),
    ...(s?.signal ? { signal: s.signal } : {}),
  };
}

const ms = (n: number) => sql.raw(`interval '${Math.max(1, Math.floor(n))} milliseconds'`);

/** Writes a command for the bot's owner and tells it, in one transaction; answers the command's id. */
export async function submitCommand(db: Db, botId: string, kind: CommandKind, options: CommandOptions, deadlineMs: number): Promise<string> {
  const id = randomUUID();
  await db.transaction().execute(async (tx) => {
    await sql`insert into bot_commands (id, bot_id, kind, options, deadline)
      values (${id}, ${botId}, ${kind}, ${JSON.stringify(encodeOptions(options))}, now() + ${ms(deadlineMs)})`.execute(tx);
    await notify(tx, COMMAND_CHANNEL, String(botId));
  });
  return id;
}

/**
 * The owner takes the bot's oldest waiting command: only under the lease `fence` (a process that lost
 * the bot takes nothing), only before its deadline, and only one process ever (the row is locked and
 * marked in one statement; a row another statement holds is skipped).
 */
export async function takeCommand(db: Db, botId: string, fence: Fence): Promise<TakenCommand | undefined> {
  const { rows } = await sql<{ id: string; kind: CommandKind; options: unknown }>`
    update bot_commands c set taken_by = ${fence.worker}, taken_at = now()
    where c.id = (
      select w.id from bot_commands w join bot_leases l on l.bot_id = w.bot_id
      where w.bot_id = ${botId} and w.taken_at is null and w.done_at is null and w.deadline > now()
        and l.worker_id = ${fence.worker} and l.epoch = ${fence.epoch}
      order by w.created_at limit 1
      for update of w skip locked)
    returning c.id, c.kind, c.options`.execute(db);
  const row = rows[0];
  return row ? { id: String(row.id), kind: row.kind, options: decodeOptions(row.options) } : undefined;
}

/** The owner records a command's result and tells its sender, in one transaction. */
export async function finishCommand(db: Db, id: string, report: CommandReport): Promise<void> {
  await db.transaction().execute(async (tx) => {
    await sql`update bot_commands set result = ${report.result}, holding = ${report.holding}, done_at = now() where id = ${id} and done_at is null`.execute(tx);
    await notify(tx, COMMAND_DONE_CHANNEL, id);
  });
}

/** The sender gives up on a command nobody took: true if it is now expired (never to be taken). */
export async function expireCommand(db: Db, id: string): Promise<boolean> {
  const { rows } = await sql<{ id: string }>`
    update bot_commands set result = 'expired', done_at = now() where id = ${id} and taken_at is null and done_at is null returning id`.execute(db);
  return rows.length > 0;
}

/** A command's state as its sender reads it. */
async function readCommand(db: Db, id: string): Promise<{ taken: boolean; report?: CommandReport }> {
  const { rows } = await sql<{ taken_at: Date | null; result: CommandOutcome | null; holding: boolean | null; done_at: Date | null }>`
    select taken_at, result, holding, done_at from bot_commands where id = ${id}`.execute(db);
  const row = rows[0];
  if (!row) return { taken: false, report: { result: 'expired', holding: false } }; // pruned: it will never run
  if (row.done_at !== null && row.result !== null) return { taken: true, report: { result: row.result, holding: row.holding ?? false } };
  return { taken: row.taken_at !== null };
}

/** The bots of `worker` with a command waiting (the ownership round's fallback for a lost notification). */
export async function botsWithCommands(db: Db, worker: string): Promise<string[]> {
  const { rows } = await sql<{ bot_id: string }>`
    select distinct c.bot_id from bot_commands c join bot_leases l on l.bot_id = c.bot_id
    where c.done_at is null and c.taken_at is null and c.deadline > now() and l.worker_id = ${worker}`.execute(db);
  return rows.map((r) => String(r.bot_id));
}

/** Deletes commands older than `olderThanMs` (default a day), done or not: none of them can run any more. */
export async function pruneCommands(db: Db, olderThanMs = 86_400_000): Promise<number> {
  const { rows } = await sql<{ id: string }>`delete from bot_commands where created_at < now() - ${ms(olderThanMs)} returning id`.execute(db);
  return rows.length;
}

/** One sender's watch on its command: a result announced since the last look is never missed. */
export class CommandWatch {
  private announced = false;
  private wake: (() => void) | undefined;

  /** The command's result was announced. */
  signal(): void {
    this.announced = true;
    this.wake?.();
  }

  /** Resolves at once if a result was announced since the last call, else at the next announcement or after `ms`. */
  async next(ms: number): Promise<void> {
    if (!this.announced) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => this.wake?.(), Math.max(1, ms));
        this.wake = () => {
          clearTimeout(timer);
          this.wake = undefined;
          resolve();
        };
      });
    }
    this.announced = false;
  }
}

/** Wakes the senders waiting for their commands' results (the `qb_command_done` notifications). */
export class CommandReplies {
  private readonly watches = new Map<string, CommandWatch>();

  /** Starts watching a command (before its row is first read, so no announcement falls between). */
  watch(id: string): CommandWatch {
    const watch = new CommandWatch();
    this.watches.set(id, watch);
    return watch;
  }

  /** Stops watching a command. */
  unwatch(id: string): void {
    this.watches.delete(id);
  }

  /** A command's result was written (on any process). */
  arrived(id: string): void {
    this.watches.get(id)?.signal();
  }
}

export interface AwaitOptions {
  /** How long the command may wait to be taken before its sender expires it. */
  deadlineMs: number;
  /** How much longer a taken command's result is waited for (its order may be on its way to the exchange). */
  settleMs: number;
  /** How often the row is read when no notification comes. */
  pollMs: number;
  /**
   * Called while the command waits untaken: this process may have become the bot's owner meanwhile
   * (its own queue for the bot is the one waiting here), and then runs the waiting commands itself.
   */
  runHere?: () => Promise<void>;
}

/**
 * The sender's wait for a command's result. Untaken at its deadline: expired (never run). Taken but not
 * done within `settleMs` more (its owner stuck or gone mid-send): answered busy, with a position held,
 * since the outcome is not known yet.
 */
export async function awaitCommand(db: Db, replies: CommandReplies, id: string, options: AwaitOptions): Promise<CommandReport> {
  const began = performance.now();
  const watch = replies.watch(id);
  try {
    for (;;) {
      const { taken, report } = await readCommand(db, id);
      if (report) return report;
      const elapsed = performance.now() - began;
      if (!taken) {
        if (options.runHere) {
          await options.runHere();
          const again = await readCommand(db, id);
          if (again.report) return again.report;
        }
        if (elapsed >= options.deadlineMs) {
          if (await expireCommand(db, id)) return { result: 'expired', holding: false };
          continue; // taken (or done) just now: its result is on its way
        }
        await watch.next(Math.min(options.pollMs, options.deadlineMs - elapsed));
      } else {
        if (elapsed >= options.deadlineMs + options.settleMs) return { result: 'busy', holding: true };
        await watch.next(Math.min(options.pollMs, options.deadlineMs + options.settleMs - elapsed));
      }
    }
  } finally {
    replies.unwatch(id);
  }
}

/** What hears the command channels: an engine (optional for listeners of the caches only). */
export interface CommandTarget {
  commandArrived?(botId: string): void;
  commandDone?(id: string): void;
}

/** The listener's handlers of the command channels, for an engine (on PostgreSQL). */
export function commandChannels(engine: CommandTarget): Record<string, (payload: string) => void> {
  return {
    [COMMAND_CHANNEL]: (botId) => engine.commandArrived?.(botId),
    [COMMAND_DONE_CHANNEL]: (id) => engine.commandDone?.(id),
  };
}

/** Who holds a bot's lease now: a live worker's id, or null (none, freed, or its holder is dead). */
export interface LeaseNow {
  holder: string | null;
  /** The lease's epoch as read (the compare-and-set value of a claim) and the bot's trader. */
  epoch: string;
  userId: string;
}

/** The bot's lease as a command's sender routes by it; undefined for a bot that is gone. A missing lease row is made (epoch 0). */
export async function leaseNow(db: Db, botId: string, ttlMs: number): Promise<LeaseNow | undefined> {
  const row = await botLeaseNow(db, { botId, ttlMs });
  if (!row) return undefined;
  if (row.epoch === null) await sql`insert into bot_leases (bot_id) values (${botId}) on conflict do nothing`.execute(db);
  return { holder: row.holder === null ? null : String(row.holder), epoch: row.epoch === null ? '0' : String(row.epoch), userId: String(row.user_id) };
}
