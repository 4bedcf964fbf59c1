import type Decimal from 'decimal.js';
import type { Db } from '../db/connect.ts';
import { exchangeById } from '../exchanges/catalog.ts';
import type { ExchangePort, OrderState } from '../exchanges/port.ts';
import { BotBook } from './bot-book.ts';
import { money } from '../../strategy/money.ts';
import { holdsBy, kitOf, type KitState, type StrategyKit } from '../../strategy/kit.ts';
import { sql } from 'kysely';
import { BotNotRunning, commitDecision, type OrderUpdate, SignalSettled } from './persist.ts';
import { type Fence, holds, LeaseLost } from '../cluster/leases.ts';
import type { Worker } from '../cluster/workers.ts';
import type { CommandKind, CommandOptions, CommandReport } from '../cluster/commands.ts';
import { Ownership } from './ownership.ts';
import type { CommandResult, EngineLog, EngineObserver } from './engine-types.ts';

export type { CommandResult, EngineLog, EngineObserver } from './engine-types.ts';
import { CommandRouting } from './command-routing.ts';
import type { BotId, ClientOrderId, EngineEvent, Intent, PlaceOrder } from '../../strategy/types.ts';
import { findBot } from '../store/bot-rows.ts';
import { botsToResume } from '../store/bot-lists.ts';
import { findOrder } from '../store/bot-orders.ts';
import { countMiss, markSubmitted } from '../store/order-steps.ts';
import { LOST_AFTER_MISSES, lookUpLost, markLost, markUnreached, pauseUnbooked, targetedLookup, WINDOW_MARGIN_MS } from './lost-orders.ts';
import { accountKey, accountsDown, callAnswered, callFailed, opens, outageOver } from './account-health.ts';
import { BALANCE_SHORT, type BookedBot, cancelOrphans, findShortfalls, isShort, NO_PRICE, pauseShort, RECONCILE_EVERY_MS } from './reconciliation.ts';
import { markSynced } from '../store/bot-decisions.ts';
import { LOOKUPS_PER_ACCOUNT, takeLookups } from './lookup-budget.ts';
import { pairBack, pairStale } from './pair-health.ts';
import { crashPoint } from './crash-points.ts';
import { booksMark, RestingOrders, SWEEP_BOTS } from './resting.ts';
import { liveResting, type RestingRecord } from '../store/resting-orders.ts';

/** Where the engine reads a symbol's price now: one feed per exchange and symbol, shared by every bot. */
export interface PriceSource {
  /**
   * `round.resting`: a bot of this process keeps orders resting on the pair, which a simulated venue then
   * matches at this price (server/trading.ts roundPrices); a round of a pair without any skips that.
   */
  price(exchange: string, symbol: string, round?: { resting: boolean }): Promise<string>;
}

/** The bot as the engine loads it (bots row). */
export interface BotRecord {
  id: string;
  userId: string;
  exchangeId: number;
  exchange: string;
  symbol: string;
  status: 'running' | 'paused' | 'stopped';
  /** The strategy (bots.type: martin, grid) and its parameters and stored state, as its kit reads them. */
  type: string;
  params: unknown;
  state: unknown;
}

export interface EngineDeps {
  db: Db;
  observe?: EngineObserver;
  prices: PriceSource;
  /** The exchange account a bot trades on (Paper venue or a live adapter with the user's keys). */
  venue(bot: BotRecord): Promise<ExchangePort>;
  /** Told after every committed decision of a user's bot (caches of their bots drop it). */
  changed?(userId: string): void;
  /** The market's clock (ms): the time put on each price, for strategies that act on time (a DCA bot's schedule and cooldown); default Date.now. */
  now?: () => number;
  /**
   * Rebuilds what a loaded running bot keeps in memory only, from the market's history, before it
   * trades (a custom bot's candles and indicators: strategy/custom/README.md "Registering"); mutates
   * the decoded state. A failure is logged and the bot runs without it.
   */
  warmUp?(bot: BotRecord, state: KitState, view: unknown): Promise<void>;
  /** How often every symbol's price is read and the bots on it evaluated (default 1 s). */
  tickMs?: number;
  /** How long a pair may go without a fresh price before its bots open nothing (default 30 s; STALE_PRICE_MS). */
  stalePriceMs?: number;
  /** Time between two reconciliation rounds of the accounts (default RECONCILE_EVERY_MS, 30 s). */
  reconcileEveryMs?: number;
  log?: EngineLog;
  /** Share of a profitable cycle's profit paid in fuel (default 0.2). */
  fuelFeeRate?: string;
  /** Shares of a fee earned by each level of referrers (default 0.1, 0.05). */
  referralRates?: readonly string[];
  /**
   * This process as a worker of the cluster: the engine then trades only the bots whose
   * lease it holds, claims the free ones every `claimMs` (default 1 s) and checks its lease in every
   * decision. Without it the engine owns every bot, as a lone process (most tests).
   */
  cluster?: Worker;
  claimMs?: number;
  /**
   * A manual command for a bot another process owns: how long it may wait for that owner
   * to take it (default 5 s; then it expires, never to run), and how much longer a taken one's result is
   * waited for (default 20 s: its order may be on its way to a slow exchange).
   */
  commandDeadlineMs?: number;
  commandSettleMs?: number;
  /** How late a round (or ownership round) may be before stalled() says so (default 10 periods, at least 10 s). */
  stallMs?: number;
  /** The bot types whose orders rest on their venues as limit orders (RESTING_ORDERS; default none): resting.ts. */
  restingTypes?: readonly string[];
}

interface LiveBot {
  record: BotRecord;
  key: string;
  kit: StrategyKit;
  view: unknown;
  port: ExchangePort;
  state: KitState;
}

/**
 * The engine of the running bots. One event at a time per bot: the strategy decides,
 * the decision (state, new orders, order outcome, action log, closed cycle) is committed in one
 * transaction, and only then are new orders sent; an exchange's answer comes back as the next event.
 * Start-up and crash recovery are one path: load the bots, look every order in flight up on the
 * exchange by its client order id, and carry on from what the exchange says (an order never reached
 * it is sent again under the same id; one it filled is recorded, never sent twice).
 * Which bots it trades in a cluster is ownership.ts's; a manual command goes to the bot's owner through
 * command-routing.ts.
 */
