// How many bots one process keeps at a 1 s round on PostgreSQL, and what its leases cost.
// For each N, a fresh database (quantbot_bench_<N>_<random>, created and dropped here) gets N running
// Paper bots (2 of 3 martin, 1 of 3 grid, 10 per trader, inserted in bulk as bots.ts's createBot stores
// them: checked parameters, the kit's initial state), and this process runs the engine as main.ts builds
// it: createTrading with a cluster Worker (LEASE_TTL_MS 10 s: a heartbeat every 2 s, an ownership round
// every 1 s on its own timer). The rounds are driven here, one a second: a round is engine.tick() (every
// symbol priced once, every bot evaluated by the BotBook) and the decisions it caused carried out to the
// end (committed, sent to Paper, the answer committed): engine.idle(). Every SQL statement is timed by
// Kysely's log hook (the time on its connection, not the pool's wait) and sorted: the lease statements
// (heartbeat, the ownership round's reads and compare-and-sets) against the per-decision fences
// (checkLease in the decision, Paper's sender check). `node bench/bots-per-process.ts [N ...]`
// (default 250 1000 2000; `--rounds R`, default 20; `--grids20`: every bot a grid resting 20 limit orders,
// one a trader); in `npm run bench` the default sizes, and 4000 with `--bots-max`. Needs the machine's PostgreSQL (TEST_DATABASE_URL, a superuser).
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { Kysely, type LogEvent, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import type { Db } from '../server/db/connect.ts';
import { migrate } from '../server/db/connect.ts';
import type { Database } from '../server/db/schema.ts';
import { Worker } from '../server/cluster/workers.ts';
import { liveWorkers, owned as ownedLeases, wanted } from '../server/cluster/leases.ts';
import { createTrading, fastClock } from '../server/trading.ts';
import { storedParams } from '../server/services/bots.ts';
import { PAPER_START_BALANCE } from '../server/exchanges/paper-fill.ts';
import { PG_URL } from '../server/testing/test-support.ts';
import { kitOf } from '../strategy/kit.ts';
import { botId } from '../strategy/types.ts';
import { median, percentile, round } from './stats.ts';

const SYMBOLS = ['BTC/USDT', 'ETH/USDT', 'BNB/USDT', 'SOL/USDT', 'XRP/USDT', 'DOGE/USDT', 'LTC/USDT', 'ADA/USDT'];
const BOTS_PER_TRADER = 10;

/** What the statements of one kind cost: how many, and their summed time on the connection. */
interface Tally {
  n: number;
  ms: number;
}

/** The statements the lease machinery sends, by what they do (server/cluster/leases.ts, workers.ts). */
const KINDS: [string, RegExp][] = [
  ['liveWorkers', /^select id from workers where not draining/],
  ['wanted', /from bots b left join bot_leases l/],
  ['wantedInsert', /^insert into bot_leases \(bot_id\)/],
  ['claim', /^update bot_leases l set worker_id/],
  ['owned', /from bot_leases l join bots b on b\.id = l\.bot_id where l\.worker_id/],
  ['release', /^update bot_leases set worker_id = null where worker_id = \$1 and bot_id in/],
  // The commands waiting for this worker's bots (manual add and close forwarded to the owner), read each round.
  ['commands', /from bot_commands c join bot_leases l/],
  ['decisionFence', /^select worker_id, epoch from bot_leases where bot_id = \$1 for update/],
  ['paperFence', /join bot_leases l on l\.bot_id = o\.bot_id .*for share of l/],
  ['decision', /^select "status", "deleted_at" from "bots" where "id" = \$1 for update/],
  ['paperOrder', /^insert into "paper_orders"/],
];
const ROUND_KINDS = ['heartbeat', 'liveWorkers', 'wanted', 'wantedInsert', 'claim', 'owned', 'release', 'commands'];

class Meter {
  tallies = new Map<string, Tally>();
  /** Every statement by its text (the first 90 characters): where the database time goes. */
  texts = new Map<string, Tally>();
  all: Tally = { n: 0, ms: 0 };
  on = false;
  record(event: LogEvent): void {
    if (!this.on || event.level !== 'query') return;
    const text = event.query.sql.replace(/\s+/g, ' ').trim();
    this.all.n++;
    this.all.ms += event.queryDurationMillis;
    const head = text.slice(0, 90);
    const t = this.texts.get(head) ?? { n: 0, ms: 0 };
    t.n++;
    t.ms += event.queryDurationMillis;
    this.texts.set(head, t);
    const kind = KINDS.find(([, pattern]) => pattern.test(text))?.[0];
    if (kind) this.add(kind, event.queryDurationMillis);
  }
  add(kind: string, ms: number): void {
    const t = this.tallies.get(kind) ?? { n: 0, ms: 0 };
    t.n++;
    t.ms += ms;
    this.tallies.set(kind, t);
  }
  get(kind: string): Tally {
    return this.tallies.get(kind) ?? { n: 0, ms: 0 };
  }
  reset(): void {
    this.tallies.clear();
    this.texts.clear();
    this.all = { n: 0, ms: 0 };
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** N running Paper bots of N / 10 traders, each trader with Paper's starting balance. */
/** Which bots: the default mix (2/3 martin, 1/3 grid), or every bot a grid of 20 grids (20 resting orders each). */
export type BotMix = 'mixed' | 'grids20';

async function insertBots(db: Db, n: number, price: (symbol: string) => Promise<string>, mix: BotMix = 'mixed'): Promise<void> {
  // grids20: one grid a trader (its 5,000 USDT of the account's 10,000).
  const perTrader = mix === 'grids20' ? 1 : BOTS_PER_TRADER;
  const traders = Math.ceil(n / perTrader);
  const tag = randomBytes(3).toString('hex');
  const userIds: string[] = [];
  for (let from = 0; from < traders; from += 500) {
    const rows = await db
      .insertInto('users')
      .values(
        Array.from({ length: Math.min(500, traders - from) }, (_, i) => ({
          sn: String(50_000_000 + from + i),
          account: `bench${tag}${from + i}`,
          password_hash: null,
          payment_hash: null,
          nickname: 'bench',
          email: '',
          mobile: '',
          address: null,
          avatar: '',
          referrer_id: null,
        })),
      )
      .returning('id')
      .execute();
    userIds.push(...rows.map((r) => String(r.id)));
  }
  await db
    .insertInto('paper_balances')
    .values(userIds.flatMap((user_id) => Object.entries(PAPER_START_BALANCE).map(([currency, amount]) => ({ user_id, exchange_id: 1, currency, amount }))))
    .execute();
  // Martin: 600 USDT of 20 USDT orders, adding and taking profit at 0.2-1 % (bot i: 0.2 + 0.1 x (i mod 9));
  // grid: 1,000 USDT over 6-15 levels within ±1-3 % of the price now. 7 martin + 3 grid = 7,200 of
  // 10,000 USDT. Varied, so that the bots on one symbol do not all act at the same price (they all open
  // in the same round, at the same price: the opening round below).
  const martin = (i: number) => {
    const step = (0.2 + 0.1 * (i % 9)).toFixed(1);
    return storedParams('martin', { investment: '600', firstOrder: '20', multiplier: '1', maxPositions: 30, addTrigger: step, takeProfit: step, repeat: true });
  };
  const prices = new Map<string, number>();
  for (const symbol of SYMBOLS) prices.set(symbol, Number(await price(symbol)));
  const grid = (i: number, symbol: string) => {
    const p = prices.get(symbol)!;
    // grids20: 20 grids over ±4-6 % (21 levels, one of them empty: 20 resting orders), 5,000 USDT each.
    const width = mix === 'grids20' ? 0.04 + 0.01 * (i % 3) : 0.01 * (1 + (i % 3));
    const grids = mix === 'grids20' ? 20 : 6 + (i % 10);
    return storedParams('grid', {
      investment: mix === 'grids20' ? '5000' : '1000',
      lower: String(p * (1 - width)),
      upper: String(p * (1 + width)),
      grids,
      spacing: 'arithmetic',
      stopLoss: '',
      takeProfit: '',
    });
  };
  const bots = Array.from({ length: n }, (_, i) => {
    const type = mix === 'grids20' || i % 3 === 2 ? 'grid' : 'martin';
    const symbol = SYMBOLS[i % SYMBOLS.length]!;
    const kit = kitOf(type);
    return {
      user_id: userIds[Math.floor(i / perTrader)]!,
      exchange_id: 1,
      symbol,
      type,
      name: `${type} ${i}`,
      params: JSON.stringify(type === 'grid' ? grid(i, symbol) : martin(i)),
      status: 'running' as const,
      state: JSON.stringify(kit.encode(kit.initial(botId('new')))),
    };
  });
  for (let from = 0; from < bots.length; from += 1000)
    await db
      .insertInto('bots')
      .values(bots.slice(from, from + 1000))
      .execute();
}

/** One size: a fresh database with N bots, the engine on it, `rounds` rounds of 1 s measured. */
export async function measureBotsPerProcess(n: number, rounds = 20, log: (line: string) => void = () => undefined, speed = 1, mix: BotMix = 'mixed') {
  const name = `quantbot_bench_${n}_${randomBytes(3).toString('hex')}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const meter = new Meter();
  const url = Object.assign(new URL(PG_URL), { pathname: `/${name}` }).toString();
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  pool.on('error', () => undefined); // an idle connection ended by the database's drop at the end
  // As connectDatabase builds it for DATABASE_URL (a pool of 10), with every statement timed.
  const db: Db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }), log: (event) => meter.record(event) });
  // As main.ts builds it on PostgreSQL: the heartbeat on a connection of its own (timed here by a wrapper).
  const worker = new Worker(db, { ttlMs: 10_000, url });
  const beat = worker.heartbeat.bind(worker);
  worker.heartbeat = async () => {
    const t = performance.now();
    await beat();
    if (meter.on) meter.add('heartbeat', performance.now() - t);
  };
  // The rounds are driven below (tickMs: an hour, so its own timer never fires); the ownership round
  // and the heartbeat run on their timers as in the server.
  let closing = false; // an ownership round in flight when the database closes at the end says so: not news
  const trading = createTrading({
    db,
    cluster: worker,
    tickMs: 3_600_000,
    // grids20: their levels rest on Paper (RESTING_ORDERS=grid); the default mix sends market orders.
    ...(mix === 'grids20' ? { restingTypes: ['grid'] } : {}),
    ...(speed > 1 ? { now: fastClock(speed) } : {}),
    log: { error: (obj, msg) => closing || log(`engine: ${msg} ${String((obj as { err?: Error }).err?.message ?? '')}`) },
  });
  const { engine } = trading;
  try {
    await migrate(db);
    const began = performance.now();
    await insertBots(db, n, (symbol) => trading.prices.price('paper', symbol), mix);
    const insertS = round((performance.now() - began) / 1000, 1);
    const ownedStarted = performance.now();
    await engine.start();
    // The ownership round takes at most 500 bots a round (runner.ts CLAIMS_PER_ROUND).
    const count = async () => Number((await sql<{ n: string }>`select count(*) as n from bot_leases where worker_id = ${worker.id}`.execute(db)).rows[0]!.n);
    while ((await count()) < n && performance.now() - ownedStarted < 120_000) await sleep(200);
    await engine.idle();
    const ownedS = round((performance.now() - ownedStarted) / 1000, 1);
    log(`N=${n}: inserted in ${insertS} s, all owned after ${ownedS} s`);

    // The opening round: every bot places its first order (a burst no steady round sees).
    meter.on = true;
    let t = performance.now();
    await engine.tick();
    await engine.idle();
    const opening = { ms: Math.round(performance.now() - t), decisions: meter.get('decision').n, paperOrders: meter.get('paperOrder').n };
    log(`N=${n}: opening round ${opening.ms} ms, ${opening.decisions} decisions`);
    // Then rounds until the backlog of that burst is worked off (the prices moved meanwhile): a round
    // with at most 1 % of the bots acting, or a minute.
    const settleUntil = performance.now() + 60_000;
    let settleRounds = 0;
    for (;;) {
      const before = meter.get('decision').n;
      const due = performance.now() + 1000;
      await engine.tick();
      await engine.idle();
      settleRounds++;
      if (meter.get('decision').n - before <= Math.max(5, n / 100) || performance.now() > settleUntil) break;
      await sleep(Math.max(0, due - performance.now()));
    }
    log(`N=${n}: settled after ${settleRounds} rounds`);

    // The measured rounds: one started every second, as the engine's timer does.
    meter.reset();
    const times: number[] = [];
    const decisions: number[] = [];
    const cpu = process.cpuUsage();
    const elu = performance.eventLoopUtilization();
    const started = performance.now();
    let late = 0;
    for (let i = 0; i < rounds; i++) {
      const due = started + i * 1000;
      const wait = due - performance.now();
      if (wait > 0) await sleep(wait);
      else if (wait < -10) late++; // the previous round ran past this one's second
      const before = meter.get('decision').n;
      t = performance.now();
      await engine.tick();
      await engine.idle();
      times.push(performance.now() - t);
      decisions.push(meter.get('decision').n - before);
    }
    await sleep(Math.max(0, started + rounds * 1000 - performance.now()));
    log(`N=${n}: rounds (ms) ${times.map((ms) => Math.round(ms)).join(' ')}`);
    const seconds = (performance.now() - started) / 1000;
    const used = process.cpuUsage(cpu);
    const loop = performance.eventLoopUtilization(elu);
    meter.on = false;
    const per = (kinds: string[]) => {
      const n = kinds.reduce((s, k) => s + meter.get(k).n, 0);
      const ms = kinds.reduce((s, k) => s + meter.get(k).ms, 0);
      return { statementsPerS: round(n / seconds, 2), msPerS: round(ms / seconds, 2) };
    };
    // The ownership round's statements alone, 20 times each on a quiet engine: what the database spends
    // on them at this N, without the event loop's or the other statements' share.
    const alone = async (run: () => Promise<unknown>) => {
      const times: number[] = [];
      for (let i = 0; i < 20; i++) {
        const t0 = performance.now();
        await run();
        times.push(performance.now() - t0);
      }
      return round(median(times), 2);
    };
    const quiet = {
      heartbeat: await alone(() => beat()),
      liveWorkers: await alone(() => liveWorkers(db, worker.ttlMs)),
      wanted: await alone(() => wanted(db, worker.ttlMs)),
      owned: await alone(() => ownedLeases(db, worker.id)),
    };
    const owned = meter.get('owned');
    const wanted2 = meter.get('wanted');
    const fenceDecision = meter.get('decisionFence');
    const fencePaper = meter.get('paperFence');
    // The limit orders resting on Paper for the bots (grids: one a level but the empty one).
    const resting = Number((await sql<{ n: string }>`select count(*) as n from bot_orders where slot is not null and status = 'open'`.execute(db)).rows[0]!.n);
    const result = {
      bots: n,
      mix,
      restingOrders: resting,
      marketSpeed: speed,
      rounds,
      roundMs: { p50: round(median(times), 1), p95: round(percentile(times, 0.95), 1), max: round(Math.max(...times), 1) },
      roundsStartedLate: late,
      decisionsPerRound: { p50: median(decisions), max: Math.max(...decisions), total: decisions.reduce((s, d) => s + d, 0) },
      // The lease machinery per second (= per round): the heartbeat (one UPDATE every 2 s) and the ownership round.
      leasePerRound: per(ROUND_KINDS),
      heartbeatPerRound: per(['heartbeat']),
      ownedReadMs: round(owned.ms / Math.max(1, owned.n), 2),
      wantedReadMs: round(wanted2.ms / Math.max(1, wanted2.n), 2),
      leaseStatementsAloneMs: quiet,
      // Per decision, not per bot: the lease row checked in the decision and in Paper's order transaction.
      fencePerDecisionMs: { decision: round(fenceDecision.ms / Math.max(1, fenceDecision.n), 2), paper: round(fencePaper.ms / Math.max(1, fencePaper.n), 2) },
      statementsPerS: round(meter.all.n / seconds, 1),
      sqlMsPerS: round(meter.all.ms / seconds, 1),
      processCpuPercent: round(((used.user + used.system) / 1000 / (seconds * 1000)) * 100, 1),
      eventLoopUtilization: round(loop.utilization, 2),
      // The statements that took the most database time in the measured rounds.
      topStatements: [...meter.texts]
        .sort((a, b) => b[1].ms - a[1].ms)
        .slice(0, 8)
        .map(([text, t]) => `${round(t.ms / seconds, 1)} ms/s, ${round(t.n / seconds, 1)}/s: ${text}`),
      setup: { insertS, ownedS, openingRound: opening, settleRounds },
    };
    log(`N=${n}: ${JSON.stringify(result)}`);
    return result;
  } finally {
    closing = true;
    engine.halt();
    await engine.idle().catch(() => undefined);
    await db.destroy().catch(() => undefined);
    await admin.query(`drop database if exists ${name} with (force)`).catch(() => undefined);
    await admin.end();
  }
}

/** Each size in turn (default 250, 1,000 and 2,000 bots). */
export async function measureBotsPerProcessSizes(sizes: readonly number[] = [250, 1000, 2000], rounds = 20, log: (line: string) => void = () => undefined, speed = 1, mix: BotMix = 'mixed') {
  const results = [];
  for (const n of sizes) results.push(await measureBotsPerProcess(n, rounds, log, speed, mix));
  return {
    target: '>= 2,000 bots per process at a 1 s round; lease cost independent of the bot count',
    results,
    note: `one process (this one) running createTrading + a cluster Worker on a fresh PostgreSQL database per size; MARKET_SPEED ${speed}; ${mix === 'grids20' ? 'every bot a grid of 20 grids (±4-6 %, 5,000 USDT, one a trader): 20 orders resting on Paper each' : '2/3 martin (0.2-1 % add and take profit), 1/3 grid (±1-3 %, 6-15 levels, at market)'}`,
  };
}

if (import.meta.main) {
  const args = process.argv.slice(2);
  const at = args.indexOf('--rounds');
  const rounds = at >= 0 ? Number(args[at + 1]) : 20;
  const fast = args.indexOf('--speed');
  const speed = fast >= 0 ? Number(args[fast + 1]) : 1;
  const sizes = args.filter((a, i) => /^\d+$/.test(a) && args[i - 1] !== '--rounds' && args[i - 1] !== '--speed').map(Number);
  const mix: BotMix = args.includes('--grids20') ? 'grids20' : 'mixed';
  console.log(JSON.stringify(await measureBotsPerProcessSizes(sizes.length > 0 ? sizes : undefined, rounds, (line) => console.error(line), speed, mix), null, 2));
}
