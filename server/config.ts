import { isIP } from 'node:net';
import { availableParallelism } from 'node:os';

/**
 * Every setting of the server, from the environment, with its default:
 *
 * | Variable          | Default                          | Meaning                                           |
 * |-------------------|----------------------------------|---------------------------------------------------|
 * | PORT              | 8080                             | HTTP port                                         |
 * | HOST              | 0.0.0.0                          | interface to listen on                            |
 * | DATA_DIR          | ./data                           | embedded database folder (DATA_DIR/pglite)        |
 * | DATABASE_URL      | unset: embedded PGlite           | PostgreSQL connection string                      |
 * | SESSION_TTL_DAYS  | 30                               | a session token's lifetime                        |
 * | LOG_LEVEL         | error in production, else warn   | fatal, error, warn, info, debug, trace or silent  |
 * | STATIC_DIR        | ./dist                           | the built PWA                                     |
 * | TRUST_PROXY       | unset: off                       | behind reverse proxies: their number (1, 2 ...),  |
 * |                   |                                  | or their addresses (comma list, CIDR allowed), so |
 * |                   |                                  | the limits see the client's IP, not the proxy's;  |
 * |                   |                                  | true / * (trust every hop) is refused             |
 * | SECRET_KEY        | unset: SECRET_KEY_FILE, else     | base64 of 32 bytes: the AES-256-GCM key of the    |
 * |                   | DATA_DIR/secret.key (0600)       | exchange secrets (keep it outside DATA_DIR)       |
 * | SECRET_KEY_FILE   | unset                            | a file holding that key, outside DATA_DIR         |
 * | ENGINE_TICK_MS    | 1000                             | how often the engine reads prices and evaluates   |
 * |                   |                                  | the running bots                                  |
 * | STALE_PRICE_MS    | 30000                            | a pair without a fresh price this long: its bots  |
 * |                   |                                  | open nothing until a reconciliation round passes  |
 * | RECONCILE_EVERY_MS| 30000                            | time between two reconciliation rounds of each    |
 * |                   |                                  | exchange account (orphans, balances, outages)     |
 * | RESTING_ORDERS    | grid                             | bot types whose orders rest on the venue as limit |
 * |                   |                                  | orders (list: grid, martin, dca; none: market)    |
 * | MARKET_SPEED      | 1                                | the simulated market's clock speed (tests and     |
 * |                   |                                  | demos: 60 = a minute of market a second)          |
 * | FUEL_FEE_RATE     | 0.2                              | share of a profitable cycle's profit paid in fuel |
 * | FUEL_WELCOME      | 100                              | fuel a new account starts with                    |
 * | REFERRAL_RATES    | 0.1,0.05                         | shares of a fuel fee earned by the payer's        |
 * |                   |                                  | referrer, theirs, ... (one per level)             |
 * | CHAIN_RPC_URL     | unset: no deposits, withdrawals  | JSON-RPC of chain 56 (BNB Smart Chain)            |
 * | CHAIN_ID          | 56                               | the chain id the RPC must answer                  |
 * | CHAIN_USDT        | unset                            | the USDT token contract (BSC-USD)                 |
 * | CHAIN_DEPOSIT     | unset                            | the QuantDeposit contract (server/chain/contracts)|
 * | CHAIN_CONFIRMATIONS | 15                             | blocks deep (the including one counts) before a   |
 * |                   |                                  | deposit is credited; also the re-org depth        |
 * | CHAIN_START_BLOCK | 0                                | first block scanned on a fresh database (set it   |
 * |                   |                                  | to the deposit contract's deployment block)       |
 * | CHAIN_POLL_MS     | 500                              | how often the chain head is read (BSC: a block    |
 * |                   |                                  | every 0.75-3 s)                                   |
 * | HOT_WALLET_KEY    | unset: withdrawals off           | private key (0x + 64 hex) of the hot wallet that  |
 * |                   |                                  | sends withdrawals; never logged                   |
 * | WITHDRAW_MIN      | 10                               | smallest withdrawal, USDT                         |
 * | WITHDRAW_FEE      | 1                                | fee per withdrawal, USDT, kept from the amount    |
 * | CHANGE_RATES      | usdt:fuel=1,points:fuel=0.01,    | conversions between balances: from:to=units of    |
 * |                   | rewards:usdt=1                   | `to` per unit of `from`                           |
 * | AI_RETUNE_HOURS   | 24                               | how long an AI bot keeps its parameters before    |
 * |                   |                                  | the search re-tunes it (when it is flat)          |
 * | PUBLIC_ORIGIN     | http://localhost:PORT,           | the site's origin(s), comma list: what wallet     |
 * |                   | http://127.0.0.1:PORT            | sign-in messages name and accept; requests for    |
 * |                   |                                  | another host are refused                          |
 * | WITHDRAW_LOCK_HOURS | 24                             | withdrawals wait this long after a password       |
 * |                   |                                  | change or 2FA turned off (not the first payment   |
 * |                   |                                  | password, not 2FA on), and a new address before   |
 * |                   |                                  | it is paid (decimal hours; 0: no wait)            |
 * | AI_QUEUE_MAX      | 8                                | AI searches queued or running at once per process |
 * |                   |                                  | (one per trader)                                  |
 * | HEAVY_THREADS     | the cores but one (at least 1)   | worker threads for backtests, AI searches and     |
 * |                   |                                  | warm-up histories (never the event loop)          |
 * | BACKTEST_QUEUE    | 3                                | backtests one trader may have waiting or running  |
 * | BACKTEST_DEADLINE_S | 60                             | a backtest still running then is stopped          |
 * | INDICATOR_BUDGET  | 100000                           | indicator work of one trader's running custom and |
 * |                   |                                  | indicator-start DCA bots (closed candles each     |
 * |                   |                                  | indicator keeps, added up)                        |
 * | HSTS_MAX_AGE      | 31536000                         | Strict-Transport-Security max-age on answers      |
 * |                   |                                  | served over https (0: no HSTS header)             |
 * | BODY_TIMEOUT_MS   | 10000                            | a request must arrive whole within this time      |
 * | MAX_BOTS_PER_USER | 100                              | the most bots (not deleted) one trader may keep   |
 * | LOGIN_CHALLENGE_AFTER | 3                            | failed logins of one account from one source      |
 * |                   |                                  | before its logins need a solved challenge         |
 * | LOGIN_ACCOUNT_CHALLENGE_AFTER | 5                    | recent failures of one account (any source), or   |
 * | LOGIN_SOURCE_CHALLENGE_AFTER | 10                    | of one source (any account), before every login   |
 * |                   |                                  | to it / from it needs a solved challenge          |
 * | LOGIN_DELAY_CAP_S | 60                               | the longest wait between two tries of one account |
 * |                   |                                  | from one source (after the 2nd, 3rd ... failure:  |
 * |                   |                                  | 1, 2, 4 ... s; the first is free)                 |
 * | LOGIN_WINDOW_MINUTES | 15                            | failed logins older than this are forgotten       |
 * | CHALLENGE_COST    | 1000                             | proof of work: PBKDF2-SHA-256 iterations per try  |
 * | CHALLENGE_COUNTER | 300                              | proof of work: the solution is one of the tries   |
 * |                   |                                  | counter/2 .. counter (~0.2-0.5 s on a phone)      |
 * | CHALLENGE_TTL_S   | 600                              | how long a challenge may be solved and used (once)|
 * | RATE_LIMIT_REGISTER | 10/1h                          | requests per source IP and window: registration   |
 * | RATE_LIMIT_LOGIN  | 30/1m                            | password login                                    |
 * | RATE_LIMIT_WALLET | 30/1m                            | wallet sign-in: nonce and verify, each            |
 * | RATE_LIMIT_CHALLENGE | 60/1m                         | new challenges                                    |
 * | RATE_LIMIT_PUBLIC | 300/1m                           | any other call that needs no token (answers 429,  |
 * |                   |                                  | code 1020; counted in PostgreSQL when             |
 * |                   |                                  | DATABASE_URL is set, else in memory)              |
 * | RATE_LIMIT_USER   | 600/1m                           | every call behind a token, per trader (user id)   |
 * | RATE_LIMIT_SIGNAL | 30/1m                            | signal webhook requests per bot (its token)       |
 * | RATE_LIMIT_SIGNAL_TOKEN | 30/1m                      | webhook requests whose token opens no bot, per    |
 * |                   |                                  | source (a valid token is never limited by them)   |
 * | SIGNAL_MIN_GAP_S  | 1                                | least time between two signals of one bot that    |
 * |                   |                                  | act (decimal seconds; one within it answers 1020) |
 * | DEV_CHAIN         | unset                            | 1: start a local anvil on chain 56 with a test    |
 * |                   |                                  | USDT and the deposit contract (demos, not prod),  |
 * |                   |                                  | kept under DATA_DIR, with a faucet                |
 * | DEV_CHAIN_PORT    | 8545                             | the dev chain's RPC port (fixed: its address stays)|
 */