export class Engine {
  private readonly deps: EngineDeps;
  private readonly book = new BotBook();
  private readonly bots = new Map<string, LiveBot>();
  private readonly queues = new Map<string, Promise<unknown>>();
  /** A reconciliation round is under way (one at a time). */
  private reconciling = false;
  /** The exchange accounts out of reach (account-health.ts), by userId:exchangeId: read from the database each round. */
  private down = new Map<string, number>();
  /** When `down` was last read from the database (ms), and when the last reconciliation round began. */
  private downReadAt = 0;
  private reconciledAt: number | undefined;
  /** When each pair (`exchange:symbol`) last had a fresh price (ms), or first failed to, in this process. */
  private readonly priced = new Map<string, number>();
  /**
   * The pairs without a fresh price for stalePriceMs, with when their price came back (null: not yet).
   * Their bots open nothing until a reconciliation round that began after the price came back has passed
   * (outage mode for stale data: what this process reads; every process decides on its own).
   */
  private readonly stale = new Map<string, number | null>();
  /** Accounts whose last order call here failed: an answer resets their count in the database. */
  private readonly failing = new Set<string>();
  private readonly inFlight = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  /** The bots this process holds in a cluster; none: a lone process owns every bot. */
  private readonly ownership: Ownership | undefined;
  private readonly commands: CommandRouting;
  /** The bots' resting limit orders (resting.ts). */
  private readonly resting: RestingOrders;
  private ticking = false;
  /** When the last round finished: /api/ready's liveness. */
  private lastRoundAt: number | undefined;
  /** When the last round started (performance.now()). */
  private lastBeganAt: number | undefined;
  private startedAt: number | undefined;
  private tickCount = 0;

  /** Where failures are reported (the server's logger once it exists). */
  log: EngineLog | undefined;

  constructor(deps: EngineDeps) {
    this.deps = deps;
    this.log = deps.log;
    const log = () => this.log;
    this.ownership = deps.cluster
      ? new Ownership(
          deps.db,
          deps.cluster,
          {
            serial: (id, work) => this.serial(id, work),
            resume: async (id) => {
              const loaded = await this.load(id);
              if (loaded) await this.reconcile(loaded);
              if (loaded) await this.settleResting(loaded);
            },
            refresh: (id) => this.refresh(id),
            forget: (id) => this.drop(id),
            loaded: (id) => {
              const live = this.bots.get(id);
              return live && { userId: live.record.userId, status: live.record.status, pending: live.state.pending !== null };
            },
            busy: (id) => this.queues.has(id),
            commandArrived: (id) => this.commandArrived(id),
          },
          deps.observe,
          log,
        )
      : undefined;
    this.resting = new RestingOrders({
      db: deps.db,
      log,
      sender: (id) => this.fence(id),
      clustered: this.ownership !== undefined,
      mayAct: (id) => !(this.deps.cluster?.fenced() ?? false) && (!this.ownership || this.ownership.holds(id)),
      filled: (bot, order, answer) => this.restingFilled(bot as LiveBot, order, answer),
      types: deps.restingTypes ?? [],
    });
    this.commands = new CommandRouting(
      deps.db,
      { serial: (id, work) => this.serial(id, work), command: (id, kind, options) => this.command(id, kind, options), holding: (id) => this.holding(id) },
      this.ownership,
      { deadlineMs: deps.commandDeadlineMs, settleMs: deps.commandSettleMs },
      log,
    );
  }

  /** Loads the running bots (and any with an order in flight), reconciles them, and starts ticking. */
  async start(): Promise<void> {
    if (this.ownership) {
      // A worker of the cluster: registers, takes the bots it wins (all of them when alone), and keeps
      // claiming; its recovery is the same load + reconcile, for the bots it holds only.
      await this.ownership.start(this.deps.claimMs ?? 1000);
      await this.idle();
      this.timer = setInterval(() => void this.tick(), this.deps.tickMs ?? 1000);
      this.timer.unref?.();
      this.startedAt = performance.now();
      return;
    }
    const rows = await botsToResume(this.deps.db);
    for (const { id } of rows) {
      await this.serial(String(id), async () => {
        const live = await this.load(String(id));
        if (live) await this.reconcile(live);
        if (live) await this.settleResting(live);
      }).catch((error: unknown) => this.log?.error({ err: error, bot: String(id) }, 'bot could not be resumed'));
    }
    this.timer = setInterval(() => void this.tick(), this.deps.tickMs ?? 1000);
    this.timer.unref?.();
    this.startedAt = performance.now();
  }

  /**
   * Stops ticking and waits for every bot's work in progress; a worker of the cluster waits for its own
   * bots' work (`waitMs` at most) and then frees them (SIGTERM) so the others claim them at once instead
   * of after the TTL.
   */
  async stop(waitMs = 1000): Promise<void> {
    // The heartbeat goes on (the worker stays unfenced) until the work in progress is done: a decision
    // committed just before the stop sends its order and records the answer. Halting the worker first
    // fenced those sends off and left their orders in flight (`new`) until another process took the
    // bot: with every process stopped, 6 of 12 bots' orders in the chaos test.
    this.stopTimers();
    const cluster = this.deps.cluster;
    // Alone (no cluster, or the embedded PGlite's one worker) nobody takes the bots over: all the work is waited for.
    if (!cluster || cluster.solo) {
      await this.idle();
      await cluster?.leave().catch((error: unknown) => this.log?.error({ err: error }, 'leases not released'));
      return;
    }
    // Only the work of the bots held here, and for `waitMs` at most: a command this process waits on for
    // another owner (up to 25 s) is none of its leases' business, and the bots are handed over within 2 s
    // of a SIGTERM whatever is still running. A send cut off by the release stays in flight (`new`), and
    // the next owner looks it up by its client order id before it sends anything (as after a crash).
    const until = performance.now() + waitMs;
    for (;;) {
      const held = [...this.queues].filter(([id]) => this.ownership?.holds(id)).map(([, queue]) => queue);
      const left = until - performance.now();
      if (held.length === 0 || left <= 0) break;
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([Promise.allSettled(held), new Promise((r) => (timer = setTimeout(r, left)))]);
      clearTimeout(timer);
    }
    await cluster.leave().catch((error: unknown) => this.log?.error({ err: error }, 'leases not released'));
  }

  /**
   * Why this engine is not trading as it should, for GET /api/ready, or undefined: fenced
   * (no heartbeat: it trades nothing), or its round or ownership round late by 10 of their periods (at
   * least 10 s: a stuck price source or database). Not started: nothing to say.
   */
  stalled(): string | undefined {
    const startedAt = this.startedAt;
    if (!this.timer || startedAt === undefined) return undefined;
    if (this.deps.cluster?.fenced()) return 'fenced: no heartbeat, trading nothing';
    const now = performance.now();
    const since = (last: number | undefined) => now - (last ?? startedAt);
    const limit = (periodMs: number) => this.deps.stallMs ?? Math.max(10 * periodMs, 10_000);
    if (since(this.lastRoundAt) > limit(this.deps.tickMs ?? 1000)) return `no round for ${Math.round(since(this.lastRoundAt))} ms`;
    if (this.ownership && since(this.ownership.lastRoundAt) > limit(this.deps.claimMs ?? 1000)) return `no ownership round for ${Math.round(since(this.ownership.lastRoundAt))} ms`;
    return undefined;
  }

  /** Stops every timer and the heartbeat without freeing anything: to the others, this process died. */
  halt(): void {
    this.stopTimers();
    this.deps.cluster?.halt();
  }

