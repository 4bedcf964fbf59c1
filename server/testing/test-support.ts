import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { defaultLimits, type ChallengeSettings, type LoginLimits, type RateLimits } from '../config.ts';
import { solve, solvedChallengeAt } from '../security/challenge.ts';
import type { calls, AnswerOf } from '../../contract/calls.ts';
import type { LoginChallenge } from '../../contract/auth.ts';
import { migrate, openDatabase, type Db } from '../db/connect.ts';
import { buildApp, type AppDeps } from '../http/app.ts';
import type { SearchWindow } from '../services/ai.ts';
import { SecretBox } from '../security/secret-box.ts';
import type { ChainSide } from '../chain/chain-side.ts';
import type { ClientFactory } from '../exchanges/verify.ts';
import { PaperVenue, simulatedSource } from '../exchanges/paper-venue.ts';
import type { SimulatedMarket } from '../market/simulated.ts';
import type { LiveSide, Trading } from '../trading.ts';

export const PG_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
export const dbKinds = ['pglite', 'postgres'] as const;
export type DbKind = (typeof dbKinds)[number];

export interface TestApp {
  app: FastifyInstance;
  db: Db;
  /** The app's key (the challenges' HMAC key comes from it). */
  box: SecretBox;
  /**
   * Another app on the same database and key, with this one's settings (changed by `changes`): a second
   * server process, or this one after a restart. Closed with the test app.
   */
  another: (changes?: Partial<AppDeps['config']>) => Promise<FastifyInstance>;
  close: () => Promise<void>;
}

/** An API answer as a test reads it. */
export type Answer<T = unknown> = { code: number; msg: string; data: T };
type Calls = typeof calls;
/** The contract's path of an /api URL: without the prefix and the query. */
type PathOf<U extends string> = U extends `/api${infer P}?${string}` ? P : U extends `/api${infer P}` ? P : never;
type CallAt<M extends string, P extends string> = [P] extends [never] ? never : { [N in keyof Calls]: Calls[N]['method'] extends M ? (P extends Calls[N]['path'] ? N : never) : never }[keyof Calls];
/**
 * The data the contract promises (AnswerOf) for the call that a method and an /api URL name: the URL may
 * be a template literal (`/api/user/botInfo?id=${id}`). `unknown` for a URL with no such call.
 */
export type DataAt<M extends string, U extends string> = [CallAt<M, PathOf<U>>] extends [never] ? unknown : AnswerOf<CallAt<M, PathOf<U>>>;

/**
 * The AI search's history in tests: 2 days of 1-minute candles and their last 12 hours,
 * not the product's 30 and 7 days: every candidate and rule, 1/15 of the work, still enough history
 * that the best candidates trade and the risk limits drop some. Every test app searches this way unless
 * its config says otherwise; the full size is measured by `npm run bench` (bench/ai-search.ts).
 */
export const TEST_SEARCH_WINDOW: SearchWindow = { days: 2, recentDays: 0.5 };

/** Tests' proof of work: a handful of cheap tries (the real default is ~0.05 s in Node, 0.2-0.5 s on a phone). */
export const testChallenge: ChallengeSettings = { cost: 1, counter: 4, ttlMs: 10 * 60_000 };

/** Tests' rate limits: out of the way of files that register and log in many times from one address. */
export function testRateLimits(): RateLimits {
  const wide = { max: 100_000, windowMs: 60_000 };
  return { register: wide, login: wide, wallet: wide, challenge: wide, public: wide, user: wide, signal: wide, signalToken: wide };
}

/**
 * A migrated database of the given kind, isolated for one test file: an in-memory PGlite, or a fresh
 * schema in the machine's PostgreSQL (dropped afterwards) so files can run in parallel.
 */