/**
 * The indicator work one trader's running custom and indicator-start DCA bots may keep, unless configured
 * (INDICATOR_BUDGET): about 65 bots with an RSI(14), an EMA(200) and a MACD(12, 26, 9) each, or 4 bots of
 * ten 500-period indicators (bench/heavy-attack.ts). Every closed candle moves each indicator, and every
 * start warms them all up (in a worker thread): the budget bounds what one trader's bots cost the server.
 */
export const DEFAULT_INDICATOR_BUDGET = 100_000;

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** PostgreSQL connection string; empty: the embedded PGlite under dataDir. */
  databaseUrl: string;
  sessionTtlMs: number;
  logLevel: string;
  staticDir: string;
  /** Fastify's trustProxy: false, the number of proxies in front of the server, or a comma list of their addresses / CIDRs (never every hop). */
  trustProxy: false | number | string;
  /** IPs traders whitelist on their exchange API keys (this server's egress addresses). */
  serverIps: string[];
  /** base64 of 32 bytes for AES-256-GCM of exchange secrets; empty: a key file under dataDir. */
  secretKey: string;
  /** A file holding the key (base64 of 32 bytes), outside DATA_DIR; read as it is, never created. */
  secretKeyFile: string;
  /** Login attempt limits (see services/login-limiter.ts). */
  limits: LoginLimits;
  /** The proof-of-work challenge of register and of logins after failures (see security/challenge.ts). */
  challenge: ChallengeSettings;
  /** Requests per source IP of the calls that need no token, per trader of the others, per bot of the signal webhook (see http/rate-limit.ts). */
  rateLimits: RateLimits;
  /** The least time between two signals of one bot that act (the second within it answers 1020). */
  signalGapMs: number;
  engineTickMs: number;
  /** How long a pair may go without a fresh price before its bots open nothing (engine/runner.ts). */
  stalePriceMs: number;
  /** Time between two reconciliation rounds of the accounts (engine/reconciliation.ts). */
  reconcileEveryMs: number;
  /** The bot types whose orders rest on their venues as limit orders (engine/resting.ts). */
  restingTypes: string[];
  marketSpeed: number;
  /** Fuel paid per unit of realised profit on a profitable cycle (0.2 = 20%), exact decimal. */
  fuelFeeRate: string;
  /** Fuel a new account starts with, exact decimal. */
  welcomeFuel: string;
  /** Shares of a fuel fee earned per referral level, exact decimals. */
  referralRates: string[];
  chain: ChainConfig;
  /** Conversions between the balances: "from:to" -> units of `to` per unit of `from`, exact decimals. */
  changeRates: Record<string, string>;
  aiRetuneMs: number;
  /** The site's origins (scheme://host[:port]): never taken from a request's Host or Origin header. */
  publicOrigins: string[];
  /** The VAPID contact push services see (a mailto: address; Safari refuses an https://localhost one). */
  vapidSubject: string;
  /** Hosts (host:port) a trader's webhook may reach although private: the operator's own, never a request's. */
  webhookAllowHosts: string[];
  /**
   * Live exchanges' APIs at another origin, by ccxt id (EXCHANGE_URLS="binance=http://127.0.0.1:9300"): a
   * local stand-in for demos and tests (server/testing/fake-binance/). Empty in production.
   */
  exchangeUrls: Record<string, string>;
  /** Strict-Transport-Security max-age (seconds) on https answers; 0: none. */
  hstsMaxAge: number;
  /** Time allowed to receive a whole request (headers and body): a slow sender is cut off. */
  bodyTimeoutMs: number;
  maxBotsPerUser: number;
  /** How long withdrawals wait after a security change, and a new address before it is paid. */
  withdrawLockMs: number;
  aiQueueMax: number;
  /** How much history the AI search backtests (AI_SEARCH_DAYS): 30 days, and the last 7 of them again. */
  aiSearchWindow: { days: number; recentDays: number };
  /** Worker threads of the heavy-work pool (server/workers/heavy-pool.ts). */
  heavyThreads: number;
  /** The most backtests one trader may have waiting or running in a process. */
  backtestQueue: number;
  /** A backtest still running after this long is stopped and refused. */
  backtestDeadlineMs: number;
  /** The indicator work (strategy/custom/feed.ts indicatorCost) one trader's running bots may add up to. */
  indicatorBudget: number;
}