  private stopTimers(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.ownership?.stopTimer();
  }

  /** Resolves when every bot's queued work is done (tests step the engine: tick, then idle). */
  async idle(): Promise<void> {
    while (this.queues.size > 0) await Promise.allSettled([...this.queues.values()]);
  }

  /** Runs `work` for one bot after its earlier work: a bot's events are handled one at a time. */
  serial<T>(botId: string, work: () => Promise<T>): Promise<T> {
    const before = this.queues.get(botId) ?? Promise.resolve();
    const observe = this.deps.observe;
    const queuedAt = performance.now();
    const run = observe
      ? () => {
          observe.queued((performance.now() - queuedAt) / 1000);
          return work();
        }
      : work;
    const next = before.then(run, run);
    const settled = next.catch(() => undefined);
    this.queues.set(botId, settled);
    void settled.then(() => {
      if (this.queues.get(botId) === settled) this.queues.delete(botId);
    });
    return next;
  }

  /**
   * A bot's row was changed by a command, maybe on another process (a NOTIFY): the owner reloads it;
   * a bot no live worker owns (just started) is claimed by a round at once.
   */
  wake(botId: string): void {
    if (!this.ownership || this.ownership.holds(botId)) void this.serial(botId, () => this.refresh(botId)).catch(() => undefined);
    else this.ownership.wake();
  }

  /** The bot's status as the engine holds it, if it is loaded. */
  statusOf(botId: string): BotRecord['status'] | undefined {
    return this.bots.get(botId)?.record.status;
  }

  /** The bot's parameters as the engine holds them, if it is loaded (an edit or re-tuning reloaded). */
  paramsOf(botId: string): unknown {
    return this.bots.get(botId)?.record.params;
  }

  /** Whether a loaded bot holds a position now, as its kit reads its state. */
  holding(botId: string): boolean {
    const live = this.bots.get(botId);
    return live ? holdsBy(live.record.type, live.record.params, live.kit.encode(live.state)) : false;
  }

  /** The bot's state as the engine holds it, if it is loaded. */
  stateOf<S extends KitState = KitState>(botId: string): S | undefined {
    return this.bots.get(botId)?.state as S | undefined;
  }

  /**
   * Takes a bot's new row into account (started, paused, stopped, edited, deleted): reloads it and
   * puts it on the book when it runs; a started bot is evaluated at once (its first order without
   * waiting for the next tick). Call inside `serial`.
   */
  async refresh(botId: string): Promise<void> {
    if (this.ownership && !(await this.ownership.claimOne(botId))) return;
    const old = this.bots.get(botId);
    const live = await this.load(botId);
    // Paused, stopped or deleted: its resting orders are cancelled; running (started, edited): in line with its plan.
    if (live && this.resting.enabled(live)) {
      if (live.record.status === 'running') await this.evaluate(live);
      if (this.bots.get(botId) === live) await this.resting.sync(live);
      return;
    }
    if (!live && old && this.resting.enabled(old) && (!this.ownership || this.ownership.holds(botId))) await this.resting.sync(old, { cancelAll: true });
    if (live?.record.status === 'running') await this.evaluate(live);
  }

  /**
   * A manual add (of `quote`, else the next order's) or close (of `part`, else everything), carried out
   * like any event on this process. Call inside `serial`.
   */
  async command(botId: string, kind: CommandKind, options: CommandOptions = {}): Promise<CommandResult> {
    // In a cluster, a bot another live process owns is its to trade: `manual` sends the command there.
    if (this.ownership && !(await this.ownership.claimOne(botId))) return 'busy';
    const live = this.bots.get(botId) ?? (await this.load(botId));
    if (!live) return 'nothing';
    if (live.state.pending) return 'busy';
    let signal: { action: 'buy' | 'sell' | 'close'; alert: string } | undefined;
    if (kind === 'signal') {
      // The stored signal (services/signals.ts), still waiting: one settled already is never acted on again.
      const { rows } = await sql<{ action: 'buy' | 'sell' | 'close'; signal_id: string }>`
        select action, signal_id from bot_signals where id = ${options.signal ?? '0'} and bot_id = ${botId} and status = 'received'`.execute(this.deps.db);
      const row = rows[0];
      if (!row) return 'nothing';
      signal = { action: row.action, alert: row.signal_id };
    }
    const price = money(await this.deps.prices.price(live.record.exchange, live.record.symbol, { resting: this.resting.any(botId) }));
    const event: EngineEvent = signal
      ? { type: 'SignalReceived', price, action: signal.action, signal: options.signal ?? '', alert: signal.alert }
      : kind === 'add'
        ? { type: 'ManualAddRequested', price, quote: options.quote }
        : { type: 'ManualCloseRequested', price, part: options.part };
    let { state, intents } = live.kit.decide(live.state, event, live.view);
    if (intents.length === 0) return 'nothing';
    if (intents.some((i) => i.type === 'PlaceOrder') && this.resting.enabled(live) && this.resting.any(botId)) {
      // A close at market: the resting orders are cancelled first (a resting sell holds the coin it sells),
      // and the command decided again on what the books hold then (a cancel may have become a fill).
      if (!(await this.resting.sync(live, { cancelAll: true })) || live.state.pending) {
        await this.resting.sync(live);
        return 'busy';
      }
      ({ state, intents } = live.kit.decide(live.state, event, live.view));
      if (intents.length === 0) {
        await this.resting.sync(live);
        return 'nothing';
      }
    }
    // Not committed (the lease moved on meanwhile): nothing was placed, the trader tries again.
    return (await this.carryOut(live, event, state, intents)) ? 'placed' : 'busy';
  }

  /**
   * A trader's manual add or close (or a signal), wherever the bot is traded (command-routing.ts):
   * answers the result and whether the bot holds a position after it. Call inside `serial`.
   */
  manual(botId: string, kind: CommandKind, options: CommandOptions = {}): Promise<CommandReport> {
    return this.commands.manual(botId, kind, options);
  }

  /** A command for a bot was written (a NOTIFY): its owner runs the waiting commands in the bot's queue. */
  commandArrived(botId: string): void {
    this.commands.arrived(botId);
  }

  /** A command's result was written (a NOTIFY): its sender, if it waits here, reads it. */
  commandDone(id: string): void {
    this.commands.done(id);
  }

