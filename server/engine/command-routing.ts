import type { Db } from '../db/connect.ts';
import { awaitCommand, CommandReplies, type CommandKind, type CommandOptions, type CommandReport, finishCommand, leaseNow, submitCommand, takeCommand } from '../cluster/commands.ts';
import type { Ownership } from './ownership.ts';
import type { CommandResult, EngineLog } from './engine-types.ts';

/** What routing a command asks of the engine that may carry it out. */
export interface CommandTarget {
  serial<T>(botId: string, work: () => Promise<T>): Promise<T>;
  /** Carries the command out on this process (the bot's owner). Call inside `serial`. */
  command(botId: string, kind: CommandKind, options: CommandOptions): Promise<CommandResult>;
  /** Whether the bot holds a position after it. */
  holding(botId: string): boolean;
}

/**
 * A trader's manual add or close (and a signal) goes to the process that trades the bot: carried out here
 * when this process holds the bot's lease or takes it because nobody holds it (a paused bot is owned by
 * no one after a restart), else written for the live owner (cluster/commands.ts), whose answer is waited
 * for. The owner runs the commands waiting for its bots one by one, each under its lease and before its
 * deadline, and records each result for its sender.
 */
export class CommandRouting {
  /** The senders here waiting for their commands' results on other processes. */
  private readonly replies = new CommandReplies();
  /** The bots whose waiting commands are queued to run here (one run each at a time). */
  private readonly runs = new Set<string>();
  private readonly db: Db;
  private readonly target: CommandTarget;
  private readonly ownership: Ownership | undefined;
  private readonly options: { deadlineMs?: number | undefined; settleMs?: number | undefined };
  private readonly log: () => EngineLog | undefined;

  constructor(db: Db, target: CommandTarget, ownership: Ownership | undefined, options: { deadlineMs?: number | undefined; settleMs?: number | undefined }, log: () => EngineLog | undefined) {
    this.db = db;
    this.target = target;
    this.ownership = ownership;
    this.options = options;
    this.log = log;
  }

  /** The command, wherever the bot is traded; answers its result and whether the bot holds a position after it. Call inside `serial`. */
  async manual(botId: string, kind: CommandKind, options: CommandOptions = {}): Promise<CommandReport> {
    const ownership = this.ownership;
    if (!ownership || ownership.holds(botId)) return this.here(botId, kind, options);
    const ttlMs = ownership.cluster.ttlMs;
    let lease = await leaseNow(this.db, botId, ttlMs);
    if (lease?.holder === null) {
      if (await ownership.takeFree(botId, lease)) return this.here(botId, kind, options);
      // Taken by another process at the same moment (or this one is fenced): read again.
      lease = await leaseNow(this.db, botId, ttlMs);
    }
    if (!lease) return { result: 'nothing', holding: false };
    if (lease.holder === null) return { result: 'busy', holding: false };
    const deadlineMs = this.options.deadlineMs ?? 5000;
    const id = await submitCommand(this.db, botId, kind, options, deadlineMs);
    return awaitCommand(this.db, this.replies, id, {
      deadlineMs,
      settleMs: this.options.settleMs ?? 20_000,
      pollMs: Math.min(250, Math.max(20, deadlineMs / 10)),
      // The bot came to this process meanwhile (its queue for the bot is the one waiting here).
      runHere: () => (ownership.holds(botId) ? this.run(botId) : Promise.resolve()),
    });
  }

  /** A command for a bot was written (a NOTIFY): its owner runs the waiting commands in the bot's queue. */
  arrived(botId: string): void {
    if (!this.ownership?.holds(botId) || this.runs.has(botId)) return;
    this.runs.add(botId);
    void this.target
      .serial(botId, async () => {
        this.runs.delete(botId);
        await this.run(botId);
      })
      .catch((error: unknown) => this.log()?.error({ err: error, bot: botId }, 'commands failed'));
  }

  /** A command's result was written (a NOTIFY): its sender, if it waits here, reads it. */
  done(id: string): void {
    this.replies.arrived(id);
  }

  /** The owner's command, answered as `manual` answers. */
  private async here(botId: string, kind: CommandKind, options: CommandOptions): Promise<CommandReport> {
    const result = await this.target.command(botId, kind, options);
    return { result, holding: this.target.holding(botId) };
  }

  /** Takes and runs the bot's waiting commands one by one (commands.ts takeCommand). Call inside `serial`. */
  private async run(botId: string): Promise<void> {
    for (;;) {
      const fence = this.ownership?.fence(botId);
      if (!fence || this.ownership?.cluster.fenced()) return;
      const taken = await takeCommand(this.db, botId, fence);
      if (!taken) return;
      let report: CommandReport;
      try {
        report = await this.here(botId, taken.kind, taken.options);
      } catch (error) {
        this.log()?.error({ err: error, bot: botId }, 'manual command failed');
        report = { result: 'error', holding: this.target.holding(botId) };
      }
      await finishCommand(this.db, taken.id, report);
    }
  }
}