export interface ChainConfig {
  rpcUrl: string;
  chainId: number;
  usdt: string;
  deposit: string;
  confirmations: number;
  startBlock: number;
  pollMs: number;
  /** The hot wallet's private key; empty: withdrawals are refused with ChainUnavailable. */
  hotWalletKey: string;
  withdrawMin: string;
  withdrawFee: string;
  /** Start a local anvil with the contracts deployed (DEV_CHAIN=1). */
  dev: boolean;
  /** The dev chain's RPC port (DEV_CHAIN_PORT, default 8545): fixed, so its address stays across restarts. */
  devPort: number;
}

export interface LoginLimits {
  /** Failures older than this are forgotten. */
  windowMs: number;
  /**
   * Checks of a secret behind a session (old password, payment password, 2FA code): failures within the
   * window per (key, IP), per key and per IP before that budget is shut for a window.
   */
  perAccountIp: number;
  perAccount: number;
  perIp: number;
  /** Logins: failures of one account from one source after which its logins need a solved challenge. */
  challengeAfter: number;
  /** Logins: recent failures of one account (from anywhere) after which every login to it needs one. */
  accountChallengeAfter: number;
  /** Logins: recent failures from one source (any account) after which every login from it needs one. */
  sourceChallengeAfter: number;
  /** Logins: the wait after the n-th failure (n >= 2) of an account from a source is min(cap, base x 2^(n-2)). */
  delayBaseMs: number;
  delayCapMs: number;
}