export async function openTestDb(kind: DbKind): Promise<{ db: Db; drop: () => Promise<void> }> {
  if (kind === 'pglite') {
    const db = await openDatabase();
    await migrate(db);
    return { db, drop: () => db.destroy() };
  }
  // A migration on the shared PostgreSQL has failed once in a few hundred runs with an error naming a
  // table of its own fresh schema (never reproduced alone): the setup, not the code under test. It is said
  // on stderr and tried once more on a new schema, so a test file is not lost to it.
  try {
    return await openPgSchema();
  } catch (error) {
    // Everything PostgreSQL said (code, routine, the statement inside), so that the cause can be found.
    const cause = (error as { cause?: Record<string, unknown> }).cause;
    const said = cause && typeof cause === 'object' ? JSON.stringify({ ...cause, stack: String(cause.stack ?? '').slice(0, 1500) }) : '';
    process.stderr.write(`openTestDb: a fresh schema failed to migrate, trying another: ${String(error)} ${said}\n`);
    return openPgSchema();
  }
}

/** A fresh, migrated schema in the machine's PostgreSQL, and how to drop it. */
async function openPgSchema(): Promise<{ db: Db; drop: () => Promise<void> }> {
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.end();
  const db = await openDatabase({ url: PG_URL, schema });
  const drop = async () => {
    await db.destroy();
    const c = new pg.Client({ connectionString: PG_URL });
    await c.connect();
    await c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await c.end();
  };
  try {
    await migrate(db);
  } catch (e) {
    await drop(); // leave no half-made schema behind
    throw e;
  }
  return { db, drop };
}

/** The real app on a test database; `staticDir` defaults to a folder with no build. */
export async function openTestApp(
  kind: DbKind,
  options: {
    limits?: Partial<LoginLimits>;
    staticDir?: string;
    extend?: AppDeps['extend'];
    exchangeClient?: AppDeps['exchangeClient'];
    logStream?: AppDeps['logStream'];
    trading?: (db: Db, box: SecretBox) => Trading;
    chain?: (db: Db) => ChainSide;
    faucet?: AppDeps['faucet'];
    changeRates?: Record<string, string>;
    config?: Partial<AppDeps['config']>;
    webhookPolicy?: AppDeps['webhookPolicy'];
  } = {},
): Promise<TestApp> {
  const { db, drop } = await openTestDb(kind);
  const box = new SecretBox(randomBytes(32));
  const config: AppDeps['config'] = {
    ...(options.changeRates ? { changeRates: options.changeRates } : {}),
    challenge: testChallenge,
    rateLimits: testRateLimits(),
    sessionTtlMs: 86_400_000,
    limits: { ...defaultLimits, ...options.limits },
    staticDir: options.staticDir ?? '/nonexistent',
    logLevel: options.logStream ? 'trace' : 'silent',
    serverIps: ['203.0.113.7'],
    publicOrigins: ['http://localhost'],
    withdrawLockMs: 0,
    aiSearchWindow: TEST_SEARCH_WINDOW,
    ...options.config,
  };
  // On PostgreSQL the live streams LISTEN on a connection of their own (the test's schema names the channels).
  const listen = kind === 'postgres' ? { databaseUrl: PG_URL } : {};
  const app = await buildApp({
    db,
    ...listen,
    ...(options.chain ? { chain: options.chain(db) } : {}),
    ...(options.faucet ? { faucet: options.faucet } : {}),
    config,
    box,
    ...(options.extend ? { extend: options.extend } : {}),
    ...(options.logStream ? { logStream: options.logStream } : {}),
    ...(options.exchangeClient ? { exchangeClient: options.exchangeClient } : {}),
    ...(options.trading ? { trading: options.trading(db, box) } : {}),
    ...(options.webhookPolicy ? { webhookPolicy: options.webhookPolicy } : {}),
  });
  const others: FastifyInstance[] = [];
  const another = async (changes: Partial<AppDeps['config']> = {}) => {
    const other = await buildApp({ db, box, config: { ...config, ...changes }, ...listen });
    others.push(other);
    return other;
  };
  return {
    app,
    db,
    box,
    another,
    close: async () => {
      for (const o of others) await o.close();
      await app.close();
      await drop();
    },
  };
}

/** A solved proof-of-work challenge from `app` (the `challenge` field of register, and of logins after failures). */
export async function solvedChallenge(app: FastifyInstance, headers: Record<string, string> = {}): Promise<string> {
  const r = await app.inject({ url: '/api/login/challenge', headers });
  const body = r.json() as { code: number; data: LoginChallenge };
  if (body.code !== 1) throw new Error(`no challenge: ${r.body}`);
  return solve(body.data);
}

