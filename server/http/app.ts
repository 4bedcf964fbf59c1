import { createServer } from 'node:http';
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import type { Config } from '../config.ts';
import type { Db } from '../db/connect.ts';
import { languageOf, message, type Translate } from '../i18n.ts';
import { LoginLimiter } from '../services/login-limiter.ts';
import { Challenges } from '../security/challenge.ts';
import { registerRateLimits } from './rate-limit.ts';
import { DEFAULT_SIGNAL_GAP_MS, defaultChallenge, defaultRateLimits } from '../config.ts';
import { errorEnvelope, registerEnvelope } from './envelope.ts';
import { authRoutes } from './routes/auth.ts';
import { userRoutes } from './routes/user.ts';
import { exchangeRoutes } from './routes/exchanges.ts';
import { marketRoutes } from './routes/market.ts';
import { botRoutes } from './routes/bots.ts';
import { signalRoutes } from './routes/signals.ts';
import { createTrading, type Trading } from '../trading.ts';
import { SimulatedMarket } from '../market/simulated.ts';
import type { SecretBox } from '../security/secret-box.ts';
import type { ClientFactory } from '../exchanges/verify.ts';
import { registerStatic } from './static.ts';
import { fundsRoutes } from './routes/funds.ts';
import type { ChainSide } from '../chain/chain-side.ts';
import { changeRatesOf } from '../config.ts';
import { DEFAULT_WITHDRAW_LOCK_MS } from '../services/security/lock.ts';
import { Metrics } from '../metrics.ts';
import { PROBES, registerObservability } from './observability.ts';
import { trustedHops } from './client-address.ts';
import { jsonDepthOver } from './input-check.ts';
import { InputError } from '../errors.ts';
import { PERMISSIONS_POLICY } from './headers.ts';
import { StreamHub } from '../events/hub.ts';
import { streamRoute } from './routes/stream.ts';
import { alertRoutes } from './routes/alerts.ts';

export interface AppDeps {
  db: Db;
  config: Pick<Config, 'sessionTtlMs' | 'limits' | 'staticDir' | 'logLevel' | 'serverIps' | 'publicOrigins'> &
    Partial<
      Pick<
        Config,
        | 'trustProxy'
        | 'welcomeFuel'
        | 'referralRates'
        | 'changeRates'
        | 'hstsMaxAge'
        | 'bodyTimeoutMs'
        | 'maxBotsPerUser'
        | 'withdrawLockMs'
        | 'signalGapMs'
        | 'challenge'
        | 'rateLimits'
        | 'aiQueueMax'
        | 'aiSearchWindow'
        | 'indicatorBudget'
        | 'heavyThreads'
        | 'webhookAllowHosts'
      >
    >;
  /** Chain 56 (deposits, withdrawals); absent: those calls answer ChainUnavailable. */
  chain?: ChainSide;
  /** A demo's faucet (the local dev chain, DEV_CHAIN=1): test USDT and BNB to a wallet. */
  faucet?: (to: `0x${string}`) => Promise<{ usdt: string; bnb: string }>;
  /** Seals exchange secrets at rest. */
  box: SecretBox;
  /** The exchange client used to verify keys (tests pass a fake). */
  exchangeClient?: ClientFactory;
  /** The texts of the codes; default: the project's catalogs. */
  translate?: Translate;
  /** Where the log goes (default stdout); tests read it to prove no secret is logged. */
  logStream?: { write(line: string): void };
  /** Resolves when the database is migrated; /api requests wait for it (the PWA is served at once). */
  ready?: Promise<unknown>;
  /** The simulated market feed, shared by every caller (default: seed 56, the wall clock). */
  feed?: SimulatedMarket;
  /** The engine and the venues; default: Paper only, on `feed`, with an engine that is not ticking. */
  trading?: Trading;
  /** Extra routes (tests use it to reach the unexpected-failure path). */
  extend?: (app: FastifyInstance) => void;
  /** What GET /metrics shows (main.ts shares it with the trading side, which counts orders); default: this app's own. */
  metrics?: Metrics;
  /** The live streams of this process; default: one listening on `db` (PostgreSQL needs `databaseUrl` for that). */
  hub?: StreamHub;
  /** Where a trader's webhook may go (tests allow their local receiver); default: public addresses and WEBHOOK_ALLOW_HOSTS. */
  webhookPolicy?: import('../webhooks/check-url.ts').WebhookPolicy;
  /** PostgreSQL's URL, for the live streams' LISTEN connection; absent on the embedded database. */
  databaseUrl?: string;
}