/**
 * Logins: a wait of 1, 2, 4 ... 60 s per account and source after the 2nd, 3rd, 4th ... failure, a challenge after 3 of them
 * (or 5 of the account's, 10 of the source's), never a lock. Secrets behind a session: 5 failures per
 * key and IP, 20 per key, 50 per IP in 15 minutes.
 */
export const defaultLimits: LoginLimits = {
  windowMs: 15 * 60_000,
  perAccountIp: 5,
  perAccount: 20,
  perIp: 50,
  challengeAfter: 3,
  accountChallengeAfter: 5,
  sourceChallengeAfter: 10,
  delayBaseMs: 1000,
  delayCapMs: 60_000,
};

export interface ChallengeSettings {
  /** PBKDF2-SHA-256 iterations per try. */
  cost: number;
  /** The solution is a try between counter/2 and counter: the work is about 0.75 x counter x cost. */
  counter: number;
  ttlMs: number;
}

/** ~225,000 PBKDF2 iterations on average: 0.05 s in Node on one core, 0.2-0.5 s in a phone's browser. */
export const defaultChallenge: ChallengeSettings = { cost: 1000, counter: 300, ttlMs: 10 * 60_000 };

/** A limit: at most `max` requests per key (a source IP, a trader, a bot) in `windowMs`. */
export interface RateLimit {
  max: number;
  windowMs: number;
}

export interface RateLimits {
  register: RateLimit;
  login: RateLimit;
  /** Wallet sign-in: the nonce and the verify call, each. */
  wallet: RateLimit;
  challenge: RateLimit;
  /** Any other call that needs no token. */
  public: RateLimit;
  /** Every call behind a token, per trader (by user id, from any address). */
  user: RateLimit;
  /** Signal webhook requests per bot whose token they carry. */
  signal: RateLimit;
  /** Signal webhook requests whose token opens no bot, per source (never limits a valid token). */
  signalToken: RateLimit;
}