  /** One round: every symbol with running bots is priced once and its bots evaluated. */
  async tick(): Promise<void> {
    // A worker too long without a heartbeat may have lost its bots already: it trades nothing.
    if (this.ticking || this.deps.cluster?.fenced()) return;
    this.ticking = true;
    const began = performance.now();
    if (this.lastBeganAt !== undefined) this.deps.observe?.interval?.((began - this.lastBeganAt) / 1000);
    this.lastBeganAt = began;
    try {
      this.tickCount++;
      // The accounts out of reach, read at most once a second (every round at the engine's 1 s round;
      // none to read for an engine without bots). This process's own findings count at once (send, reconcileAccounts).
      const now = Date.now();
      if (this.bots.size === 0) this.down = new Map();
      else if (now - this.downReadAt >= 1000) {
        this.down = await accountsDown(this.deps.db);
        this.downReadAt = now;
      }
      let oldest = now;
      for (const since of this.down.values()) oldest = Math.min(oldest, since);
      this.deps.observe?.accountsDown?.(this.down.size, (now - oldest) / 1000);
      // Halted or fenced while it read: this round trades nothing.
      if (this.deps.cluster?.fenced()) return;
      const keys = new Map<string, LiveBot>();
      // The pairs on which a bot of this process keeps resting orders (their holder's rounds match them on Paper).
      const restingKeys = new Set<string>();
      for (const live of this.bots.values()) {
        if (live.record.status !== 'running') continue;
        if (!keys.has(live.key)) keys.set(live.key, live);
        if (this.resting.any(live.record.id)) restingKeys.add(live.key);
      }
      await Promise.all(
        [...keys.entries()].map(async ([key, sample]) => {
          let text: string;
          try {
            text = await this.deps.prices.price(sample.record.exchange, sample.record.symbol, { resting: restingKeys.has(key) });
          } catch (error) {
            this.log?.error({ err: error, key }, 'no price');
            await this.noPrice(key);
            return;
          }
          this.priceBack(key);
          const price = money(text);
          const at = this.now();
          for (const decided of this.book.onPrice(key, price, undefined, at)) {
            const { bot } = decided;
            const live = this.bots.get(bot);
            const state = this.book.get(key, bot);
            if (!live || !state) continue;
            // Made on a state the bot has left since it was put on the book (a fill's decision commits
            // meanwhile, its new state not yet put): void. Taken as the bot's state, it would be committed
            // after that fill's and undo it (a closed cycle closed again). The book takes the bot's state now.
            if (decided.base !== live.state) {
              this.place(live);
              continue;
            }
            const before = live.state;
            // A bot whose orders rest, with work of its own under way (a fill being booked, its plan being
            // carried out): left be this round, and asked again by the next on the books that work leaves. A
            // level decided now at market could go out beside the order the plan is resting at that level,
            // whose hold on the coin leaves the market order short ("insufficient balance").
            if (this.queues.has(bot) && this.resting.enabled(live)) {
              this.book.put(live.key, before, live.view, live.kit);
              continue;
            }
            const slot = this.standingSlot(live, state, decided.intents);
            if (slot !== null) {
              // Its order rests at that price: the venue fills it there, and nothing is sent. The bot stays
              // as it was (asked again next round while the price is past the level) and its orders are
              // looked up, once every CHECK_EVERY_MS for the same slot.
              this.book.put(live.key, before, live.view, live.kit);
              void this.serial(bot, async () => {
                // Moved on since this round (a fill booked meanwhile): the next round asks at its own price.
                if (this.bots.get(bot) !== live || live.state !== before || live.record.status !== 'running') return;
                if (!this.resting.checkedLately(bot, undefined, slot, booksMark(live))) await this.resting.check(live, slot);
              }).catch((error: unknown) => this.log?.error({ err: error, bot }, 'resting orders not looked up'));
              continue;
            }
            live.state = state;
            // Decided at a trigger price the round crossed: its order rests there (PlaceOrder.at).
            const intents = decided.atTrigger ? decided.intents.map((i) => (i.type === 'PlaceOrder' ? { ...i, at: decided.price } : i)) : decided.intents;
            void this.serial(bot, async () => {
              // Reloaded (paused, edited) or answered since this round decided, or this worker fenced since
              // (halted, or too long without a heartbeat): its decision is void.
              if (this.bots.get(bot) !== live || live.state !== state || live.record.status !== 'running' || this.deps.cluster?.fenced()) return;
              const event: EngineEvent = { type: 'PriceTicked', price: decided.price, at };
              if (this.resting.enabled(live) && intents.some((i) => i.type === 'PlaceOrder')) return this.restingFirst(live, event, state, intents, before, decided.atTrigger);
              await this.carryOut(live, event, state, intents, before);
            }).catch((error: unknown) => this.log?.error({ err: error, bot }, 'tick failed'));
          }
        }),
      );
      // Each account's open orders and balances against its bots' books (reconciliation.ts).
      this.reconciledAt ??= now;
      if (now - this.reconciledAt >= (this.deps.reconcileEveryMs ?? RECONCILE_EVERY_MS) && !this.reconciling) {
        this.reconciling = true;
        this.reconciledAt = now;
        void this.reconcileAccounts()
          .catch((error: unknown) => this.log?.error({ err: error }, 'reconciliation round failed'))
          .finally(() => {
            this.reconciling = false;
          });
      }
      // Orders whose answer never came (a timeout, a crash of the call): look them up every 5 rounds, at
      // most LOOKUPS_PER_ACCOUNT of an account per round (lookup-budget.ts).
      if (this.tickCount % 5 === 0) {
        const waiting = [...this.bots.values()].filter((live) => {
          const pending = live.state.pending;
          return pending && !this.inFlight.has(pending.id) && !this.queues.has(live.record.id);
        });
        const taken = takeLookups(waiting, (l) => accountKey(l.record.userId, l.record.exchangeId), this.tickCount / 5);
        for (const live of taken) void this.serial(live.record.id, () => this.reconcile(live)).catch(() => undefined);
        if (taken.length > 0) this.deps.observe?.lookedUp?.(taken.length);
      }
      // The resting orders not looked up for a reconciliation period: looked up (a fill no price round
      // crossed into) and kept in line with the plans (a slot refused a while ago, an order ended on the
      // venue; a paused or stopped bot's cancel not answered): SWEEP_BOTS a round at most, and a fifth of
      // an account's lookup budget. Every round a few, not every fifth round many: with 2,000 grids
      // resting 20 orders each, 50 bots' look-ups at once made every fifth round last 1.2-1.6 s.
      const every = this.deps.reconcileEveryMs ?? RECONCILE_EVERY_MS;
      const resting = [...this.bots.values()].filter(
        (live) =>
          (live.record.status === 'running' || this.resting.any(live.record.id)) &&
          !this.queues.has(live.record.id) &&
          this.resting.enabled(live) &&
          !this.resting.checkedLately(live.record.id, every),
      );
      const restingTaken = takeLookups(resting, (l) => accountKey(l.record.userId, l.record.exchangeId), this.tickCount, Math.ceil(LOOKUPS_PER_ACCOUNT / 5)).slice(0, SWEEP_BOTS);
      for (const live of restingTaken)
        void this.serial(live.record.id, () => this.settleResting(live)).catch((error: unknown) => this.log?.error({ err: error, bot: live.record.id }, 'resting orders not checked'));
    } finally {
      this.ticking = false;
      this.lastRoundAt = performance.now();
      this.deps.observe?.round((this.lastRoundAt - began) / 1000);
    }
  }

