// `npm run bench`: the figures of the performance table (docs/performance.md). `--fresh` also times `npm start`
// on a fresh clone (a full install and build: minutes). Needs a built dist/ (`npm run build`).
import { measureServerReady, registerBenchUser } from './server-ready.ts';
import { measureLogins } from './login-round-trip.ts';
import { measureLoginEntry } from './entry-size.ts';
import { measureFreshStart } from './fresh-start.ts';
import { measureBacktest } from './backtest.ts';
import { measureCustomBacktest } from './custom-backtest.ts';
import { measureDcaBacktest } from './dca-backtest.ts';
import { measureSignals } from './signal-latency.ts';
import { measureBotBook } from './bot-book.ts';
import { measureBotListLoad } from './bot-list-load.ts';
import { measurePrecache } from './precache-size.ts';
import { measureRepeatVisitFcp } from './repeat-visit.ts';
import { measureLighthouse } from './lighthouse.ts';
import { measureWalletLogin } from './wallet-login.ts';
import { measureDepositCredit } from './deposit-credit.ts';
import { measureBacktestAnswer } from './backtest-answer.ts';
import { measureAiSearch, measureMartinSweep, measureMartinSweepThreads } from './ai-search.ts';
import { measureAiSearchPairs } from './ai-search-pairs.ts';
import { measureParity } from './parity.ts';
import { measureFlood } from './flood.ts';
import { measureHeavyAttack } from './heavy-attack.ts';
import { measureAiSearchPool } from './ai-search-pool.ts';
import { measureClusterChaos } from './cluster-chaos.ts';
import { measureBotsPerProcessSizes } from './bots-per-process.ts';
import { measureBotListCluster } from './bot-list-cluster.ts';
import { measureStreams } from './streams.ts';
import { measureStreamsBesideBots } from './streams-engine.ts';
import { measureLiveScreen } from './live-screen.ts';
import { measureReconciliationRound } from './reconciliation-round.ts';
import { measureMakerSavings } from './maker-savings.ts';
import { measurePerpetualRounds } from './perp-liquidation.ts';
import { median, percentile, round } from './stats.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const port = 19_000 + Math.floor(Math.random() * 500);
const results: Record<string, unknown> = {};

const readyTimes: number[] = [];
for (let i = 0; i < 3; i++) {
  const server = await measureServerReady(port);
  readyTimes.push(server.ms);
  if (i < 2) {
    await server.stop();
    continue;
  }
  const base = `http://127.0.0.1:${port}`;
  const entry = await measureLoginEntry(base);
  results.loginEntry = { gzipKB: entry.gzipKB, files: entry.files.map((f) => `${f.path} ${round(f.gzip / 1000)} kB`), walletOrChartCode: entry.walletOrChartCode };
  await measureLogins(base, 20); // warm-up: JIT, argon2 pool, database caches
  const logins = await measureLogins(base, 200);
  const { token, user } = await registerBenchUser(base, `fcp${Date.now().toString(36)}`);
  results.walletLoginMs = await measureWalletLogin(base);
  results.backtest30Days = await measureBacktestAnswer(base, token);
  results.repeatVisitFcp = { login: await measureRepeatVisitFcp(base, '/login'), home: await measureRepeatVisitFcp(base, '/', 7, { token, user }) };
  if (!process.argv.includes('--no-lighthouse')) {
    results.lighthouse = { login: await measureLighthouse(base, '/login', 5), home: await measureLighthouse(base, '/', 5, { token, user }) };
  }
  results.loginRoundTripMs = { median: round(median(logins), 2), p95: round(percentile(logins, 0.95), 2), n: logins.length };
  await server.stop();
}
results.serverReadyMs = { median: Math.round(median(readyTimes)), runs: readyTimes.map(Math.round), note: 'fresh data dir (first start)' };
const restarts: number[] = [];
const dataDir = mkdtempSync(join(tmpdir(), 'bench-restart-'));
for (let i = 0; i < 4; i++) {
  const server = await measureServerReady(port, dataDir);
  if (i > 0) restarts.push(server.ms);
  await server.stop(false);
}
rmSync(dataDir, { recursive: true, force: true });
results.serverRestartReadyMs = { median: Math.round(median(restarts)), runs: restarts.map(Math.round), note: 'existing data dir' };