export const defaultRateLimits: RateLimits = {
  register: { max: 10, windowMs: 3_600_000 },
  login: { max: 30, windowMs: 60_000 },
  wallet: { max: 30, windowMs: 60_000 },
  challenge: { max: 60, windowMs: 60_000 },
  public: { max: 300, windowMs: 60_000 },
  // The PWA's busiest screen (a bot's detail, its lists every 3 s) asks about 2 a second.
  user: { max: 600, windowMs: 60_000 },
  signal: { max: 30, windowMs: 60_000 },
  signalToken: { max: 30, windowMs: 60_000 },
};

/** The least time between two signals of one bot that act (SIGNAL_MIN_GAP_S). */
export const DEFAULT_SIGNAL_GAP_MS = 1000;

const UNIT_MS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000 };

/** "10/1h", "30/1m", "5/30s": at most N requests per window. */
export function rateLimitOf(value: string | undefined, fallback: RateLimit, name: string): RateLimit {
  if (value === undefined || value === '') return fallback;
  const m = /^(\d{1,9})\/(\d{1,6})(s|m|h)$/.exec(value.trim());
  if (!m || Number(m[1]) < 1 || Number(m[2]) < 1) throw new Error(`${name} must be like 10/1h, 30/1m or 5/30s (requests per window), got "${value}"`);
  return { max: Number(m[1]), windowMs: Number(m[2]) * UNIT_MS[m[3]!]! };
}

const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

function int(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`${name} must be a positive integer, got "${value}"`);
  return n;
}

/** A non-negative exact decimal from the environment (at most `max` when given). */
function decimalOf(value: string | undefined, fallback: string, name: string, max?: string): string {
  if (value === undefined || value === '') return fallback;
  if (!/^\d{1,12}(\.\d{1,8})?$/.test(value) || (max !== undefined && Number(value) > Number(max))) {
    throw new Error(`${name} must be a decimal between 0 and ${max ?? 'any amount'}, got "${value}"`);
  }
  return value;
}

const ADDRESS_RE = /^0x[0-9a-fA-F]{40}$/;

function addressOf(value: string | undefined, name: string): string {
  if (!value) return '';
  if (!ADDRESS_RE.test(value)) throw new Error(`${name} must be a 0x address of 40 hex digits, got "${value}"`);
  return value;
}

/** "30,7": the AI search's days of history and, of them, the recent days scored again (decimals allowed). */
export function searchWindowOf(value: string | undefined): { days: number; recentDays: number } {
  if (value === undefined || value === '') return { days: 30, recentDays: 7 };
  const m = /^(\d{1,3}(?:\.\d{1,3})?),(\d{1,3}(?:\.\d{1,3})?)$/.exec(value.replace(/\s/g, ''));
  const days = Number(m?.[1]);
  const recentDays = Number(m?.[2]);
  if (!m || days <= 0 || days > 365 || recentDays <= 0 || recentDays > days) {
    throw new Error(`AI_SEARCH_DAYS must be like 30,7 (days of history, and of them recent days; at most 365), got "${value}"`);
  }
  return { days, recentDays };
}

/** The conversions between balances unless CHANGE_RATES says otherwise. */
export const DEFAULT_CHANGE_RATES = 'usdt:fuel=1,points:fuel=0.01,rewards:usdt=1';

/** "usdt:fuel=1,points:fuel=0.01": the conversions between balances, each rate an exact decimal. */
export function changeRatesOf(value: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of (value ?? DEFAULT_CHANGE_RATES)
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const m = /^(usdt|fuel|points|rewards):(usdt|fuel|points|rewards)=(.+)$/.exec(part);
    if (!m || m[1] === m[2]) throw new Error(`CHANGE_RATES must be like usdt:fuel=1,points:fuel=0.01, got "${part}"`);
    out[`${m[1]}:${m[2]}`] = decimalOf(m[3], '0', 'CHANGE_RATES');
  }
  return out;
}