  private async load(botId: string): Promise<LiveBot | undefined> {
    if (this.ownership && !this.ownership.holds(botId)) {
      this.drop(botId);
      return undefined;
    }
    const row = await findBot(this.deps.db, { id: botId });
    const old = this.bots.get(botId);
    if (old) this.book.remove(old.key, old.record.id as BotId);
    // A deleted bot is kept (stopped) only while a resting order of its may stand on the venue: its cancels
    // are retried and a fill among them booked, as a stopped bot's are; nothing else acts on it.
    if (!row || (row.deleted_at && !(this.deps.restingTypes?.includes(row.type) && (await liveResting(this.deps.db, { botId })).length > 0))) {
      this.bots.delete(botId);
      return undefined;
    }
    const record: BotRecord = {
      id: String(row.id),
      userId: String(row.user_id),
      exchangeId: row.exchange_id,
      exchange: '',
      symbol: row.symbol,
      status: row.status,
      type: row.type,
      params: row.params,
      state: row.state,
    };
    record.exchange = exchangeById(record.exchangeId)?.code ?? 'unknown';
    const port = old?.port ?? (await this.deps.venue(record));
    const m = await port.market(record.symbol);
    const kit = kitOf(record.type);
    const view = kit.view(record.params, m);
    const live: LiveBot = { record, key: `${record.exchange}:${record.symbol}`, kit, view, port, state: kit.decode(record.id, record.state, view) };
    // Warmed up before it is on the book: no price round asks it half-built (started, resumed, restarted, taken over).
    if (record.status === 'running' && this.deps.warmUp) await this.deps.warmUp(record, live.state, view).catch((error: unknown) => this.log?.error({ err: error, bot: botId }, 'warm-up failed'));
    // What its resting sells hold on the venue is its coin, not free there.
    if (this.resting.enabled(live)) await this.resting.read(live);
    // Before it acts (a start, a restart, a takeover): its account must hold the coin its books do.
    if (record.status === 'running' && (await this.shortOnLoad(live))) record.status = 'paused';
    // Its lease found lost meanwhile (the pause refused): forgotten, as at the start.
    if (this.ownership && !this.ownership.holds(botId)) return undefined;
    this.bots.set(botId, live);
    if (record.status === 'running') this.book.put(live.key, live.state, view, kit);
    return live;
  }

  /**
   * Whether a running bot with a position, loaded to act, finds its account holding less of its coin than
   * its books (reconciliation.ts's tolerance): then it is paused with the reason and the trader told, and
   * never put on the book. An order in flight, or a venue that does not answer, leaves it to the periodic
   * round (and a rate-limited venue is not asked again here on every load).
   */
  private async shortOnLoad(live: LiveBot): Promise<boolean> {
    if (live.state.pending) return false;
    const held = live.kit.held(live.record.params, live.record.state).amount;
    const locked = this.resting.lockedBase(live.record.id);
    if (held.minus(locked).lte(0)) return false;
    const coin = live.record.symbol.split('/')[0]!;
    let balance: Decimal;
    try {
      balance = await live.port.balance(coin);
    } catch (error) {
      this.log?.error({ err: error, bot: live.record.id, coin }, 'balance not answered at load: checked by the next round');
      return false;
    }
    // The account's coin: its free balance and what the bot's resting sells hold of it.
    const has = balance.plus(locked);
    if (!isShort(held, has)) return false;
    const paused = await this.underLease(live.record.id, (fence) =>
      pauseShort(this.deps.db, { botId: live.record.id, userId: live.record.userId, coin, held: held.toFixed(), balance: has.toFixed(), fence }),
    );
    if (paused) this.deps.observe?.reconciled?.('short', 1);
    return paused ?? false;
  }

  /**
   * Work outside a decision that only the bot's holder may do (a pause for a lost order or a missing coin):
   * in a cluster, under this process's lease on the bot, checked in the work's transaction. Undefined when
   * it holds the bot no more (or is fenced): a process woken from a stop, still holding its old view of the
   * bot, must not judge the bot its new holder has moved on with; a lost lease forgets the bot here.
   */
  private async underLease<T>(botId: string, work: (fence: Fence | undefined) => Promise<T>): Promise<T | undefined> {
    const fence = this.fence(botId);
    if (this.deps.cluster && (!fence || this.deps.cluster.fenced())) return undefined;
    try {
      return await work(fence);
    } catch (error) {
      if (!(error instanceof LeaseLost)) throw error;
      this.drop(botId);
      this.deps.observe?.leases('lost', 1);
      return undefined;
    }
  }

  /** The market's time now (ms). */
  private now(): number {
    return this.deps.now ? this.deps.now() : Date.now();
  }

  /**
   * Asks the strategy about the price now (a bot just started, resumed or edited). For a bot whose orders
   * rest, as a price round does: a slot whose order stands is looked up, never sent at market beside it.
   */
  private async evaluate(live: LiveBot): Promise<void> {
    if (live.state.pending) return;
    const price = money(await this.deps.prices.price(live.record.exchange, live.record.symbol, { resting: this.resting.any(live.record.id) }));
    const event: EngineEvent = { type: 'PriceTicked', price, at: this.now() };
    const { state, intents } = live.kit.decide(live.state, event, live.view);
    if (intents.length === 0) return;
    if (this.resting.enabled(live) && intents.some((i) => i.type === 'PlaceOrder')) {
      const slot = this.standingSlot(live, state, intents);
      if (slot !== null) return this.resting.check(live, slot);
      return this.restingFirst(live, event, state, intents, live.state, false);
    }
    await this.carryOut(live, event, state, intents);
  }

  /** The slot whose resting order stands for the order a decision would send (then nothing is sent: the venue fills it), or null. */
  private standingSlot(live: LiveBot, state: KitState, intents: readonly Intent[]): string | null {
    if (!this.resting.enabled(live) || !intents.some((i) => i.type === 'PlaceOrder')) return null;
    const slot = live.kit.resting!.slotOf(state);
    return slot !== null && this.resting.standsAt(live.record.id, slot) ? slot : null;
  }

