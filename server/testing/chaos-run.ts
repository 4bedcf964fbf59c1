import { rmSync } from 'node:fs';
import pg from 'pg';
import { registerPayloadAt } from './test-support.ts';
import { SimulatedMarket } from '../market/simulated.ts';
import { money } from '../../strategy/money.ts';
import type { StoredMartinState } from '../../strategy/martin/state-codec.ts';
import type { StoredGridState } from '../../strategy/grid/state-codec.ts';
import { kitOf } from '../../strategy/kit.ts';
import { paperMarket } from '../exchanges/paper-fill.ts';
import { clusterDatabase, clusterEnv, freePort, ServerProcess } from './process-support.ts';

/**
 * The chaos run, shared by server/cluster/chaos.test.ts (in `npm test`) and
 * bench/cluster-chaos.ts (its figures; the test at 36 bots and 10 kills, the bench at 60 and 20): 3 server processes on a fresh PostgreSQL database, traders'
 * martin (and grid) bots on Paper with a fast clock, processes SIGKILLed, SIGSTOPped and SIGTERMed at
 * random while a bot is paused and another stopped through the API. Paper records every order it gets
 * with the sender's worker and epoch (TEST_VENUE_AUDIT=1, server/testing/venue-audit.ts) and refuses
 * one whose sender no longer holds the bot's lease (paper-venue.ts). What it
 * answers is measured, not judged: the caller asserts (the test) or prints (the bench).
 */
export interface ChaosOptions {
  /** PostgreSQL to create the run's database on (a superuser connection). */
  adminUrl: string;
  traders: number;
  martinPerTrader: number;
  gridPerTrader: number;
  kills: number;
  /** SIGSTOP one process for TTL + 2 s, then SIGCONT. */
  stops: number;
  ttlMs: number;
  /** How long after an event every bot of the lost process must have traded again before the run goes on without it. */
  takeoverWaitMs: number;
  /** More settings for the three processes (RESTING_ORDERS=none: the grids' orders go at market, not resting on Paper). */
  env?: Record<string, string> | undefined;
  log?: (line: string) => void;
}

/** An order as Paper received it. */
export interface VenueCall {
  client_order_id: string;
  bot_id: string | null;
  worker_id: string | null;
  epoch: string | null;
  lease_worker: string | null;
  lease_epoch: string | null;
  known: boolean;
  /** Paper refused it: its sender no longer held the bot's lease (a woken stale owner). */
  refused: boolean;
  at: Date;
}