function chainOf(env: NodeJS.ProcessEnv): ChainConfig {
  const hotWalletKey = env.HOT_WALLET_KEY || '';
  if (hotWalletKey && !/^0x[0-9a-fA-F]{64}$/.test(hotWalletKey)) throw new Error('HOT_WALLET_KEY must be 0x and 64 hex digits');
  const startBlock = env.CHAIN_START_BLOCK === undefined || env.CHAIN_START_BLOCK === '0' ? 0 : int(env.CHAIN_START_BLOCK, 0, 'CHAIN_START_BLOCK');
  return {
    rpcUrl: env.CHAIN_RPC_URL || '',
    chainId: int(env.CHAIN_ID, 56, 'CHAIN_ID'),
    usdt: addressOf(env.CHAIN_USDT, 'CHAIN_USDT'),
    deposit: addressOf(env.CHAIN_DEPOSIT, 'CHAIN_DEPOSIT'),
    confirmations: int(env.CHAIN_CONFIRMATIONS, 15, 'CHAIN_CONFIRMATIONS'),
    startBlock,
    pollMs: int(env.CHAIN_POLL_MS, 500, 'CHAIN_POLL_MS'),
    hotWalletKey,
    withdrawMin: decimalOf(env.WITHDRAW_MIN, '10', 'WITHDRAW_MIN'),
    withdrawFee: decimalOf(env.WITHDRAW_FEE, '1', 'WITHDRAW_FEE'),
    dev: env.DEV_CHAIN === '1',
    devPort: int(env.DEV_CHAIN_PORT, 8545, 'DEV_CHAIN_PORT'),
  };
}

/** "https://a.example,https://b.example" -> normalised origins; the local ones of `port` by default. */
export function originsOf(value: string | undefined, port: number): string[] {
  const list = (value || `http://localhost:${port},http://127.0.0.1:${port}`)
    .split(',')
    .map((o) => o.trim())
    .filter(Boolean);
  return list.map((o) => {
    let url: URL;
    try {
      url = new URL(o);
    } catch {
      throw new Error(`PUBLIC_ORIGIN must be a comma list of origins like https://app.example.com, got "${o}"`);
    }
    if (!/^https?:$/.test(url.protocol) || url.origin !== o.replace(/\/$/, '') || url.pathname !== '/') {
      throw new Error(`PUBLIC_ORIGIN must be a comma list of origins like https://app.example.com (no path), got "${o}"`);
    }
    return url.origin;
  });
}

/** EXCHANGE_URLS: "binance=http://127.0.0.1:9300,okx=https://..." as ccxt id -> origin. */
export function exchangeUrlsOf(value: string | undefined): Record<string, string> {
  const urls: Record<string, string> = {};
  for (const entry of (value ?? '')
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean)) {
    const [name, url] = [entry.slice(0, entry.indexOf('=')), entry.slice(entry.indexOf('=') + 1)];
    let parsed: URL | null = null;
    try {
      parsed = new URL(url);
    } catch {
      parsed = null;
    }
    if (!/^[a-z0-9]+$/.test(name) || !parsed || !/^https?:$/.test(parsed.protocol) || parsed.pathname !== '/') {
      throw new Error(`EXCHANGE_URLS must be a comma list like binance=http://127.0.0.1:9300 (an exchange's ccxt id and an origin), got "${entry}"`);
    }
    urls[name] = parsed.origin;
  }
  return urls;
}