  /** Commits a decision, then sends its orders; each answer is handled as the next event. False: nothing was committed. */
  private async carryOut(live: LiveBot, event: EngineEvent, state: KitState, intents: Intent[], before = live.state, order?: OrderUpdate): Promise<boolean> {
    const id = live.record.id;
    let fence: Fence | undefined;
    if (this.deps.cluster) {
      // Dropped or reloaded meanwhile (its lease lost or granted anew): this decision was made on an old state.
      fence = this.fence(id);
      if (this.bots.get(id) !== live || !fence) return false;
      if (this.deps.cluster.fenced()) {
        live.state = before;
        this.place(live);
        throw new Error('no heartbeat: this worker trades nothing until one succeeds');
      }
    }
    // An account out of reach opens nothing by itself (a price, a start, a signal): the decision is dropped
    // and asked again later; exits go out, and the trader's own commands are theirs.
    const manual = event.type === 'ManualAddRequested' || event.type === 'ManualCloseRequested';
    const held = this.down.has(accountKey(live.record.userId, live.record.exchangeId)) || this.stale.has(live.key);
    if (!manual && held && intents.some((i) => i.type === 'PlaceOrder' && opens(i.reason))) {
      live.state = before;
      this.place(live);
      return false;
    }
    live.state = state;
    try {
      const committed = await commitDecision(
        this.deps.db,
        { bot: live.record, kit: live.kit, event, before, state, intents, order },
        { fuelFeeRate: this.deps.fuelFeeRate, referralRates: this.deps.referralRates, fence },
      );
      if (committed.paused) live.record.status = 'paused';
      // The user's fuel ran out: their other bots were paused in the same transaction; reload them.
      for (const other of committed.othersPaused) void this.serial(other, () => this.refresh(other)).catch(() => undefined);
      this.deps.changed?.(live.record.userId);
    } catch (error) {
      // Another worker holds the bot now: it is forgotten here, and nothing is sent.
      if (error instanceof LeaseLost) {
        this.drop(id);
        this.deps.observe?.leases('lost', 1);
        return false;
      }
      // Nothing was written: forget the decision and take the stored state back.
      await this.load(live.record.id);
      // Paused or stopped through the API meanwhile: reloaded off the book, which is all there is to do.
      // A signal settled meanwhile (by a retry): nothing was placed.
      if (error instanceof BotNotRunning || error instanceof SignalSettled) return false;
      throw error;
    }
    this.place(live);
    for (const intent of intents) if (intent.type === 'PlaceOrder') await this.send(live, intent);
    // The resting orders follow the books: a fill's counter-order placed, what is no longer wanted cancelled.
    if (this.resting.enabled(live) && this.bots.get(id) === live) await this.resting.sync(live);
    return true;
  }

  /**
   * A price round's decision to place an order, for a bot whose orders rest (a slot whose order stands
   * never gets here: the round looks it up instead): an order no slot rests for (an exit, an open) goes
   * out only once every resting order has been cancelled (a resting sell holds the coin the sale sells; a
   * cancel answered "filled" is a fill, and the bot is asked again on the books it then has). Call inside
   * `serial`.
   */
  private async restingFirst(live: LiveBot, event: EngineEvent, state: KitState, intents: Intent[], before: KitState, atTrigger: boolean): Promise<void> {
    const id = live.record.id;
    if (live.kit.resting!.slotOf(state) !== null || !this.resting.any(id)) {
      await this.carryOut(live, event, state, intents, before);
      return;
    }
    // The book keeps the decided state (an order in flight: asked nothing) until this is done.
    live.state = before;
    if (!(await this.resting.sync(live, { cancelAll: true })) || this.bots.get(id) !== live || live.state !== before) {
      if (this.bots.get(id) === live) {
        this.place(live);
        await this.resting.sync(live);
      }
      return;
    }
    const again = live.kit.decide(before, event, live.view);
    if (!again.intents.some((i) => i.type === 'PlaceOrder')) {
      this.place(live);
      await this.resting.sync(live);
      if (again.intents.length === 0) return;
    }
    // Decided at a trigger price the round crossed: its order rests there (PlaceOrder.at), as the first decision's.
    const at = atTrigger && event.type === 'PriceTicked' ? event.price : undefined;
    await this.carryOut(live, event, again.state, at ? again.intents.map((i) => (i.type === 'PlaceOrder' ? { ...i, at } : i)) : again.intents, before);
  }

  /** The bot's resting orders looked up, then kept in line with its plan (a start, a takeover, a periodic round). */
  private async settleResting(live: LiveBot): Promise<void> {
    // Reloaded or forgotten since this was queued: its plan would be an old state's.
    if (!this.resting.enabled(live) || this.bots.get(live.record.id) !== live) return;
    await this.resting.check(live);
    if (this.bots.get(live.record.id) === live) await this.resting.sync(live);
  }

  /**
   * A resting order's fill (whole, or the part of one that ended), taken into the bot's books as the fill of
   * the order its slot's trigger would have sent: its kit makes it the order in flight, and decide's
   * OrderFilled does the rest, in one committed decision. Not while another order is in flight.
   */
  private async restingFilled(live: LiveBot, order: RestingRecord, answer: OrderState): Promise<boolean> {
    if (live.state.pending || this.bots.get(live.record.id) !== live) return false;
    const id = order.clientOrderId as ClientOrderId;
    const state = live.kit.resting?.inFlight(live.state, order.slot, id, order.side, this.now()) ?? null;
    if (!state) {
      // An order in flight first: the fill is booked after it (the next look-up).
      if (live.state.pending) return false;
      this.log?.error({ bot: live.record.id, order: id, slot: order.slot }, 'resting fill matches no order of the books: the bot paused, the fill looked up again');
      const paused = await this.underLease(live.record.id, (fence) => pauseUnbooked(this.deps.db, { botId: live.record.id, userId: live.record.userId, clientOrderId: id, fence }));
      if (paused) await this.load(live.record.id);
      return false;
    }
    // Post-only: it filled as it rested on the book, at the maker's fee.
    const event: EngineEvent = { type: 'OrderFilled', clientOrderId: id, side: order.side, price: answer.price ?? order.price, amount: answer.filled, maker: true };
    const out = live.kit.decide(state, event, live.view);
    return this.carryOut(live, event, out.state, out.intents, state, { answer: { ...answer, clientOrderId: id } });
  }

  /** Puts the bot back on the book (or keeps it off) after its state changed. */
  private place(live: LiveBot): void {
    if (live.record.status === 'running') this.book.put(live.key, live.state, live.view, live.kit);
    else this.book.remove(live.key, live.record.id as BotId);
  }

