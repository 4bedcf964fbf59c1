import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { MessageChannel } from 'node:worker_threads';
import Piscina from 'piscina';
import { AppError, fail } from '../errors.ts';
import type { HeavyJob } from './heavy-jobs.ts';

/**
 * The server's heavy work (backtests, AI searches, the simulated history of custom bots' warm-ups) runs
 * in one shared pool of worker threads (piscina), never on the event loop, which must stay free for the
 * engine's rounds, the leases' heartbeat and every trader's requests: a backtest of a few seconds on the
 * main thread once held up every bot's stop loss for as long.
 *
 * Fair shares: each trader's tasks wait in a line of their own, and a free thread takes the next task
 * of the trader whose turn it is (round robin over the traders waiting), so one trader's many tasks
 * delay another trader's by one task at most per thread. Each kind of task has a deadline: a task still
 * running then is stopped (its thread ended and replaced) and refused. A trader's line holds a few
 * backtests (`perTrader`): more are refused at once rather than waiting without end.
 */
export interface HeavyPoolOptions {
  /**
   * Worker threads (HEAVY_THREADS; default: the cores but one, at least one). One core is left to the
   * event loop, the database and the network: on 2 cores, a second busy thread took another trader's
   * p99 under the heavy-work attack from 50 ms to 106-123 ms, low priority (below) or not.
   */
  threads: number;
  /** The most backtests a trader may have waiting or running (BACKTEST_QUEUE; default 3). */
  perTrader: number;
  /** Each kind's deadline (ms). */
  deadlineMs: Record<HeavyJob['kind'], number>;
}

export const defaultHeavyOptions = (): HeavyPoolOptions => ({
  threads: Math.max(1, availableParallelism() - 1),
  perTrader: 3,
  deadlineMs: { backtest: 60_000, search: 180_000, warmUp: 60_000 },
});

/** How far a task is (a search's candidates done of all). */
export type Progress = (done: number, total: number) => void;

interface Task {
  owner: string;
  job: HeavyJob;
  progress: Progress | undefined;
  transfer: ArrayBufferLike[];
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

export class HeavyPool {
  private readonly piscina: Piscina;
  private readonly options: HeavyPoolOptions;
  /** Each trader's tasks not yet handed to a thread, oldest first; the map's order is the round robin's. */
  private readonly lines = new Map<string, Task[]>();
  /** Backtests waiting or running, by trader. */
  private readonly counts = new Map<string, number>();
  private running = 0;

  constructor(options: HeavyPoolOptions = defaultHeavyOptions()) {
    this.options = options;
    this.piscina = new Piscina({
      filename: fileURLToPath(new URL('./heavy-worker.ts', import.meta.url)),
      minThreads: 0,
      maxThreads: options.threads,
      idleTimeout: 30_000,
      // The threads run at a lower priority than the event loop's (Linux nice +10, through @napi-rs/nice
      // when it is installed): when the cores are busy, the engine's rounds and the requests go first.
      niceIncrement: 10,
    });
  }

  /** How many tasks run at once. */
  get threads(): number {
    return this.options.threads;
  }

  /** Tasks handed to threads now, and tasks waiting for one (for /metrics and the benchmark). */
  get load(): { running: number; waiting: number } {
    let waiting = 0;
    for (const line of this.lines.values()) waiting += line.length;
    return { running: this.running, waiting };
  }

  /**
   * Runs `job` for `owner` in its turn. Refused with BacktestQueueFull when the trader already has
   * `perTrader` tasks of this kind, BacktestTimedOut past the kind's deadline. Columns in `transfer`
   * are moved to the thread (the caller must not read them after).
   */
  run<T>(owner: string, job: HeavyJob, options: { progress?: Progress | undefined; transfer?: ArrayBufferLike[] } = {}): Promise<T> {
    // Backtests are counted: a trader asks for them at will. Searches wait in the AI line first (one per
    // trader), and warm-ups come with bot starts, bounded by the bot count and the indicator budget.
    const key = job.kind === 'backtest' ? owner : undefined;
    const count = key === undefined ? 0 : (this.counts.get(key) ?? 0);
    if (key !== undefined && count >= this.options.perTrader) return Promise.reject(fail('BacktestQueueFull', { values: { max: this.options.perTrader } }));
    if (key !== undefined) this.counts.set(key, count + 1);
    const done = () => {
      if (key === undefined) return;
      const left = (this.counts.get(key) ?? 1) - 1;
      if (left > 0) this.counts.set(key, left);
      else this.counts.delete(key);
    };
    return new Promise<T>((resolve, reject) => {
      const task: Task = { owner, job, progress: options.progress, transfer: options.transfer ?? [], resolve: resolve as (v: unknown) => void, reject };
      const line = this.lines.get(owner);
      if (line) line.push(task);
      else this.lines.set(owner, [task]);
      this.dispatch();
    }).finally(done);
  }

  /** Hands waiting tasks to free threads, one trader at a time in turn. */
  private dispatch(): void {
    while (this.running < this.options.threads && this.lines.size > 0) {
      const [owner, line] = this.lines.entries().next().value as [string, Task[]];
      const task = line.shift()!;
      // The trader goes to the back of the round robin: their next task waits for every other trader's.
      this.lines.delete(owner);
      if (line.length > 0) this.lines.set(owner, line);
      this.start(task);
    }
  }

  private start(task: Task): void {
    this.running++;
    const deadline = this.options.deadlineMs[task.job.kind];
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), deadline);
    let port: MessageChannel | undefined;
    if (task.progress) {
      port = new MessageChannel();
      const progress = task.progress;
      port.port1.on('message', (m: { done: number; total: number }) => progress(m.done, m.total));
      port.port1.unref();
    }
    const message = port ? { job: task.job, progress: port.port2 } : { job: task.job };
    this.piscina
      .run(message, { signal: abort.signal, transferList: [...(port ? [port.port2] : []), ...task.transfer] as never })
      .then(task.resolve, (error: unknown) => {
        if (abort.signal.aborted) task.reject(fail('BacktestTimedOut', { values: { seconds: Math.max(1, Math.ceil(deadline / 1000)) } }));
        else task.reject(error instanceof AppError ? error : new Error(`heavy task failed: ${String((error as Error)?.message ?? error)}`));
      })
      .finally(() => {
        clearTimeout(timer);
        port?.port1.close();
        this.running--;
        this.dispatch();
      });
  }

  /** Ends every thread (shutdown, tests); waiting tasks are refused. */
  async close(): Promise<void> {
    for (const line of this.lines.values()) for (const task of line) task.reject(fail('ServiceUnavailable'));
    this.lines.clear();
    await this.piscina.destroy();
  }
}

let shared: HeavyPool | undefined;
let sharedOptions: HeavyPoolOptions | undefined;

/** Sets the shared pool's size and limits (the server's start-up, from its configuration); takes effect for the next pool made. */
export function configureHeavyPool(options: HeavyPoolOptions): void {
  sharedOptions = options;
}

/** The process's one pool, made on first use. */
export function heavyPool(): HeavyPool {
  shared ??= new HeavyPool(sharedOptions ?? defaultHeavyOptions());
  return shared;
}

/** Ends the shared pool's threads (tests, shutdown); the next use makes a new one. */
export async function stopHeavyPool(): Promise<void> {
  const pool = shared;
  shared = undefined;
  await pool?.close();
}