/** Values that would trust every hop: the leftmost X-Forwarded-For, which the client writes, would be its address. */
const TRUST_ALL = new Set(['true', '*', 'all', 'any', 'yes', 'on']);
/** Address names proxy-addr knows: 127.0.0.1/8 and ::1, fe80::/10 and 169.254.0.0/16, fc00::/7 and the private IPv4 ranges. */
const TRUST_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** One entry of a proxy list: an address, an address/prefix (never /0: every address), or one of proxy-addr's names. */
function proxyEntryOk(entry: string): boolean | 'all' {
  if (TRUST_NAMES.has(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  if (!/^\d{1,3}$/.test(prefix) || Number(prefix) > (family === 4 ? 32 : 128)) return false;
  return Number(prefix) === 0 ? 'all' : true;
}

/**
 * TRUST_PROXY: off, a hop count (the number of proxies in front of the server, given to Fastify as a
 * number), or the proxies' addresses / CIDRs. Trusting every hop is refused: any client could then name
 * any address as its own and every per-source limit would be void.
 */
export function trustProxyOf(value: string | undefined): Config['trustProxy'] {
  const text = (value ?? '').trim();
  if (text === '' || text === '0' || text.toLowerCase() === 'false') return false;
  const everything = `TRUST_PROXY must not trust every hop ("${value}"): a client could then write any address as its own; give the number of proxies in front of the server (e.g. 1) or their addresses`;
  if (TRUST_ALL.has(text.toLowerCase())) throw new Error(everything);
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    if (hops > 16) throw new Error(`TRUST_PROXY must be a hop count from 1 to 16 or proxy addresses, got "${value}"`);
    return hops;
  }
  const entries = text.split(',').map((e) => e.trim());
  for (const entry of entries) {
    const ok = proxyEntryOk(entry);
    if (ok === 'all') throw new Error(everything);
    if (!ok) throw new Error(`TRUST_PROXY must be a hop count (e.g. 1) or a comma list of proxy addresses or CIDRs, got "${value}"`);
  }
  return entries.join(',');
}

/** Reads the configuration; a malformed value stops the start with a message naming the variable. */
export function readConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const logLevel = env.LOG_LEVEL || (env.NODE_ENV === 'production' ? 'error' : 'warn');
  if (!logLevels.includes(logLevel)) throw new Error(`LOG_LEVEL must be one of ${logLevels.join(', ')}, got "${logLevel}"`);
  const port = env.PORT === '0' ? 0 : int(env.PORT, 8080, 'PORT');
  if (port > 65_535) throw new Error(`PORT must be at most 65535, got "${env.PORT}"`);
  return {
    port,
    host: env.HOST || '0.0.0.0',
    dataDir: env.DATA_DIR || './data',
    databaseUrl: env.DATABASE_URL || '',
    sessionTtlMs: int(env.SESSION_TTL_DAYS, 30, 'SESSION_TTL_DAYS') * 86_400_000,
    logLevel,
    staticDir: env.STATIC_DIR || './dist',
    serverIps: (env.SERVER_IPS || '127.0.0.1')
      .split(',')
      .map((ip) => ip.trim())
      .filter(Boolean),
    secretKey: env.SECRET_KEY || '',
    secretKeyFile: env.SECRET_KEY_FILE || '',
    trustProxy: trustProxyOf(env.TRUST_PROXY),
    limits: {
      ...defaultLimits,
      windowMs: int(env.LOGIN_WINDOW_MINUTES, 15, 'LOGIN_WINDOW_MINUTES') * 60_000,
      challengeAfter: int(env.LOGIN_CHALLENGE_AFTER, defaultLimits.challengeAfter, 'LOGIN_CHALLENGE_AFTER'),
      accountChallengeAfter: int(env.LOGIN_ACCOUNT_CHALLENGE_AFTER, defaultLimits.accountChallengeAfter, 'LOGIN_ACCOUNT_CHALLENGE_AFTER'),
      sourceChallengeAfter: int(env.LOGIN_SOURCE_CHALLENGE_AFTER, defaultLimits.sourceChallengeAfter, 'LOGIN_SOURCE_CHALLENGE_AFTER'),
      delayCapMs: int(env.LOGIN_DELAY_CAP_S, 60, 'LOGIN_DELAY_CAP_S') * 1000,
    },
    challenge: {
      cost: int(env.CHALLENGE_COST, defaultChallenge.cost, 'CHALLENGE_COST'),
      counter: int(env.CHALLENGE_COUNTER, defaultChallenge.counter, 'CHALLENGE_COUNTER'),
      ttlMs: int(env.CHALLENGE_TTL_S, 600, 'CHALLENGE_TTL_S') * 1000,
    },
    rateLimits: {
      register: rateLimitOf(env.RATE_LIMIT_REGISTER, defaultRateLimits.register, 'RATE_LIMIT_REGISTER'),
      login: rateLimitOf(env.RATE_LIMIT_LOGIN, defaultRateLimits.login, 'RATE_LIMIT_LOGIN'),
      wallet: rateLimitOf(env.RATE_LIMIT_WALLET, defaultRateLimits.wallet, 'RATE_LIMIT_WALLET'),
      challenge: rateLimitOf(env.RATE_LIMIT_CHALLENGE, defaultRateLimits.challenge, 'RATE_LIMIT_CHALLENGE'),
      public: rateLimitOf(env.RATE_LIMIT_PUBLIC, defaultRateLimits.public, 'RATE_LIMIT_PUBLIC'),
      user: rateLimitOf(env.RATE_LIMIT_USER, defaultRateLimits.user, 'RATE_LIMIT_USER'),
      signal: rateLimitOf(env.RATE_LIMIT_SIGNAL, defaultRateLimits.signal, 'RATE_LIMIT_SIGNAL'),
      signalToken: rateLimitOf(env.RATE_LIMIT_SIGNAL_TOKEN, defaultRateLimits.signalToken, 'RATE_LIMIT_SIGNAL_TOKEN'),
    },
    signalGapMs: Math.round(Number(decimalOf(env.SIGNAL_MIN_GAP_S, String(DEFAULT_SIGNAL_GAP_MS / 1000), 'SIGNAL_MIN_GAP_S', '3600')) * 1000),
    engineTickMs: int(env.ENGINE_TICK_MS, 1000, 'ENGINE_TICK_MS'),
    stalePriceMs: int(env.STALE_PRICE_MS, 30_000, 'STALE_PRICE_MS'),
    reconcileEveryMs: int(env.RECONCILE_EVERY_MS, 30_000, 'RECONCILE_EVERY_MS'),
    restingTypes: restingTypesOf(env.RESTING_ORDERS),
    marketSpeed: int(env.MARKET_SPEED, 1, 'MARKET_SPEED'),
    fuelFeeRate: decimalOf(env.FUEL_FEE_RATE, '0.2', 'FUEL_FEE_RATE', '1'),
    welcomeFuel: decimalOf(env.FUEL_WELCOME, '100', 'FUEL_WELCOME'),
    referralRates: (env.REFERRAL_RATES ?? '0.1,0.05')
      .split(',')
      .filter(Boolean)
      .map((r) => decimalOf(r.trim(), '0', 'REFERRAL_RATES', '1')),
    chain: chainOf(env),
    changeRates: changeRatesOf(env.CHANGE_RATES),
    aiRetuneMs: int(env.AI_RETUNE_HOURS, 24, 'AI_RETUNE_HOURS') * 3_600_000,
    publicOrigins: originsOf(env.PUBLIC_ORIGIN, port || 8080),
    vapidSubject: env.VAPID_SUBJECT || 'mailto:alerts@quantbot.example',
    webhookAllowHosts: (env.WEBHOOK_ALLOW_HOSTS ?? '')
      .split(',')
      .map((h) => h.trim())
      .filter(Boolean),
    exchangeUrls: exchangeUrlsOf(env.EXCHANGE_URLS),
    hstsMaxAge: env.HSTS_MAX_AGE === '0' ? 0 : int(env.HSTS_MAX_AGE, 31_536_000, 'HSTS_MAX_AGE'),
    bodyTimeoutMs: int(env.BODY_TIMEOUT_MS, 10_000, 'BODY_TIMEOUT_MS'),
    maxBotsPerUser: int(env.MAX_BOTS_PER_USER, 100, 'MAX_BOTS_PER_USER'),
    aiQueueMax: int(env.AI_QUEUE_MAX, 8, 'AI_QUEUE_MAX'),
    aiSearchWindow: searchWindowOf(env.AI_SEARCH_DAYS),
    heavyThreads: int(env.HEAVY_THREADS, Math.max(1, availableParallelism() - 1), 'HEAVY_THREADS'),
    backtestQueue: int(env.BACKTEST_QUEUE, 3, 'BACKTEST_QUEUE'),
    backtestDeadlineMs: int(env.BACKTEST_DEADLINE_S, 60, 'BACKTEST_DEADLINE_S') * 1000,
    indicatorBudget: int(env.INDICATOR_BUDGET, DEFAULT_INDICATOR_BUDGET, 'INDICATOR_BUDGET'),
    withdrawLockMs: Math.round(Number(decimalOf(env.WITHDRAW_LOCK_HOURS, '24', 'WITHDRAW_LOCK_HOURS', '720')) * 3_600_000),
  };
}

/**
 * RESTING_ORDERS: bot types whose orders rest as limit orders (default grid, as every exchange's own grid
 * bot keeps them; none: every order at market).
 */
function restingTypesOf(text: string | undefined): string[] {
  if (text === undefined || text.trim() === '') return ['grid'];
  if (text.trim() === 'none') return [];
  const types = text
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);
  const known = ['grid', 'martin', 'dca'];
  const unknown = types.find((t) => !known.includes(t));
  if (unknown) throw new Error(`RESTING_ORDERS: ${unknown} has no resting orders (${known.join(', ')}, or none)`);
  return types;
}
