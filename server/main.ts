import { readConfig } from './config.ts';
import { connectDatabase, migrate } from './db/connect.ts';
import { pruneSessions } from './services/sessions.ts';
import { SecretKeyRefused, checkServerKey, loadServerKey } from './security/key-check.ts';
import { lockDataDirOrExit } from './db/data-dir-lock.ts';

// Everything the server creates (DATA_DIR, the database, the key file) is readable by its own user only.
process.umask(0o077);
const started = performance.now();
const config = readConfig();
// The embedded database serves one process: a second one on this DATA_DIR stops here, before listening.
if (!config.databaseUrl) lockDataDirOrExit(config.dataDir);
// The embedded database takes most of the start-up (~3 s for a first initdb, under 1 s from the
// cached template or an existing folder): start it first, load the HTTP side (Fastify, zod, the
// routes) while it boots, and listen at once: the PWA is served meanwhile, /api calls wait for it.
const { db, ready } = connectDatabase(config.databaseUrl ? { url: config.databaseUrl } : { dataDir: config.dataDir });
// One key for every process on the database: checked against the database's before any request is served.
const key = loadServerKey(config);
const box = key.box;
const dbReady = ready.then(() => migrate(db)).then(() => checkServerKey(db, key));
dbReady.catch(() => undefined); // awaited below; this only keeps an early failure from being "unhandled"
const { buildApp } = await import('./http/app.ts');
// Backtests, AI searches and warm-up histories run in worker threads, never on the event loop that
// runs the engine's rounds and the heartbeat: their number and limits come from the configuration.
const heavy = await import('./workers/heavy-pool.ts');
const heavyDefaults = heavy.defaultHeavyOptions();
heavy.configureHeavyPool({
  threads: config.heavyThreads,
  perTrader: config.backtestQueue,
  deadlineMs: { ...heavyDefaults.deadlineMs, backtest: config.backtestDeadlineMs },
});
const { createTrading, fastClock } = await import('./trading.ts');
const { createLiveTrading } = await import('./exchanges/live-trading.ts');
const { readCredentials } = await import('./services/exchange-keys.ts');
const { ccxtClientAt } = await import('./exchanges/verify.ts');
type LiveCredentials = import('./exchanges/live.ts').LiveCredentials;
const { Worker, leaseTtlMs } = await import('./cluster/workers.ts');
// This process as a worker of the cluster: on PostgreSQL any number of processes share
// the bots through leases; the embedded PGlite is one process, a one-worker cluster.
const cluster = new Worker(db, { ttlMs: leaseTtlMs(), solo: !config.databaseUrl, url: config.databaseUrl, log: { error: (obj, msg) => app.log.error(obj, msg) } });
// What GET /metrics shows: the HTTP side's figures and the orders the trading side sends.
const metrics = new (await import('./metrics.ts')).Metrics({ workerId: cluster.id });
// The simulated market's clock (MARKET_SPEED > 1): from this process's start, until the database
// gives the origin all processes share (below, before the engine starts).
let marketClock = fastClock(config.marketSpeed);
// The chaos test's record of every Paper order (tests only: the harness starts this process with it).
const paperAudit = process.env.TEST_VENUE_AUDIT === '1' ? (await import('./testing/venue-audit.ts')).paperAudit : undefined;
const trading = createTrading({
  db,
  paperAudit,
  cluster,
  metrics,
  live: createLiveTrading({
    db,
    box,
    credentials: (userId, exchangeId) => readCredentials({ db, box }, userId, exchangeId),
    // A live exchange's API at another origin (EXCHANGE_URLS: a local stand-in for demos and tests).
    ...(Object.keys(config.exchangeUrls).length > 0
      ? { ccxt: async (exchange: string, credentials?: LiveCredentials) => (await import('./exchanges/live.ts')).ccxtInstance(exchange, credentials, config.exchangeUrls[exchange]) }
      : {}),
  }),
  tickMs: config.engineTickMs,
  stalePriceMs: config.stalePriceMs,
  reconcileEveryMs: config.reconcileEveryMs,
  restingTypes: config.restingTypes,
  fuelFeeRate: config.fuelFeeRate,
  referralRates: config.referralRates,
  ...(config.marketSpeed > 1 ? { now: () => marketClock() } : {}),
});
// Chain 56: deposits and withdrawals. DEV_CHAIN=1 starts a local anvil with the project's contracts
// (demos); production sets CHAIN_RPC_URL, CHAIN_USDT, CHAIN_DEPOSIT and HOT_WALLET_KEY.
// The demo's chain is kept under DATA_DIR on a fixed port (DEV_CHAIN_PORT): a restart finds the same
// chain, contracts and balances, so the deposit address and the records stay good.
const devChain = config.chain.dev ? await (await import('./chain/dev-chain.ts')).startDevChain({ blockTime: 1, stateDir: config.dataDir, port: config.chain.devPort }) : undefined;
if (devChain) {
  Object.assign(config.chain, { rpcUrl: devChain.url, usdt: devChain.usdt, deposit: devChain.deposit, hotWalletKey: devChain.hotWalletKey, confirmations: Math.min(config.chain.confirmations, 3) });
  console.log(`dev chain 56 on ${devChain.url}: USDT ${devChain.usdt}, deposit contract ${devChain.deposit}`);
}
const { openChain } = await import('./chain/chain-side.ts');
// Duties of one process at a time: following the chain and sending withdrawals (fenced),
// AI re-tuning, pruning. The embedded PGlite is one process: it holds them all.
const { Singleton, runDuties } = await import('./cluster/singletons.ts');
const duties = {
  chain: new Singleton(db, cluster, 'chain'),
  retune: new Singleton(db, cluster, 'ai-retune'),
  maintenance: new Singleton(db, cluster, 'maintenance'),
  alerts: new Singleton(db, cluster, 'alerts'),
};
const chain = openChain(db, config.chain, { error: (obj, msg) => app.log.error(obj, msg) }, duties.chain);
const app = await buildApp({
  db,
  config,
  box,
  ready: dbReady,
  trading,
  metrics,
  ...(config.databaseUrl ? { databaseUrl: config.databaseUrl } : {}),
  ...(chain ? { chain } : {}),
  ...(devChain ? { faucet: devChain.faucet } : {}),
  ...(Object.keys(config.exchangeUrls).length > 0 ? { exchangeClient: ccxtClientAt(config.exchangeUrls) } : {}),
});
trading.engine.log = app.log;
await app.listen({ port: config.port, host: config.host });
try {
  await dbReady;
} catch (e) {
  console.error(e instanceof SecretKeyRefused ? e.message : `database failed to start: ${(e as Error)?.message ?? String(e)}`);
  await app.close();
  process.exit(1);
}
if (config.databaseUrl && !config.secretKey && !config.secretKeyFile) {
  console.warn(`the key is in ${key.source} on this machine only: start every other process on this database with it as SECRET_KEY (or SECRET_KEY_FILE)`);
}
if (config.marketSpeed > 1 && config.databaseUrl) {
  try {
    marketClock = fastClock(config.marketSpeed, Date.now, await (await import('./cluster/market-clock.ts')).sharedMarketOrigin(db, config.marketSpeed));
  } catch (e) {
    console.error((e as Error).message);
    await app.close();
    process.exit(1);
  }
}
// The engine resumes the running bots (and settles any order left in flight by a crash) once the database is up.
await trading.engine.start();
// On PostgreSQL a command on any process reaches the bot's owner here at once, and a
// logout or a bot change there empties this process's caches of that user.
const { forgetAllSessions, forgetUserSessions } = await import('./services/sessions.ts');
const sessionCache = { forgetUser: forgetUserSessions, forgetAll: forgetAllSessions };
const listener = config.databaseUrl ? await (await import('./cluster/invalidation.ts')).shareInvalidations(config.databaseUrl, db, trading, sessionCache, app.log) : undefined;
// AI bots due for re-tuning are looked at every hour (the search runs in a worker thread), by the
// process that holds that duty.
const { retuneAiBots } = await import('./services/ai-retune.ts');
setInterval(() => {
  if (duties.retune.held()) void retuneAiBots({ db, trading, log: app.log, window: config.aiSearchWindow }, config.aiRetuneMs);
}, 3_600_000).unref();
// Dead sessions and old manual commands can never be used again: cleared when this process takes the duty (after the start, to keep it fast) and daily.
const { pruneCommands } = await import('./cluster/commands.ts');
const { pruneEvents } = await import('./events/log.ts');
const { nextSnapshotAt, prunePnlSnapshots, snapshotPnl } = await import('./services/pnl.ts');
const prune = () =>
  Promise.all([pruneSessions(db), pruneCommands(db), prunePnlSnapshots(db), pruneEvents(db)]).catch((e: unknown) =>
    app.log.warn({ err: { message: String((e as Error)?.message ?? e) } }, 'pruning failed'),
  );
