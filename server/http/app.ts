import Fastify, { type FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';
import type { Db } from '../db/connect.ts';
import { languageOf, message, type Translate } from '../i18n.ts';
import { LoginLimiter } from '../services/login-limiter.ts';
import { errorEnvelope, registerEnvelope } from './envelope.ts';
import { authRoutes } from './routes/auth.ts';
import { userRoutes } from './routes/user.ts';
import { exchangeRoutes } from './routes/exchanges.ts';
import { marketRoutes } from './routes/market.ts';
import { botRoutes } from './routes/bots.ts';
import { createTrading, type Trading } from '../trading.ts';
import { SimulatedMarket } from '../market/simulated.ts';
import type { SecretBox } from '../security/secret-box.ts';
import type { ClientFactory } from '../exchanges/verify.ts';
import { registerStatic } from './static.ts';
import { fundsRoutes } from './routes/funds.ts';
import type { ChainSide } from '../chain/chain-side.ts';
import { changeRatesOf } from '../config.ts';

export interface AppDeps {
  db: Db;
  config: Pick<Config, 'sessionTtlMs' | 'limits' | 'staticDir' | 'logLevel' | 'serverIps'> & Partial<Pick<Config, 'trustProxy' | 'welcomeFuel' | 'referralRates' | 'changeRates'>>;
  /** Chain 56 (deposits, withdrawals); absent: those calls answer ChainUnavailable. */
  chain?: ChainSide;
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
}

/** The Fastify app: the /api routes built so far, the envelope on every answer, the static PWA. */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const translate = deps.translate ?? message;
  const app = Fastify({
    logger: {
      level: deps.config.logLevel,
      // Fastify logs no bodies or headers by default; these paths stay censored should anyone add them.
      redact: { paths: ['req.headers.authorization', 'req.headers.cookie', 'req.body', 'body', 'password', 'token'], censor: '[redacted]' },
      ...(deps.logStream ? { stream: deps.logStream } : {}),
    },
    // The largest input is a few hundred bytes; 64 kB leaves room for later calls (bot settings).
    bodyLimit: 64 * 1024,
    trustProxy: deps.config.trustProxy ?? false,
  });

  registerEnvelope(app, translate);
  if (deps.ready) {
    let waiting: Promise<unknown> | undefined = deps.ready.then(() => (waiting = undefined));
    waiting.catch(() => undefined); // a failed start is reported by main.ts; waiting requests get a 500
    app.addHook('onRequest', async (request) => {
      if (waiting && request.url.startsWith('/api')) await waiting;
    });
  }
  const limiter = new LoginLimiter(deps.config.limits);
  const accounts = { db: deps.db, sessionTtlMs: deps.config.sessionTtlMs, limiter, ...(deps.config.welcomeFuel ? { welcomeFuel: deps.config.welcomeFuel } : {}), ...(deps.config.referralRates ? { referralRates: deps.config.referralRates } : {}) };
  authRoutes(app, accounts);
  userRoutes(app, accounts);
  fundsRoutes(app, { db: deps.db, limiter, chain: deps.chain, changeRates: deps.config.changeRates ?? changeRatesOf(undefined) });
  exchangeRoutes(app, { db: deps.db, box: deps.box, serverIps: deps.config.serverIps, ...(deps.exchangeClient ? { client: deps.exchangeClient } : {}) });
  const trading = deps.trading ?? createTrading({ db: deps.db, feed: deps.feed ?? new SimulatedMarket() });
  marketRoutes(app, deps.db, trading);
  botRoutes(app, deps.db, trading, translate);
  // For load balancers and uptime checks: answers without touching the database.
  app.get('/api/health', async () => ({ code: 1, msg: 'ok', data: { status: 'ok' } }));
  deps.extend?.(app);

  app.addHook('onSend', async (_request, reply, payload) => {
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'no-referrer');
    return payload;
  });

  await registerStatic(app, deps.config.staticDir, (request) => errorEnvelope(translate, languageOf(request.headers.lang), 'NotFound'));
  return app;
}