export interface ChaosResult {
  bots: number;
  events: { kind: 'kill' | 'stop' | 'term'; orphans: number; atMs: number; worker: string }[];
  /** Accepted orders: the first call of each id that passed the lease fence (Paper filled it, or rejected it for funds or size). */
  orders: number;
  /** Every call Paper got, repeats and fenced ones included. */
  calls: number;
  /** Client order ids Paper accepted from more than one (worker, epoch): a second order on an exchange that does not dedupe. */
  duplicates: { id: string; workers: string[]; text: string }[];
  /** Calls Paper accepted (filled, or answered from its records) from a sender that was not the bot's lease at that moment. */
  stale: VenueCall[];
  /** Calls Paper answered from its records (a repeated id). */
  repeats: VenueCall[];
  /** Calls Paper refused because their sender no longer held the bot's lease (the fence at work: a woken SIGSTOPped process, say). */
  refused: VenueCall[];
  /** Orders decided or accepted for the paused / stopped bot after the command's answer. */
  afterCommand: string[];
  /** Per bot of a lost process and event: ms from the kill (or SIGSTOP, SIGTERM) to its next accepted order under a newer lease (another worker's, or the woken victim's). */
  takeoverMs: number[];
  /** The same to the new lease's grant. */
  leaseMs: number[];
  /** Each of those with the kind of the event: a SIGTERM's bots are handed over at once, a SIGKILL's after the TTL. */
  leases: { kind: 'kill' | 'stop' | 'term'; ms: number }[];
  /** Bots of a lost process that neither traded again nor got a new lease within takeoverWaitMs (event: bot). */
  untaken: string[];
  /** Bots of a lost process with a new lease but no order within takeoverWaitMs although their strategy had something to do at the prices meanwhile. */
  idle: string[];
  /** Bots with a new lease and no order whose strategy had nothing to do at any price since (a martin between its triggers or at its last add, a grid outside its range). */
  quiet: string[];
  /** What the books' checks found (empty: consistent). */
  books: string[];
  /** Log lines of interest: order-id conflicts (23505) and the like. */
  conflicts: string[];
  wallMs: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const uniform = (lo: number, hi: number) => lo + Math.random() * (hi - lo);
const pick = <T>(list: readonly T[]): T => list[Math.floor(Math.random() * list.length)]!;

/** Runs the chaos and measures it; always stops the processes and drops the database. */
export async function runChaos(options: ChaosOptions): Promise<ChaosResult> {
  const began = performance.now();
  const log = options.log ?? (() => undefined);
  const { url, drop } = await clusterDatabase(options.adminUrl, 'chaos');
  const db = new pg.Client({ connectionString: url });
  const conflicts: string[] = [];
  // The grids' orders rest on Paper (RESTING_ORDERS' default); RESTING_ORDERS=none in `options.env` sends them at market.
  const env = clusterEnv(url, options.ttlMs, { MARKET_SPEED: '300', TEST_VENUE_AUDIT: '1', ...options.env });
  const nodes: ServerProcess[] = [];
  for (let i = 0; i < 3; i++) nodes.push(new ServerProcess(await freePort(), env, conflicts));
  try {
    // The first process migrates and sets the market clock; the other two join it.
    await nodes[0]!.start();
    await Promise.all(nodes.slice(1).map((n) => n.start()));
    await db.connect();
    log(`3 processes up after ${Math.round(performance.now() - began)} ms`);

    const live = () => nodes.filter((n) => n.alive() && !n.stopped);
    const call = async (method: 'GET' | 'POST', path: string, body?: object, token?: string) => {
      const headers: Record<string, string> = { ...(body ? { 'content-type': 'application/json' } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) };
      const r = await fetch(pick(live()).base + path, { method, headers, ...(body ? { body: JSON.stringify(body) } : {}) });
      const answer = (await r.json()) as { code: number; msg: string; data: unknown };
      if (answer.code !== 1) throw new Error(`${path}: ${answer.code} ${answer.msg}`);
      return answer.data as Record<string, unknown> & { token: string; id: string };
    };

    // Traders, each with Paper bound and their bots started, every call through a random process.
    // 30 adds 0.2 % apart: room for a fall of 6 % (the market runs 300 times faster: hours in a run).
    const martinParams = { investment: '600', firstOrder: '20', multiplier: '1', maxPositions: 30, addTrigger: '0.2', takeProfit: '0.1', repeat: true };
    const symbols = ['BTC/USDT', 'ETH/USDT', 'BNB/USDT', 'SOL/USDT', 'XRP/USDT', 'DOGE/USDT', 'LTC/USDT', 'ADA/USDT'];
    const botIds: string[] = [];
    const tokenOf = new Map<string, string>();
    for (let t = 0; t < options.traders; t++) {
      const node = pick(live());
      const { token } = await call('POST', '/login/register', await registerPayloadAt(node.base.replace(/\/api$/, ''), { account: `chaos${t}${Date.now().toString(36)}` }));
      await call('POST', '/exchanges/bind', { exchangeId: 1, apiKey: 'paperkey01', secretKey: 'papersecret01' }, token);
      const kinds = [...Array<'martin'>(options.martinPerTrader).fill('martin'), ...Array<'grid'>(options.gridPerTrader).fill('grid')];
      for (const [i, kind] of kinds.entries()) {
        const symbol = symbols[i % symbols.length]!;
        let params: object = martinParams;
        if (kind === 'grid') {
          const price = Number((((await call('GET', `/market/price?symbols=${encodeURIComponent(symbol)}`, undefined, token)) as unknown as { price: string }[])[0] as { price: string }).price);
          params = { investment: '1000', lower: String(price * 0.99), upper: String(price * 1.01), grids: 6, spacing: 'arithmetic', stopLoss: '', takeProfit: '' };
        }
        const { id } = await call('POST', '/user/botCreate', { type: kind, exchangeId: 1, symbol, params }, token);
        await call('GET', `/user/botOperation?id=${id}&action=start`, undefined, token);
        botIds.push(String(id));
        tokenOf.set(String(id), token);
      }
    }
    log(`${botIds.length} bots started after ${Math.round(performance.now() - began)} ms`);
    await sleep(3000); // every bot trading

    // The chaos: kills, stops and one graceful stop, each followed by the takeover of its bots.
    const kinds: ('kill' | 'stop' | 'term')[] = [...Array<'kill'>(options.kills).fill('kill')];
    for (let s = 0; s < options.stops; s++) kinds.splice(Math.min(kinds.length, Math.round(((s + 1) * kinds.length) / (options.stops + 1)) + s), 0, 'stop');
    // A rolling restart halfway: each of the 3 processes SIGTERMed and started again, one after the other.
    kinds.splice(Math.floor(kinds.length / 2), 0, 'term', 'term', 'term');
    const rolled = new Set<ServerProcess>();
    const commanded = new Map<string, { action: 'pause' | 'stop'; at: number }>();
    const events: ChaosResult['events'] = [];
    const takeoverMs: number[] = [];
    const leaseMs: number[] = [];
    const leases: ChaosResult['leases'] = [];
    const untaken: string[] = [];
    const idle: string[] = [];
    const quiet: string[] = [];
    for (const [e, kind] of kinds.entries()) {
      // A pause and a stop through a random process while the cluster is in turmoil.
      if (e === 1 || e === 2) {
        const action = e === 1 ? 'pause' : 'stop';
        const bot = pick(botIds.filter((b) => !commanded.has(b)));
        await call('GET', `/user/botOperation?id=${bot}&action=${action}`, undefined, tokenOf.get(bot));
        commanded.set(bot, { action, at: Date.now() });
      }
      // The victim: a random process that owns bots now (a process that owns none shows nothing).
      // In the rolling restart: the next process not restarted yet, whatever it owns.
      const holders: { node: ServerProcess; worker: string; bots: string[] }[] = [];
      for (const node of live()) {
        const { rows } = await db.query<{ id: string }>('select id from workers where pid = $1', [node.pid]);
        if (!rows[0]) continue;
        const { rows: held } = await db.query<{ bot_id: string }>(`select l.bot_id from bot_leases l join bots b on b.id = l.bot_id where l.worker_id = $1 and b.status = 'running'`, [rows[0].id]);
        const bots = held.map((h) => String(h.bot_id)).filter((b) => !commanded.has(b));
        if (bots.length > 0 || (kind === 'term' && !rolled.has(node))) holders.push({ node, worker: rows[0].id, bots });
      }
      const next = kind === 'term' ? holders.find((h) => !rolled.has(h.node)) : undefined;
      const owning = holders.filter((h) => h.bots.length > 0);
      if (!next && owning.length === 0) throw new Error('no process owns a bot');
      const victim = next ?? pick(owning);
      if (kind === 'term') rolled.add(victim.node);
      const { rows: epochs } = await db.query<{ bot_id: string; epoch: string }>('select bot_id, epoch from bot_leases where bot_id = any($1::bigint[])', [victim.bots]);
      const epochOf = new Map(epochs.map((r) => [String(r.bot_id), String(r.epoch)]));
      const at = Date.now();
      events.push({ kind, orphans: victim.bots.length, atMs: Math.round(performance.now() - began), worker: victim.worker });
      let back: Promise<void> = Promise.resolve();
      if (kind === 'kill') {
        await victim.node.signal('SIGKILL');
        back = sleep(uniform(300, 2000)).then(() => victim.node.start());
      } else if (kind === 'term') {
        await victim.node.signal('SIGTERM');
        back = victim.node.start();
      } else {
        victim.node.child!.kill('SIGSTOP');
        victim.node.stopped = true;
        back = sleep(options.ttlMs + 2000).then(() => {
          victim.node.child!.kill('SIGCONT');
          victim.node.stopped = false;
        });
      }
      // Every bot the victim held trades again from another worker: its next accepted order, its new lease.
      const waiting = new Set(victim.bots);
      const leased = new Set<string>();
      const deadline = at + options.takeoverWaitMs;
      // What a bot still waiting is doing: its lease, its order in flight and its strategy's state.
      const seenOf = async (b: string) =>
        (
          await db.query<{ worker_id: string | null; epoch: string; granted_at: Date | null; type: string; symbol: string; params: unknown; state: unknown; status: string }>(
            'select l.worker_id, l.epoch, l.granted_at, b.type, b.symbol, b.params, b.state, b.status from bots b left join bot_leases l on l.bot_id = b.id where b.id = $1',
            [b],
          )
        ).rows[0];
      const pendingOf = (r: { state: unknown } | undefined) => (r?.state as { pending?: { id?: string } } | undefined)?.pending?.id;
      // Whether a re-leased bot had anything to do since its lease (a grid between two levels may wait for minutes).
      const hadWorkSince = async (r: Awaited<ReturnType<typeof seenOf>>, to: number) => !r?.granted_at || Boolean(pendingOf(r)) || (await hadWork(db, r, r.granted_at.getTime() + 1000, to));
      let seenAll = false;
      for (let round = 1; waiting.size > 0 && Date.now() < deadline; round++) {
        await sleep(100);
        // Every second: once every bot still waiting is re-leased and has had nothing to do since, there is nothing more to see.
        if (round % 10 === 0 && [...waiting].every((b) => leased.has(b))) {
          let busy = false;
          for (const b of waiting) {
            busy = await hadWorkSince(await seenOf(b), Date.now());
            if (busy) break;
          }
          if (!busy) {
            seenAll = true;
            break;
          }
        }
        // Under a lease newer than the victim's: another worker's, or the victim's own again once it is
        // back (a SIGSTOPped process wakes with no bots, and the share of bots per process brings some back).
        const { rows: firsts } = await db.query<{ bot_id: string; first: Date }>(
          `select c.bot_id, min(c.at) as first from venue_calls c join unnest($1::bigint[], $2::bigint[]) as v(bot_id, epoch) on v.bot_id = c.bot_id
            where not c.known and not c.refused and c.at > $3 and c.epoch > v.epoch group by c.bot_id`,
          [[...waiting], [...waiting].map((b) => epochOf.get(b) ?? '0'), new Date(at)],
        );
        for (const r of firsts) {
          takeoverMs.push(new Date(r.first).getTime() - at);
          waiting.delete(String(r.bot_id));
        }
        const { rows: granted } = await db.query<{ bot_id: string; epoch: string; granted_at: Date }>(
          'select bot_id, epoch, granted_at from bot_leases where bot_id = any($1::bigint[]) and worker_id is not null',
          [victim.bots.filter((b) => !leased.has(b))],
        );
        for (const r of granted) {
          if (String(r.epoch) === epochOf.get(String(r.bot_id))) continue;
          leased.add(String(r.bot_id));
          leaseMs.push(new Date(r.granted_at).getTime() - at);
          leases.push({ kind, ms: new Date(r.granted_at).getTime() - at });
        }
      }
      // What each of them was doing then, and whether its strategy had anything to do at the prices since
      // its new lease: quiet (nothing to do, no fault), else idle (its new owner should have traded it).
      const ended = Date.now();
      for (const b of waiting) {
        const r = await seenOf(b);
        const pending = pendingOf(r);
        const line = `${kind} #${e}: bot ${b}${r ? ` (${r.status}, ${r.type} on ${r.symbol}, lease ${r.worker_id?.slice(0, 8) ?? 'free'}${r.worker_id === victim.worker ? ' (the victim)' : ''}/${r.epoch} since ${r.granted_at ? r.granted_at.getTime() - at : '-'} ms, in flight ${pending ?? 'none'})` : ''}`;
        if (!leased.has(b)) untaken.push(line);
        // Seen all: every one was quiet at that moment (one may have got work since, a moment too late for this event).
        else if (r && (seenAll || !(await hadWorkSince(r, ended)))) quiet.push(line);
        else idle.push(line);
      }
      // Idle bots: what their processes said (errors only: LOG_LEVEL=error).
      if (idle.some((l) => l.startsWith(`${kind} #${e}:`))) {
        const { rows: activity } = await db.query<{ pid: number; state: string; wait: string | null; query: string; age: string }>(
          `select pid, state, wait_event_type || ':' || wait_event as wait, left(query, 160) as query, round(extract(epoch from now() - coalesce(xact_start, query_start)) * 1000)::text as age
             from pg_stat_activity where datname = current_database() and state <> 'idle' and pid <> pg_backend_pid()`,
        );
        log(`database sessions not idle: ${activity.map((a) => `\n  ${a.pid} ${a.state} ${a.wait ?? ''} ${a.age} ms: ${a.query}`).join('')}`);
        for (const n of live()) {
          const { rows } = await db.query<{ id: string }>('select id from workers where pid = $1', [n.pid]);
          log(`process ${rows[0]?.id.slice(0, 8) ?? '?'} (pid ${n.pid}) output: ${n.out.slice(-1500)}`);
        }
      }
      await back;
      log(`${kind} #${e}: ${victim.bots.length} bots, all traded again: ${waiting.size === 0} (${Math.round(performance.now() - began)} ms)`);
      await sleep(uniform(500, 1500));
    }
    await sleep(2000);
    await Promise.all(nodes.map((n) => n.signal('SIGTERM')));
    let settleFrom: Date | undefined;
    if (options.env?.RESTING_ORDERS !== 'none') {
      // A resting order Paper filled in a round's last moment, before its bot looked it up, is booked by
      // the next start's reconciliation, as after any stop: one more start, with no price round (nothing
      // new fills), takes every bot, books what the venue filled and cancels what stopped bots left.
      settleFrom = (await db.query<{ now: Date }>('select now()')).rows[0]!.now;
      await nodes[0]!.start({ ENGINE_TICK_MS: '1000000000' });
      await nodes[0]!.signal('SIGTERM');
    }

    // What Paper received, and the checks.
    const { rows: calls } = await db.query<VenueCall>('select client_order_id, bot_id, worker_id, epoch, lease_worker, lease_epoch, known, refused, at from venue_calls order by id');
    const accepted = calls.filter((c) => !c.refused);
    const senders = new Map<string, Set<string>>();
    for (const c of accepted) senders.set(c.client_order_id, (senders.get(c.client_order_id) ?? new Set()).add(`${c.worker_id}/${c.epoch}`));
    // Each call of a repeated id, with its sender, the lease then, whether Paper knew it, and when (ms from the start, beside the events).
    const t0 = Date.now() - (performance.now() - began);
    const duplicates = [...senders]
      .filter(([, s]) => s.size > 1)
      .map(([id]) => {
        const mine = accepted.filter((c) => c.client_order_id === id);
        const text = [
          `${id}:`,
          ...mine.map((c) => `${c.worker_id?.slice(0, 8)}/${c.epoch} (lease ${c.lease_worker?.slice(0, 8)}/${c.lease_epoch}, ${c.known ? 'known' : 'new'}) at ${Math.round(c.at.getTime() - t0)} ms`),
          `events: ${events.map((e) => `${e.kind} ${e.worker.slice(0, 8)} @${e.atMs}`).join(', ')}`,
        ].join(' ');
        return { id, workers: mine.map((c) => String(c.worker_id)), text };
      });
    // Paper's fence compares the sender with the lease in the order's transaction: no accepted call, new
    // or repeated, may come from anyone but the lease's holder then.
    const stale = accepted.filter((c) => c.lease_epoch !== null && (c.epoch === null || c.worker_id !== c.lease_worker || BigInt(c.epoch) !== BigInt(c.lease_epoch)));
    const repeats = accepted.filter((c) => c.known);
    const refused = calls.filter((c) => c.refused);
    const afterCommand: string[] = [];
    for (const [bot, { action, at }] of commanded) {
      const { rows: decided } = await db.query<{ client_order_id: string; created_at: Date }>('select client_order_id, created_at from bot_orders where bot_id = $1 and created_at > $2', [
        bot,
        new Date(at),
      ]);
      for (const o of decided) afterCommand.push(`${action} bot ${bot}: order ${o.client_order_id} decided ${o.created_at.getTime() - at} ms after the command`);
      const late = new Set(decided.map((o) => o.client_order_id));
      for (const c of accepted)
        if (String(c.bot_id) === bot && !c.known && c.at.getTime() > at && late.has(c.client_order_id)) afterCommand.push(`${action} bot ${bot}: ${c.client_order_id} sent after the command`);
    }
    const books = await checkBooks(db, commanded, settleFrom);
    return {
      bots: botIds.length,
      events,
      orders: accepted.filter((c) => !c.known).length,
      calls: calls.length,
      duplicates,
      stale,
      repeats,
      refused,
      afterCommand,
      takeoverMs,
      leaseMs,
      leases,
      untaken,
      idle,
      quiet,
      books,
      conflicts,
      wallMs: Math.round(performance.now() - began),
    };
  } catch (error) {
    for (const [i, n] of nodes.entries()) log(`process ${i} output: ${n.out.slice(-3000)}`);
    throw error;
  } finally {
    for (const n of nodes) {
      if (n.stopped) n.child?.kill('SIGCONT');
      await n.signal('SIGKILL');
      rmSync(n.dataDir, { recursive: true, force: true });
    }
    await db.end().catch(() => undefined);
    await drop();
  }
}

/**
 * Whether the bot's strategy would have acted at the simulated market's prices between `from` and `to`
 * (wall ms): sampled every 100 ms on the cluster's shared clock (cluster_settings), an act counted when
 * 3 samples in a row ask for one (the engine ticks every 200 ms; a shorter crossing may pass unseen).
 */
async function hadWork(db: pg.Client, bot: { type: string; symbol: string; params: unknown; state: unknown }, from: number, to: number): Promise<boolean> {
  const { rows } = await db.query<{ value: string }>("select value from cluster_settings where name = 'market_clock'");
  const clock = rows[0] ? (JSON.parse(rows[0].value) as { origin: number; speed: number }) : { origin: from, speed: 1 };
  const feed = new SimulatedMarket();
  const info = feed.info(bot.symbol);
  const m = paperMarket(bot.symbol, info.tick, info.step);
  const kit = kitOf(bot.type);
  const view = kit.view(bot.params, m);
  const state = kit.decode('0', bot.state, view);
  let run = 0;
  for (let t = from; t <= to; t += 100) {
    const price = money(feed.priceAt(bot.symbol, clock.origin + (t - clock.origin) * clock.speed));
    run = kit.decide(state, { type: 'PriceTicked', price }, view).intents.length > 0 ? run + 1 : 0;
    if (run >= 3) return true;
  }
  return false;
}

/**
 * The books after the run, as the single-process crash test (server/engine/kill.test.ts) checks them,
 * per trader: every Paper order is its bot's, recorded with Paper's figures; nothing left in flight;
 * no sequence number skipped or reused; each trader's balances are the start plus their fills; each
 * bot's state is its orders and its realised profit its cycles; every bot running but the paused and
 * the stopped one. Answers what is wrong (empty: all consistent).
 */
/**
 * `settleFrom`: when the last start (no price rounds) began. Its look-ups match Paper's book at the price
 * then, every account's orders on the pair at once: a resting order it filled after its own bot had been
 * looked up is booked by the next start, and is not counted here as recorded otherwise.
 */
export async function checkBooks(db: pg.Client, commanded: ReadonlyMap<string, { action: 'pause' | 'stop' }>, settleFrom?: Date): Promise<string[]> {
  const problems: string[] = [];
  const check = (ok: boolean, what: string) => {
    if (!ok) problems.push(what);
  };
  const bots = (await db.query('select id, user_id, type, symbol, status, error, state, realized from bots order by id')).rows as {
    id: string;
    user_id: string;
    type: string;
    symbol: string;
    status: string;
    error: string | null;
    state: unknown;
    realized: string;
  }[];
  const symbolOf = new Map(bots.map((b) => [String(b.id), b.symbol]));
  const orders = (await db.query('select * from bot_orders order by bot_id, cycle, seq')).rows as {
    bot_id: string;
    cycle: number;
    seq: number;
    client_order_id: string;
    side: 'buy' | 'sell';
    status: string;
    price: string | null;
    filled: string | null;
    fee: string | null;
    reason: string;
    /** A resting order's place in its bot's plan (a grid's level); null: an order sent at market. */
    slot: string | null;
  }[];
  const venue = (await db.query('select * from paper_orders')).rows as {
    client_order_id: string;
    user_id: string;
    symbol: string;
    side: string;
    status: string;
    price: string | null;
    filled: string;
    cost: string;
    fee: string | null;
  }[];
  const balances = (await db.query('select user_id, currency, amount from paper_balances')).rows as { user_id: string; currency: string; amount: string }[];
  const cycles = (await db.query('select bot_id, profit from bot_cycles')).rows as { bot_id: string; profit: string }[];

  /** A bot's whole log, in order, and its resting orders' steps: enough to tell a lost fill from a check's mistake. */
  const storyOf = async (id: string) => {
    const { rows: log } = await db.query<{ kind: string; detail: Record<string, string> }>('select kind, detail from bot_actions where bot_id = $1 order by id', [id]);
    const actions = log
      .map((a) => `${a.kind}${a.detail.order ? ` ${a.detail.order}` : ''}${a.detail.price ? `@${money(a.detail.price).toFixed()}` : ''}${a.detail.message ? ` (${a.detail.message})` : ''}`)
      .join(', ');
    const mine = orders.filter((o) => String(o.bot_id) === id).map((o) => `${o.client_order_id}:${o.slot ?? 'mkt'}:${o.side}:${o.status}`);
    return `${actions}; orders ${mine.join(' ')}`;
  };
  const byId = new Map(orders.map((o) => [o.client_order_id, o]));
  // Orders whose every fill Paper made during the last start (see above).
  const lastMoment = new Set<string>();
  if (settleFrom) {
    const { rows } = await db.query<{ client_order_id: string }>('select client_order_id from paper_trades group by client_order_id having min(created_at) >= $1', [settleFrom]);
    for (const r of rows) lastMoment.add(r.client_order_id);
  }
  for (const v of venue) {
    const mine = byId.get(v.client_order_id);
    check(mine !== undefined, `Paper order ${v.client_order_id} unknown to its bot`);
    if (mine && v.status === 'closed') {
      const same = mine.status === 'filled' && money(mine.filled ?? '0').eq(v.filled) && money(mine.price ?? '0').eq(v.price ?? '0');
      if (!same && !(lastMoment.has(v.client_order_id) && mine.status !== 'filled'))
        check(false, `order ${v.client_order_id} recorded otherwise than Paper filled it (${mine.status}; its bot: ${await storyOf(String(mine.bot_id))})`);
    }
  }
  const venueIds = new Set(venue.map((v) => v.client_order_id));
  for (const o of orders) {
    if (o.status === 'filled') check(venueIds.has(o.client_order_id), `filled order ${o.client_order_id} unknown to Paper`);
    check(o.status !== 'new' && o.status !== 'submitted', `order ${o.client_order_id} still in flight`);
  }
  const grids = new Set(bots.filter((b) => b.type === 'grid').map((b) => String(b.id)));
  // A bot whose orders rest numbers them by the state they were placed in, several to a state, and its
  // market orders by the decisions between its fills: no one sequence to check. Its check is that no level
  // ever has two orders on the venue at once, at the end as all along (the slots' orders are unique there).
  const resting = new Set(orders.filter((o) => o.slot !== null).map((o) => String(o.bot_id)));
  const openAt = new Map<string, string[]>();
  for (const v of venue.filter((x) => x.status === 'open')) {
    const mine = byId.get(v.client_order_id);
    if (mine?.slot) openAt.set(`${mine.bot_id}:${mine.slot}`, [...(openAt.get(`${mine.bot_id}:${mine.slot}`) ?? []), v.client_order_id]);
  }
  for (const [slot, ids] of openAt) check(ids.length === 1, `slot ${slot} has ${ids.length} orders open on Paper: ${ids.join(', ')}`);
  const seqs = new Map<string, number[]>();
  for (const o of [...orders].filter((x) => !resting.has(String(x.bot_id))).sort((a, b) => a.seq - b.seq)) {
    const key = grids.has(String(o.bot_id)) ? `${o.bot_id}` : `${o.bot_id}-${o.cycle}`;
    seqs.set(key, [...(seqs.get(key) ?? []), o.seq]);
  }
  for (const [key, list] of seqs)
    check(
      list.every((s, i) => s === i + 1),
      `sequence of ${key} has a gap or a repeat: ${list.join(',')}`,
    );

  const expected = new Map<string, ReturnType<typeof money>>();
  const add = (user: string, c: string, d: ReturnType<typeof money>) => expected.set(`${user}:${c}`, (expected.get(`${user}:${c}`) ?? money(0)).plus(d));
  for (const user of new Set(bots.map((b) => String(b.user_id)))) add(user, 'USDT', money(10000));
  for (const v of venue.filter((x) => x.status === 'closed')) {
    const [base, quote] = v.symbol.split('/') as [string, string];
    const user = String(v.user_id);
    if (v.side === 'buy') {
      add(user, quote, money(v.cost).neg());
      add(user, base, money(v.filled).minus(v.fee ?? '0'));
    } else {
      add(user, base, money(v.filled).neg());
      add(user, quote, money(v.cost).minus(v.fee ?? '0'));
    }
  }
  for (const b of balances) {
    const want = (expected.get(`${b.user_id}:${b.currency}`) ?? money(0)).toFixed();
    check(money(b.amount).toFixed() === want, `trader ${b.user_id} ${b.currency}: ${money(b.amount).toFixed()}, fills say ${want}`);
  }

  for (const bot of bots) {
    const id = String(bot.id);
    const mine = orders.filter((o) => String(o.bot_id) === id && o.status === 'filled');
    const realized = cycles.filter((c) => String(c.bot_id) === id).reduce((s, c) => s.plus(c.profit), money(0));
    // To 1e-12: the sum here rounds to decimal.js's 20 significant digits, the stored total is exact.
    check(money(bot.realized).minus(realized).abs().lt('1e-12'), `bot ${id} realised ${bot.realized}, its cycles ${realized.toFixed()}`);
    const want = commanded.get(id)?.action === 'pause' ? 'paused' : commanded.get(id)?.action === 'stop' ? 'stopped' : 'running';
    if (bot.status !== want) check(false, `bot ${id} is ${bot.status}${bot.error ? ` (${bot.error})` : ''}, not ${want} (${await storyOf(id)})`);
    if (bot.type === 'grid') {
      const held = (bot.state as StoredGridState).orders.filter((o) => o?.side === 'sell').reduce((sum, o) => sum.plus(o!.amount), money(0));
      const bought = mine.filter((o) => o.side === 'buy').reduce((sum, o) => sum.plus(money(o.filled!).minus(o.fee ?? '0')), money(0));
      const sold = mine.filter((o) => o.side === 'sell').reduce((sum, o) => sum.plus(o.filled!), money(0));
      // Each sell is floored to the symbol's step (strategy/grid), so up to one step of dust stays unsold per filled
      // buy, and per sell level at the start (the start buy is shared out over them, each share floored).
      const floors = mine.filter((o) => o.side === 'buy').length + (bot.state as StoredGridState).orders.length;
      const dust = money(new SimulatedMarket().info(symbolOf.get(id) ?? 'BTC/USDT').step).mul(floors);
      if (!(held.lte(bought.minus(sold)) && bought.minus(sold).minus(held).lte(dust))) {
        // What it did last, and what its state says: enough to tell a lost fill from a check's mistake.
        const state = bot.state as StoredGridState & { phase?: string; pending?: unknown };
        const last = mine.slice(-6).map((o) => `#${o.seq} ${o.side} ${o.reason} ${o.filled}${o.fee ? ` fee ${o.fee}` : ''}`);
        const slots = state.orders.map((o) => (o ? `${o.side[0]}${money(o.amount).toFixed()}` : '-')).join(' ');
        // Its whole log, in order: which booking the state lost.
        const story = await storyOf(id);
        check(
          false,
          `grid ${id} holds ${held.toFixed()}, its fills ${bought.minus(sold).toFixed()} (phase ${state.phase}, pending ${JSON.stringify(state.pending ?? null)}, slots [${slots}], last fills: ${last.join('; ')}; its log: ${story})`,
        );
      }
      continue;
    }
    const state = bot.state as StoredMartinState;
    const buys = mine.filter((o) => o.cycle === state.cycle && o.side === 'buy');
    const fills = state.fills.map((f) => `${money(f.price).toFixed()}x${money(f.amount).toFixed()}`).join(' ');
    const recorded = buys.map((o) => `${money(o.price!).toFixed()}x${money(o.filled!).toFixed()}`).join(' ');
    check(fills === recorded, `martin ${id} state fills [${fills}], its orders [${recorded}]`);
  }
  return problems;
}