setInterval(() => {
  if (duties.maintenance.held()) void prune();
}, 86_400_000).unref();
// The live events past the replay window go every hour: a busy grid's fills add up within a day.
setInterval(() => {
  if (duties.maintenance.held()) void pruneEvents(db).catch((e: unknown) => app.log.warn({ err: { message: String((e as Error)?.message ?? e) } }, 'pruning events failed'));
}, 3_600_000).unref();
// Each running or holding bot's PnL of the day (the PnL chart's past points): at 23:50 UTC and
// when this process takes the duty, one row per bot and UTC day (a second run that day updates it).
const snapshot = () => snapshotPnl(db, trading).catch((e: unknown) => app.log.warn({ err: { message: String((e as Error)?.message ?? e) } }, 'PnL snapshot failed'));
const snapshotDaily = () =>
  setTimeout(() => {
    if (duties.maintenance.held()) void snapshot();
    snapshotDaily();
  }, nextSnapshotAt() - Date.now()).unref();
snapshotDaily();
// Pushes and webhooks when the app is closed: one process reads every trader's new events and sends.
const { AlertSender } = await import('./alerts/sender.ts');
const alerts = new AlertSender({
  db,
  box,
  appOrigin: config.publicOrigins[0] ?? `http://localhost:${config.port}`,
  vapidSubject: config.vapidSubject,
  webhookPolicy: { allowHosts: config.webhookAllowHosts },
  log: app.log,
});
const stopDuties = await runDuties(
  [
    { singleton: duties.alerts, start: () => alerts.start(), stop: () => alerts.stop() },
    { singleton: duties.chain, start: () => chain?.start(), stop: () => chain?.stop() },
    { singleton: duties.retune, start: () => undefined, stop: () => undefined },
    {
      singleton: duties.maintenance,
      start: () => {
        void prune();
        void snapshot();
      },
      stop: () => undefined,
    },
  ],
  1000,
  app.log,
);
let stopping = false;
async function stop(signal: string) {
  if (stopping) return;
  stopping = true;
  console.log(`${signal}: closing`);
  // Open keep-alive connections or a stuck query must not keep the process alive forever.
  setTimeout(() => process.exit(1), 10_000).unref();
  // No new request from here on; the ones in flight (an AI search, a command waiting 5 s for another
  // process) go on meanwhile, while the DB is still open.
  const closing = app.close();
  // The leases first: the engine stops its rounds, waits for its own bots' work (1 s at most)
  // and frees them, and the duties are handed over (the chain's follower stops), so the others take
  // them within 2 s of the signal. Waiting for the requests first kept bots unowned as long as the
  // slowest request, and past the exit timer for the whole lease TTL.
  await Promise.all([trading.engine.stop(), stopDuties()]);
  await closing;
  await listener?.close();
  await devChain?.stop();
  await db.destroy();
  process.exit(0);
}
process.on('SIGINT', () => void stop('SIGINT'));
process.on('SIGTERM', () => void stop('SIGTERM'));
// Said once the handlers above are in place: a supervisor that stops the server as soon as it reads this
// line must get the clean stop (leases handed over, DATA_DIR's lock removed), not the signal's default death.
console.log(`listening on http://localhost:${config.port} (ready in ${Math.round(performance.now() - started)} ms)`);