/**
 * The body of a registration, with a solved challenge: a new account and PASSWORD unless `fields` say
 * otherwise. Every test that registers through the API sends this.
 */
export async function registerPayload(app: FastifyInstance, fields: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
  return { terminal: 1, account: newAccount(), password: PASSWORD, confirm: PASSWORD, challenge: await solvedChallenge(app), ...fields };
}

/** registerPayload for a server running over HTTP (`baseURL` without /api). */
export async function registerPayloadAt(baseURL: string, fields: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
  return { terminal: 1, account: newAccount(), password: PASSWORD, confirm: PASSWORD, challenge: await solvedChallengeAt(baseURL), ...fields };
}

/** Registers through the API (registerPayload) and answers the envelope's data: token, sn, ... */
export async function registerUser(app: FastifyInstance, fields: Record<string, unknown> = {}): Promise<{ token: string; sn: string } & Record<string, unknown>> {
  const r = await app.inject({ method: 'POST', url: '/api/login/register', payload: await registerPayload(app, fields) });
  const body = r.json() as { code: number; data: { token: string; sn: string } };
  if (body.code !== 1) throw new Error(`register failed: ${r.body}`);
  return body.data;
}

let counter = 0;
/** A unique, valid account name. */
export const newAccount = () => `user${Date.now().toString(36)}${(counter++).toString(36)}`;
export const PASSWORD = 'Secret2026x';

/**
 * A live exchange for tests (no network here): Binance's code and id, so the engine, the fuel and the
 * referral rules treat its bots as live, trading on a venue kept in the test database at the prices of
 * `feed` with Paper's rules. Keys bind through `acceptingKeys`.
 */
export function liveOnFeed(db: Db, feed: SimulatedMarket): LiveSide {
  const source = simulatedSource(feed, Date.now);
  const nope = async (): Promise<never> => {
    throw new Error('not in this test');
  };
  return {
    venue: async (bot) => new PaperVenue(db, bot.userId, source, bot.exchangeId),
    balances: nope,
    symbols: nope,
    tickers: nope,
    candles: nope,
    price: async (_exchange, symbol) => (await source.price(symbol)).toFixed(),
    market: async (_exchange, symbol) => source.market(symbol),
  };
}

/** An exchange client that accepts any key: binding a live exchange in tests. */
export const acceptingKeys: ClientFactory = async () => ({ fetchBalance: async () => ({}) });

/** A user row with only an sn and an account (no password, profile or referrer): for tests and benches that insert bots directly. */
export function bareUser(sn: string, account: string, nickname = 'n') {
  return { sn, account, password_hash: null, payment_hash: null, nickname, email: '', mobile: '', address: null, avatar: '', referrer_id: null };
}

/** A small DCA bot that takes signals (a daily schedule start, which signals bypass): the webhook and rank tests' bot. */
export const testDcaParams = {
  investment: '320',
  baseOrder: '20',
  safetyOrder: '20',
  maxSafetyOrders: 4,
  deviation: '1.5',
  stepScale: '1.5',
  volumeScale: '2',
  takeProfit: '1.5',
  stopLoss: '',
  cooldown: 0,
  start: { kind: 'schedule', every: 'day', time: '12:00', utcOffset: 0 },
};

/**
 * A bot's filled orders in the order they filled (a resting order is recorded when it is placed, long
 * before its fill, so the records' own order is not the fills').
 */
export async function filledInOrder(db: Db, botId: string): Promise<{ side: string; reason: string; price: string | null; filled: string | null; slot: string | null }[]> {
  return db
    .selectFrom('bot_orders')
    .innerJoin('bot_order_steps', (j) => j.onRef('bot_order_steps.client_order_id', '=', 'bot_orders.client_order_id').on('bot_order_steps.to_phase', '=', 'filled'))
    .select(['bot_orders.side', 'bot_orders.reason', 'bot_orders.price', 'bot_orders.filled', 'bot_orders.slot'])
    .where('bot_orders.bot_id', '=', botId)
    .orderBy('bot_order_steps.id')
    .execute();
}
