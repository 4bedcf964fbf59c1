// The chaos test at full size: 3 server processes on a fresh PostgreSQL database, 60 bots (40 martin, 20
// grid) of 10 traders on Paper, 20 SIGKILLs with restarts, 4 SIGSTOPs of TTL + 2 s, a rolling restart
// (each process SIGTERMed and started again in turn), a pause and a stop meanwhile (the run: server/testing/chaos-run.ts, the same as
// server/cluster/chaos.test.ts, which asserts what this prints). Prints the takeover after the loss of a process (to the next
// accepted order of each of its bots, and to its new lease), duplicate and stale sends, and the calls
// Paper refused because their sender no longer held the bot's lease. Runs alone:
// `node bench/cluster-chaos.ts` (Node 24), or in `npm run bench -- --chaos`. Needs the machine's
// PostgreSQL (TEST_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/test, a superuser).
// LEASE_TTL_MS (default 3000, the test's) sets the processes' lease TTL; CHAOS_KILLS (20) and
// CHAOS_STOPS (4) make a shorter run, e.g. at the server's default TTL:
// `LEASE_TTL_MS=10000 CHAOS_KILLS=8 CHAOS_STOPS=1 node bench/cluster-chaos.ts` (the rolling restart's 3 SIGTERMs always run).
// The grids' orders rest on Paper (RESTING_ORDERS' default); RESTING_ORDERS=none sends them at market in the three processes.
import { PG_URL } from '../server/testing/test-support.ts';
import { runChaos } from '../server/testing/chaos-run.ts';
import { median, percentile } from './stats.ts';

export async function measureClusterChaos(log: (line: string) => void = () => undefined) {
  const ttlMs = Number(process.env.LEASE_TTL_MS ?? 3000);
  const kills = Number(process.env.CHAOS_KILLS ?? 20);
  const stops = Number(process.env.CHAOS_STOPS ?? 4);
  const env = process.env.RESTING_ORDERS ? { RESTING_ORDERS: process.env.RESTING_ORDERS } : undefined;
  const r = await runChaos({ adminUrl: PG_URL, traders: 10, martinPerTrader: 4, gridPerTrader: 2, kills, stops, ttlMs, takeoverWaitMs: 20_000, env, log });
  const figures = (list: number[]) => ({ p50: Math.round(median(list)), p95: Math.round(percentile(list, 0.95)), max: Math.max(...list), n: list.length });
  return {
    bots: r.bots,
    ttlMs,
    kills,
    stops,
    events: r.events.map((e) => `${e.kind}(${e.orphans})`).join(' '),
    takeoverToNextOrderMs: figures(r.takeoverMs),
    takeoverToLeaseMs: figures(r.leaseMs),
    leaseAfterSigkillMs: figures(r.leases.filter((l) => l.kind === 'kill').map((l) => l.ms)),
    leaseAfterSigstopMs: figures(r.leases.filter((l) => l.kind === 'stop').map((l) => l.ms)),
    leaseAfterSigtermMs: figures(r.leases.filter((l) => l.kind === 'term').map((l) => l.ms)),
    noNewLeaseWithin20s: r.untaken,
    leasedButNoOrderWithin20s: r.idle.length + r.quiet.length,
    ofThemNothingToDoAtThePrices: r.quiet.length,
    ofThemWithSomethingToDo: r.idle,
    orders: r.orders,
    calls: r.calls,
    duplicates: r.duplicates.map((d) => d.text),
    staleAccepted: r.stale.length,
    repeatsAnsweredByPaper: r.repeats.length,
    refusedByPaperLeaseFence: r.refused.length,
    ordersAfterPauseOrStop: r.afterCommand.length,
    conflictsInLogs: r.conflicts.length,
    bookProblems: r.books,
    wallS: Math.round(r.wallMs / 1000),
  };
}

if (import.meta.main) console.log(JSON.stringify(await measureClusterChaos((line) => console.error(line)), null, 2));