/** The Fastify app: the /api routes built so far, the envelope on every answer, the static PWA. */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const translate = deps.translate ?? message;
  const bodyTimeout = deps.config.bodyTimeoutMs ?? 10_000;
  const hsts = deps.config.hstsMaxAge ?? 31_536_000;
  const app = Fastify({
    logger: {
      level: deps.config.logLevel,
      // Fastify logs no bodies or headers by default; these paths stay censored should anyone add them.
      redact: { paths: ['req.headers.authorization', 'req.headers.cookie', 'req.body', 'body', 'password', 'token'], censor: '[redacted]' },
      ...(deps.logStream ? { stream: deps.logStream } : {}),
    },
    // The largest input is a few hundred bytes; 64 kB leaves room for later calls (bot settings).
    bodyLimit: 64 * 1024,
    // TRUST_PROXY: the hops next to the server that are proxies; the first hop beyond them is the client (client-address.ts).
    trustProxy: trustedHops(deps.config.trustProxy),
    // A request (headers and body) must arrive whole in time: a slow sender cannot hold a connection
    // open forever. Node checks the deadline every `connectionsCheckingInterval`.
    // The router's own refusals (a malformed %-escape, a path parameter over its length) answer the
    // envelope too, without echoing the URL back.
    frameworkErrors: (error, request, reply) => {
      const lang = languageOf(request.headers.lang);
      void (reply as FastifyReply)
        .status(200)
        .send(errorEnvelope(translate, lang, 'ValidationError', `${translate(lang, 'ValidationError')}: ${error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 'path (too long)' : 'path'}`));
    },
    serverFactory: (handler) => createServer({ requestTimeout: bodyTimeout, headersTimeout: bodyTimeout, connectionsCheckingInterval: Math.min(1000, bodyTimeout) }, handler),
  });

  registerEnvelope(app, translate);
  // Every JSON body, whatever the route (a path that is no call too), is refused when nested deeper than
  // any call needs, before it is parsed: JSON 30,000 deep fits in 60 kB.
  const json = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body.toString();
    if (jsonDepthOver(text)) return done(new InputError('ValidationError', 'body (too deep)'), undefined);
    return json(request, text, done);
  });
  const metrics = deps.metrics ?? new Metrics();
  if (deps.ready) {
    let waiting: Promise<unknown> | undefined = deps.ready.then(() => (waiting = undefined));
    waiting.catch(() => undefined); // a failed start is reported by main.ts; waiting requests get a 500
    app.addHook('onRequest', async (request) => {
      // /api/health and /api/ready answer at once: alive, and not ready yet.
      if (waiting && request.url.startsWith('/api') && !PROBES.has(request.routeOptions.url ?? '')) await waiting;
    });
  }
  // /api/health, /api/ready and /metrics, and every request timed.
  registerObservability(app, { db: deps.db, metrics, translate, ready: deps.ready, engineProblem: () => trading.engine.stalled() });
  const limiter = new LoginLimiter(deps.db, deps.config.limits);
  // Before any route: every call that needs no token gets its per-source limit.
  await registerRateLimits(app, deps.db, deps.config.rateLimits ?? defaultRateLimits);
  const challenges = new Challenges(deps.db, deps.box.fingerprint('altcha-challenge-v1'), deps.config.challenge ?? defaultChallenge);
  const lockMs = deps.config.withdrawLockMs ?? DEFAULT_WITHDRAW_LOCK_MS;
  const accounts = {
    db: deps.db,
    challenges,
    sessionTtlMs: deps.config.sessionTtlMs,
    limiter,
    publicOrigins: deps.config.publicOrigins,
    box: deps.box,
    lockMs,
    ...(deps.config.welcomeFuel ? { welcomeFuel: deps.config.welcomeFuel } : {}),
    ...(deps.config.referralRates ? { referralRates: deps.config.referralRates } : {}),
  };
  authRoutes(app, accounts);
  userRoutes(app, accounts);
  fundsRoutes(app, { db: deps.db, limiter, chain: deps.chain, changeRates: deps.config.changeRates ?? changeRatesOf(undefined), box: deps.box, lockMs, faucet: deps.faucet });
  exchangeRoutes(app, { db: deps.db, box: deps.box, limiter, serverIps: deps.config.serverIps, ...(deps.exchangeClient ? { client: deps.exchangeClient } : {}) });
  const trading = deps.trading ?? createTrading({ db: deps.db, feed: deps.feed ?? new SimulatedMarket(), metrics });
  marketRoutes(app, deps.db, trading);
  botRoutes(
    app,
    {
      db: deps.db,
      trading,
      ...(deps.config.maxBotsPerUser ? { maxBots: deps.config.maxBotsPerUser } : {}),
      ...(deps.config.aiQueueMax ? { aiQueueMax: deps.config.aiQueueMax } : {}),
      ...(deps.config.aiSearchWindow ? { aiSearchWindow: deps.config.aiSearchWindow } : {}),
      ...(deps.config.indicatorBudget ? { indicatorBudget: deps.config.indicatorBudget } : {}),
      // The AI line hands the heavy-work pool as many searches at once as it has threads.
      ...(deps.config.heavyThreads ? { aiSearchSlots: deps.config.heavyThreads } : {}),
    },
    translate,
  );
  // Signal webhooks of DCA and custom bots.
  signalRoutes(app, { db: deps.db, trading, gapMs: deps.config.signalGapMs ?? DEFAULT_SIGNAL_GAP_MS });
  // Alerts when the app is closed: a trader's webhook reaches only public addresses, or the operator's own hosts.
  alertRoutes(app, { db: deps.db, box: deps.box, webhookPolicy: deps.webhookPolicy ?? { allowHosts: deps.config.webhookAllowHosts ?? [] } });
  // The live stream of each user's events, from every process (server/events/hub.ts).
  const hub = deps.hub ?? new StreamHub(deps.db, { log: app.log });
  streamRoute(app, { db: deps.db, hub });
  metrics.streamsOpen = () => hub.count();
  app.decorate('streams', hub);
  // Started once the database answers; open streams end first when the server closes (clients reconnect elsewhere).
  const listening = (deps.ready ?? Promise.resolve()).then(() => hub.start(deps.databaseUrl));
  listening.catch((e: unknown) => app.log.error({ err: { message: String((e as Error)?.message ?? e) } }, 'live streams cannot listen'));
  app.addHook('preClose', async () => {
    await listening.catch(() => undefined);
    await hub.stop();
  });
  (await import('./openapi.ts')).openApiRoute(app);
  deps.extend?.(app);

  app.addHook('onSend', async (request, reply, payload) => {
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'no-referrer');
    // The app needs none of the powerful features: a script injected somehow gets none either.
    reply.header('permissions-policy', PERMISSIONS_POLICY);
    // API answers hold tokens and balances: no cache (browser, proxy or disk) keeps them.
    if (request.url.startsWith('/api')) reply.header('cache-control', 'no-store');
    // Over https the browser is told to never come back over plain http.
    if (hsts > 0 && request.protocol === 'https') reply.header('strict-transport-security', `max-age=${hsts}; includeSubDomains`);
    return payload;
  });

  await registerStatic(app, deps.config.staticDir, (request) => errorEnvelope(translate, languageOf(request.headers.lang), 'NotFound'));
  return app;
}