  private async send(live: LiveBot, intent: PlaceOrder): Promise<void> {
    // No heartbeat for too long: the order stays in flight, for whoever holds the bot to look up by its id.
    if (this.deps.cluster?.fenced()) return;
    // In a cluster an order goes out only under the bot's lease, which the venue's fence checks: one sent
    // without it (a SIGTERM's release, a lease handed on, between the commit and here) would pass any fence.
    // It stays in flight (`new`) for the bot's next holder, who looks it up by its id before it sends.
    const sender = this.fence(live.record.id);
    if (this.ownership && !sender) return;
    crashPoint('recorded');
    // Marked sent first: an order sent once to a venue whose lookup can miss it is never sent again,
    // only looked up (lost-orders.ts); Paper's exact lookup lets an order it never got go again. Where the
    // venue has a receive window, with the moment after which it can no longer take this request.
    const window = live.port.orderWindowMs;
    const notAfter = window !== undefined ? Date.now() + window : undefined;
    const was = await markSubmitted(this.deps.db, { clientOrderId: intent.clientOrderId, notAfter: notAfter !== undefined ? new Date(notAfter) : undefined });
    if (was !== null && was !== 'new' && !live.port.exactLookup) return;
    this.inFlight.add(intent.clientOrderId);
    let answer: OrderState;
    try {
      answer = await live.port.placeMarketOrder({
        ...(sender ? { sender } : {}),
        clientOrderId: intent.clientOrderId,
        symbol: live.record.symbol,
        side: intent.side,
        ...(intent.quote ? { quote: intent.quote } : {}),
        ...(intent.amount ? { amount: intent.amount } : {}),
        ...(intent.at ? { at: intent.at } : {}),
        ...(notAfter !== undefined ? { notAfter } : {}),
      });
    } catch (error) {
      // Paper refused it in its own transaction: the lease moved on since this decision.
      if (error instanceof LeaseLost) return this.drop(live.record.id);
      // The outcome is unknown: the order stays in flight and is looked up by its id later, never re-sent blindly.
      this.log?.error({ err: error, order: intent.clientOrderId }, 'order outcome unknown');
      const account = { userId: live.record.userId, exchangeId: live.record.exchangeId };
      this.failing.add(accountKey(account.userId, account.exchangeId));
      if (await callFailed(this.deps.db, account).catch(() => false)) {
        this.down.set(accountKey(account.userId, account.exchangeId), Date.now());
        this.log?.error({ account }, 'exchange account out of reach: its bots open nothing until a reconciliation round passes');
      }
      return;
    } finally {
      this.inFlight.delete(intent.clientOrderId);
    }
    crashPoint('sent');
    const key = accountKey(live.record.userId, live.record.exchangeId);
    if (this.failing.delete(key)) await callAnswered(this.deps.db, { userId: live.record.userId, exchangeId: live.record.exchangeId });
    // Fenced while it was on its way (halted, or too long without a heartbeat): the answer is not this
    // worker's to record; the order stays in flight for whoever holds the bot to look up by its id.
    if (this.deps.cluster?.fenced()) return;
    await this.answered(live, answer);
  }

  /** An exchange's answer about the order in flight, as an event for the strategy. */
  private async answered(live: LiveBot, answer: OrderState): Promise<void> {
    const pending = live.state.pending;
    if (!pending || pending.id !== answer.clientOrderId) return;
    const filled = answer.filled.gt(0) && answer.price !== null && (answer.status === 'closed' || answer.status === 'canceled');
    let event: EngineEvent;
    if (filled) event = { type: 'OrderFilled', clientOrderId: answer.clientOrderId, side: answer.side, price: answer.price as Decimal, amount: answer.filled };
    else if (answer.status === 'rejected' || answer.status === 'canceled') event = { type: 'OrderRejected', clientOrderId: answer.clientOrderId, reason: answer.reason ?? answer.status };
    else return; // still open: looked up again later
    const { state, intents } = live.kit.decide(live.state, event, live.view);
    await this.carryOut(live, event, state, intents, live.state, { answer });
  }

  /**
   * The order in flight, looked up on the exchange by client order id: recorded if it was filled; sent if
   * it was never sent, or Paper never got it; on a live venue, counted as a miss and, at the third and
   * a targeted query, lost (lost-orders.ts); a lost order asked about again (a cancel, then the lookup).
   */
  private async reconcile(live: LiveBot): Promise<void> {
    const pending = live.state.pending;
    if (!pending || this.inFlight.has(pending.id)) return;
    const id = pending.id as ClientOrderId;
    const { symbol } = live.record;
    const row = await findOrder(this.deps.db, { clientOrderId: pending.id });
    const answer = row?.status === 'lost' ? await lookUpLost(live.port, id, symbol) : await live.port.fetchOrder(id, symbol);
    if (answer) {
      if (answer.filled.gt(0)) crashPoint('found');
      return this.answered(live, answer);
    }
    if (!row) return;
    if (row.status !== 'new' && !live.port.exactLookup) {
      if (row.status === 'lost') return; // still lost: asked again next time
      // Within its receive window (and the clocks' margin) the request may still be on its way: no miss yet.
      const deadline = row.not_after ? row.not_after.getTime() + WINDOW_MARGIN_MS : null;
      if (deadline !== null && Date.now() < deadline) return;
      const misses = await countMiss(this.deps.db, { clientOrderId: pending.id });
      if (misses < LOST_AFTER_MISSES) return;
      const found = await targetedLookup(live.port, id, symbol);
      if (found) return this.answered(live, found);
      // Not found after its receive window: it never reached the venue and never can; sent again below
      // (twice at most, then lost).
      const unreached =
        deadline === null ? 'spent' : await this.underLease(live.record.id, (fence) => markUnreached(this.deps.db, { botId: live.record.id, clientOrderId: pending.id, misses, fence }));
      if (unreached === undefined || unreached === 'moved') return;
      if (unreached === 'spent') {
        const marked = await this.underLease(live.record.id, (fence) => markLost(this.deps.db, { botId: live.record.id, userId: live.record.userId, clientOrderId: pending.id, misses, fence }));
        if (marked === undefined) return;
        this.deps.observe?.reconciled?.('lost', 1);
        this.log?.error({ bot: live.record.id, order: pending.id, misses }, 'order lost: the bot is paused, the order still looked up');
        await this.load(live.record.id);
        return;
      }
      this.deps.observe?.reconciled?.('unreached', 1);
      this.log?.error({ bot: live.record.id, order: pending.id, misses }, 'order never reached the exchange (its receive window passed unseen): sent again under its id');
    }
    const intent: PlaceOrder = {
      type: 'PlaceOrder',
      clientOrderId: pending.id as ClientOrderId,
      side: row.side,
      reason: pending.reason,
      ...(row.quote !== null ? { quote: money(row.quote) } : {}),
      ...(row.amount !== null ? { amount: money(row.amount) } : {}),
      ...(row.at_price !== null ? { at: money(row.at_price) } : {}),
    };
    // Sent outside a decision: the lease is read first, so a process that lost the bot never re-sends.
    const fence = this.fence(live.record.id);
    if (this.deps.cluster && (!fence || !(await holds(this.deps.db, live.record.id, fence)))) {
      this.drop(live.record.id);
      return;
    }
    await this.send(live, intent);
  }

  /** What the reconciliation reads of a loaded bot: its pair, status, the base its books hold, its order in flight. */
  private booked(live: LiveBot): BookedBot {
    return {
      id: live.record.id,
      symbol: live.record.symbol,
      status: live.record.status,
      held: live.kit.held(live.record.params, live.kit.encode(live.state)).amount,
      // What its resting sells hold is not free on the venue: counted beside the free balance.
      locked: this.resting.lockedBase(live.record.id),
      pending: live.state.pending?.id ?? null,
    };
  }