results.backtestMartin = measureBacktest();
// A custom bot with 3 indicator conditions on 1-minute candles (>= 300 k candles/s on one core).
results.backtestCustom = measureCustomBacktest();
// A DCA bot with a cooldown on a year of 1-minute candles (>= 1 M candles/s on one core).
results.backtestDca = measureDcaBacktest();
// A signal from the webhook to the order sent on Paper.
const signals = await measureSignals(40);
results.signalToOrderMs = { median: round(median(signals), 2), p95: round(percentile(signals, 0.95), 2), n: signals.length };
results.aiSearch = measureAiSearch();
// The search's 575 martin configurations over 30 days, one core (target: >= 1,000 configurations/s).
results.martinSweep = measureMartinSweep();
// The same sweep split over both cores' threads, as the heavy-work pool splits a search.
results.martinSweepTwoThreads = await measureMartinSweepThreads(2);
// Every Paper pair within 10 s (one search each, in this thread).
results.aiSearchPairs = measureAiSearchPairs();
results.parity7Days = await measureParity();
results.priceUpdate10kBots = measureBotBook();
results.botListLoad = await measureBotListLoad(port + 2);
results.depositCredit = await measureDepositCredit();
results.registerFlood = await measureFlood(port + 3);
// Heavy work thrown at the server (4 heavy backtests, 130 heavy custom starts): the engine's rounds and another trader's p99.
results.heavyAttack = { pglite: await measureHeavyAttack(port + 5), postgres: await measureHeavyAttack(port + 6, { postgres: true }) };
// The AI search as the server runs it (the heavy-work pool, split over its threads) on every Paper pair.
results.aiSearchPool = await measureAiSearchPool();
const precache = measurePrecache();
// Live streams: 10,000 idle ones in this process (memory each), and an event's commit to its frame.
results.streams = await measureStreams(10_000);
// 2,000 streams beside 100 Paper bots: the engine's round against none (target: within 10 %).
results.streamsBesideBots = await measureStreamsBesideBots();
// A bot's change to its screen in Chromium through the live stream (target: < 300 ms median).
results.liveScreen = await measureLiveScreen(port + 7);
// A reconciliation round of an account with 1,000 resting orders on the fake Binance (the real ccxt client).
results.reconciliationRound = await measureReconciliationRound();
// What a grid's resting orders save against market orders per 100 level fills, on the same simulated week.
results.makerSavings = measureMakerSavings();
results.perpetualRounds = measurePerpetualRounds();
results.precache = { entries: precache.entries, gzipKB: precache.gzipKB, rawKB: precache.rawKB, notPrecached: precache.missing };

// On PostgreSQL: the bots one process keeps at a 1 s round and its lease cost, at the real
// market's speed and at 60x (where the decisions per second, not the bot count, set the limit); and
// botList with 1 and 2 processes. `--bots-max` adds 4,000 bots, and 2,000 at 60x (a few minutes more).
const maxBots = process.argv.includes('--bots-max');
results.botsPerProcess = await measureBotsPerProcessSizes(maxBots ? [250, 1000, 2000, 4000] : [250, 1000, 2000]);
results.botsPerProcessMarket60x = await measureBotsPerProcessSizes(maxBots ? [1000, 2000] : [1000], 20, undefined, 60);
// `--resting`: 2,000 grids of 20 grids each, 40,000 limit orders resting on Paper, the round against its 1 s tick.
if (process.argv.includes('--resting')) results.restingOrdersPerProcess = await measureBotsPerProcessSizes([2000], 20, undefined, 1, 'grids20');
results.botListOneVsTwoProcesses = await measureBotListCluster(port + 4);

// 3 processes on PostgreSQL, 60 bots, 20 SIGKILLs and 4 SIGSTOPs (about 5 minutes).
if (process.argv.includes('--chaos')) results.clusterChaos = await measureClusterChaos();
if (process.argv.includes('--fresh')) results.freshCloneNpmStartS = round(await measureFreshStart(port + 1));

console.log(JSON.stringify(results, null, 2));