  /**
   * A reconciliation round of every account this process holds bots of: orphan orders cancelled, and a
   * coin the account holds less of than the books asked about again once its bots' work in progress is
   * done; still short, its bots pause (reconciliation.ts).
   */
  async reconcileAccounts(): Promise<void> {
    const accounts = new Map<string, LiveBot[]>();
    for (const live of this.bots.values()) {
      const key = `${live.record.userId}:${live.record.exchangeId}`;
      accounts.set(key, [...(accounts.get(key) ?? []), live]);
    }
    const began = Date.now();
    for (const lives of accounts.values()) {
      const { port } = lives[0]!;
      const { userId } = lives[0]!.record;
      const at = new Date();
      const problems = new Map<string, string>();
      const coinOf = (live: LiveBot) => live.record.symbol.split('/')[0]!;
      const orphans = await cancelOrphans(
        this.deps.db,
        port,
        lives.map((l) => this.booked(l)),
        { log: this.log },
      );
      if (orphans === null) for (const live of lives) problems.set(live.record.id, 'unanswered');
      else if (orphans.length > 0) this.deps.observe?.reconciled?.('orphan', orphans.length);
      const { short, unseen } = await findShortfalls(
        port,
        lives.map((l) => this.booked(l)),
        this.log,
        this.decidedSince(lives),
      );
      for (const live of lives) if (unseen.includes(coinOf(live))) problems.set(live.record.id, 'unanswered');
      for (const found of short) {
        const holders = lives.filter((l) => found.holders.includes(l.record.id));
        // Their decisions in progress done, the books and the balance read again: a shortfall seen twice.
        await Promise.all(holders.map((l) => this.serial(l.record.id, async () => undefined)));
        const again = (
          await findShortfalls(
            port,
            holders.map((l) => this.booked(l)),
            this.log,
            this.decidedSince(holders),
          )
        ).short.find((s) => s.coin === found.coin);
        if (!again) continue;
        for (const live of holders) {
          problems.set(live.record.id, BALANCE_SHORT);
          if (live.record.status !== 'running') continue;
          const paused = await this.underLease(live.record.id, (fence) =>
            pauseShort(this.deps.db, { botId: live.record.id, userId, coin: again.coin, held: again.held.toFixed(), balance: again.balance.toFixed(), fence }),
          );
          if (!paused) continue;
          this.deps.observe?.reconciled?.('short', 1);
          await this.serial(live.record.id, () => this.refresh(live.record.id));
        }
      }
      // An account out of reach that answered this round in full is reachable again: its bots open again.
      const { exchangeId } = lives[0]!.record;
      const answered = orphans !== null && unseen.length === 0;
      if (this.down.has(accountKey(userId, exchangeId)) && answered) {
        const seconds = await outageOver(this.deps.db, { userId, exchangeId });
        if (seconds !== null) {
          this.down.delete(accountKey(userId, exchangeId));
          this.deps.observe?.outageEnded?.(seconds);
        }
      }
      // A pair whose price came back before this round began, on an account the exchange answered in
      // full: its bots open again. A pair still without one: its bots' screens say so.
      for (const live of lives) {
        const back = this.stale.get(live.key);
        if (back != null && back <= began && answered) {
          this.stale.delete(live.key);
          await pairBack(this.deps.db, { exchange: live.record.exchange, symbol: live.record.symbol }).catch((error: unknown) =>
            this.log?.error({ err: error, key: live.key }, 'price back: traders not told'),
          );
        }
        if (this.stale.has(live.key) && !problems.has(live.record.id)) problems.set(live.record.id, NO_PRICE);
      }
      // What the bots' screens say: in agreement, checked now; or what differs. Only of the bots this
      // process still holds (one it lost during the round is its new holder's to judge).
      const held = (id: string) => this.bots.has(id) && (!this.ownership || this.ownership.holds(id));
      const agreed = lives.map((l) => l.record.id).filter((id) => !problems.has(id) && held(id));
      await markSynced(this.deps.db, { ids: agreed, problem: null, at });
      for (const problem of new Set(problems.values())) {
        await markSynced(this.deps.db, { ids: [...problems].filter(([id, p]) => p === problem && held(id)).map(([id]) => id), problem, at });
      }
    }
  }

  /**
   * Whether any of the named bots decided (its state replaced) or was reloaded since this call: what a
   * reconciliation read of the books before an exchange's answer must not be compared with after it.
   */
  private decidedSince(lives: readonly LiveBot[]): (ids: readonly string[]) => boolean {
    const seen = new Map(lives.map((l) => [l.record.id, { live: l, state: l.state }]));
    return (ids) =>
      ids.some((id) => {
        const then = seen.get(id);
        return !then || this.bots.get(id) !== then.live || then.live.state !== then.state;
      });
  }

  /**
   * A round without a price for a pair: once it has gone stalePriceMs without a fresh one, its bots open
   * nothing, and their screens say why (`no_price`) until a reconciliation round clears it.
   */
  private async noPrice(key: string): Promise<void> {
    const now = Date.now();
    const last = this.priced.get(key);
    if (last === undefined) this.priced.set(key, now);
    if (this.stale.has(key)) {
      this.stale.set(key, null);
      return;
    }
    if (now - (last ?? now) < (this.deps.stalePriceMs ?? 30_000)) return;
    this.stale.set(key, null);
    const onPair = [...this.bots.values()].filter((l) => l.key === key);
    const ids = onPair.map((l) => l.record.id);
    this.log?.error({ key, since: new Date(last!).toISOString(), bots: ids.length }, 'no fresh price: the bots on this pair open nothing until it is back and a reconciliation round passes');
    await markSynced(this.deps.db, { ids, problem: NO_PRICE, at: new Date() }).catch((error: unknown) => this.log?.error({ err: error, key }, 'stale price not recorded'));
    const sample = onPair[0];
    if (sample)
      await pairStale(this.deps.db, { exchange: sample.record.exchange, symbol: sample.record.symbol, since: new Date(last!) }).catch((error: unknown) =>
        this.log?.error({ err: error, key }, 'stale price: traders not told'),
      );
  }

  /** A fresh price for a pair: kept, and a stale pair's price marked back (its bots open again after the next round). */
  private priceBack(key: string): void {
    const now = Date.now();
    this.priced.set(key, now);
    if (this.stale.get(key) === null) this.stale.set(key, now);
  }

  /** Recomputes a loaded bot's trigger prices after its parameters changed. */
  retarget(botId: string): void {
    const live = this.bots.get(botId);
    if (!live) return;
    live.state = live.kit.retarget(live.state, live.view);
    this.place(live);
  }

  /** This process's lease on a bot, as its decisions must show it (cluster only). */
  private fence(botId: string): Fence | undefined {
    return this.ownership?.fence(botId);
  }

  /** Forgets a bot: off the book, out of memory, its lease no longer counted as ours. */
  private drop(botId: string): void {
    const live = this.bots.get(botId);
    if (live) this.book.remove(live.key, live.record.id as BotId);
    this.bots.delete(botId);
    this.resting.forget(botId);
    this.ownership?.forget(botId);
  }
}
