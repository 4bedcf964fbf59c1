/**
 * Request schemas (zod) for the calls of docs/product.md §7 and the response data types. The server validates
 * every input with these; the PWA imports the inferred types only (`import type`), never zod.
 * Objects are strict: an unknown key is an error. Query values arrive as strings and are parsed here,
 * explicitly; JSON bodies are never coerced.
 */
import { z } from 'zod';
import type { Page } from './envelope.ts';
import type { SessionList } from './session-list.ts';
import {
  actionKinds,
  batchOperations,
  botCreateSchema,
  botOperations,
  botStatuses,
  botTypesBuilt,
  botUpdateSchema,
  perType,
  riskLevels,
  symbolSchema,
  type AnyParamsInput,
  type BuiltBotType,
  type GridParamsInput,
  type MartinParamsInput,
  type BatchStatus,
  type BillGroup,
  type BillLog,
  type BotAction,
  type BotSignal,
  type BotWebhook,
  type BotCount,
  type BotDetail,
  type BotInfo,
  type BotLogLine,
  type BotOrder,
  type BotPosition,
  type BotSummary,
  type OpenPosition,
  type PnlHistory,
  type Portfolio,
} from './bots.ts';
import { ACCOUNT_RE, AVATAR_MAX, PAGE_SIZE_MAX, PASSWORD_RE, PAYMENT_PASSWORD_RE, REFERRER_RE, passwordTypes, setInfoFields } from './rules.ts';

const terminal = z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4)]);
const account = z.string().trim().min(1, 'required').regex(ACCOUNT_RE, 'format');
const password = z.string().min(1, 'required').regex(PASSWORD_RE, 'format');
const referrer = z.string().trim().regex(REFERRER_RE, 'format');
const optionalReferrer = z.union([z.literal(''), referrer]).optional();
const address = z.string().regex(/^0x[0-9a-fA-F]{40}$/, 'format');
const signature = z
  .string()
  .regex(/^0x[0-9a-fA-F]+$/, 'format')
  .max(2000);
const positiveInt = (max: number) =>
  z
    .string()
    .regex(/^[1-9]\d{0,8}$/, 'format')
    .transform(Number)
    .pipe(z.number().int().min(1).max(max));
const page = positiveInt(1_000_000).optional();
const pageSize = positiveInt(PAGE_SIZE_MAX).optional();
const id = z.string().regex(/^[1-9]\d{0,17}$/, 'format');
const exchange = z.string().regex(/^[a-z0-9]{2,20}$/, 'format');
/** Chain 56 by its usual names; the service refuses other networks with NetworkUnsupported. */
const network = z.string().regex(/^[A-Za-z0-9-]{2,20}$/, 'format');
/**
 * A backtest's slippage: a fraction of the price against the trader on every fill ('0.0005' = 0.05 %),
 * 0 to 0.05; absent, the default (0.05 %, strategy/backtest.ts DEFAULT_SLIPPAGE).
 */
const slippage = z
  .string()
  .regex(/^0(\.\d{1,8})?$/, 'format')
  .refine((s) => Number(s) <= 0.05, 'range')
  .optional();
const backtestBase = { exchangeId: z.number().int().positive(), symbol: symbolSchema, days: z.union([z.literal(7), z.literal(30), z.literal(90)]), slippage };
export const rankPeriods = ['1d', '7d', '30d', 'all'] as const;
const tradingMode = z.enum(['live', 'simulation']);
const assetName = z.enum(['usdt', 'fuel', 'points', 'rewards']);
/** A second factor: 6 digits from the authenticator app, or a recovery code (K7Q2-MX9D). */
const secondFactor = z.string().regex(/^(\d{6}|[2-9A-HJKMNP-Za-hjkmnp-z]{4}-?[2-9A-HJKMNP-Za-hjkmnp-z]{4})$/, 'format');
const decimal = z.string().regex(/^(0|[1-9]\d{0,17})(\.\d{1,18})?$/, 'format');
/** A UTC day, YYYY-MM-DD, that exists on the calendar (2026-02-30 does not). */
const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'format')
  .refine((d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) && new Date(`${d}T00:00:00Z`).toISOString().startsWith(d), 'format');
/** The trader's time zone, minutes east of UTC (-720 to 840; UTC+8 is 480), so a day is theirs, not UTC's. */
const utcOffset = z
  .string()
  .regex(/^-?\d{1,3}$/, 'format')
  .transform(Number)
  .pipe(z.number().int().min(-720).max(840));
/** A solved proof-of-work challenge: the base64 ALTCHA payload (challenge and solution). */
const challengePayload = z
  .string()
  .regex(/^[A-Za-z0-9+/]+={0,2}$/, 'format')
  .max(4000);

export const schemas = {
  loginAccount: { body: z.strictObject({ terminal, account, password: z.string().min(1, 'required').max(128), challenge: challengePayload.optional() }) },
  loginNonce: { query: z.strictObject({ address }) },
  loginVerify: {
    body: z.strictObject({ address, signature, terminal, referrer: optionalReferrer, message: z.string().max(2000).optional() }),
  },
  loginRegister: {
    body: z.strictObject({
      terminal,
      account,
      password,
      confirm: z.string().min(1, 'required').max(128),
      referrer: optionalReferrer,
      agreement: z.boolean().optional(),
      /** Required: the server answers ChallengeRequired without it. */
      challenge: challengePayload.optional(),
    }),
  },
  loginChallenge: {},
  loginLogout: { body: z.strictObject({}).optional() },
  userBind: { body: z.strictObject({ address, signature, message: z.string().max(2000).optional() }) },
  authProfile: {},
  userIndex: {},
  userSetInfo: { body: z.strictObject({ field: z.enum(setInfoFields), value: z.string().max(AVATAR_MAX) }) },
  userPassword: {
    body: z.strictObject({
      type: z.enum(passwordTypes),
      old: z.string().max(128).optional(),
      password: z.string().min(1, 'required').max(128),
      confirm: z.string().min(1, 'required').max(128),
      /** A wallet account's proof: its bound wallet's signature of the userPaymentNonce statement. */
      signature: signature.optional(),
      otp: secondFactor.optional(),
    }),
  },
  marketSymbols: {
    query: z.strictObject({
      exchange: exchange.optional(),
      latest: z.enum(['0', '1']).optional(),
      indicator: z.enum(['ma20', 'ema20', 'rsi14']).optional(),
      history: z.enum(['0', '1']).optional(),
      timeframe: z.enum(['1m', '5m', '15m', '1h', '4h', '1d']).optional(),
      // Beyond the spec's fields: one pair only, so a chart does not fetch every pair's history.
      symbol: z
        .string()
        .regex(/^[A-Z0-9]{2,20}\/[A-Z0-9]{2,20}$/, 'format')
        .optional(),
    }),
  },
  marketExchanges: {},
  exchangesBind: {
    body: z.strictObject({
      exchangeId: z.union([z.number().int().positive(), id]),
      apiKey: z.string().min(1, 'required').max(256),
      secretKey: z.string().min(1, 'required').max(512),
      passphrase: z.string().max(256).optional(),
      otp: secondFactor.optional(),
    }),
  },
  exchangesUnbind: { params: z.strictObject({ id }) },
  userApi: { query: z.strictObject({ exchange: exchange.optional() }) },
  userApiPost: { body: z.strictObject({ exchange }) },
  marketBotTypes: {},
  marketTypeBots: { query: z.strictObject({ type_id: id.optional(), page, page_size: pageSize, local: z.enum(['0', '1']).optional() }) },
  marketPrice: { query: z.strictObject({ symbols: z.string().regex(/^[A-Z0-9]{2,20}\/[A-Z0-9]{2,20}(,[A-Z0-9]{2,20}\/[A-Z0-9]{2,20}){0,49}$/, 'format') }) },
  indexBanners: {},
  userAsset: { query: z.strictObject({ exchange: exchange.optional() }) },
  userAccount: {},
  userAccountLogs: { query: z.strictObject({ type: z.enum(['usdt', 'fuel', 'points', 'rewards']).optional(), page, page_size: pageSize }) },
  // mode (ours): live and simulated bots apart; left out, both.
  userBill: { query: z.strictObject({ mode: tradingMode.optional() }) },
  userBillLogs: { query: z.strictObject({ page, page_size: pageSize, mode: tradingMode.optional() }) },
  userBillGroup: { query: z.strictObject({ mode: tradingMode.optional() }) },
  userDeposit: { body: z.strictObject({ network: network.optional(), txHash: z.string().regex(/^0x[0-9a-fA-F]{64}$/, 'format') }) },
  userDepositInfo: {},
  userDepositAddress: { query: z.strictObject({ network }) },
  userBotCreate: { body: botCreateSchema },
  userBotInfo: { query: z.strictObject({ id }) },
  userBotDetail: { query: z.strictObject({ id }) },
  userBotPositions: { query: z.strictObject({ id, page, page_size: pageSize }) },
  userPositionAdds: { query: z.strictObject({ id, cycle: positiveInt(1_000_000_000).optional() }) },
  userBotUpdate: { query: z.strictObject({ id }), body: botUpdateSchema },
  userBotList: {
    query: z.strictObject({ page, page_size: pageSize, exchange: exchange.optional(), status: z.enum(botStatuses).optional(), mode: tradingMode.optional(), type: z.enum(botTypesBuilt).optional() }),
  },
  userBotCount: { query: z.strictObject({ exchange: exchange.optional(), mode: tradingMode.optional(), type: z.enum(botTypesBuilt).optional() }) },
  userBotOperation: {
    // amount: the quote (USDT) a manual add spends, when the trader chose it; sell=1 with stop: sell the position first (else the coins are kept).
    // share (percent, 1-100) or baseAmount (of the base coin) with close: a partial close of a martin bot; neither: all of it.
    query: z.strictObject({ id, action: z.enum(botOperations), amount: decimal.optional(), sell: z.enum(['0', '1']).optional(), share: decimal.optional(), baseAmount: decimal.optional() }),
  },
  userBotBatch: {
    query: z.strictObject({
      action: z.enum(batchOperations),
      ids: z.string().regex(/^[1-9]\d{0,17}(,[1-9]\d{0,17}){0,99}$/, 'format'),
      // sell=1 with stop: each bot holding coins sells them first, as one bot's stop (else the coins are kept).
      sell: z.enum(['0', '1']).optional(),
    }),
  },
  userBotBatchStatus: { query: z.strictObject({ task_id: z.string().regex(/^[A-Za-z0-9-]{1,64}$/, 'format') }) },
  userBotActions: { query: z.strictObject({ id, page, page_size: pageSize }) },
  // A DCA or custom bot's signal webhook (whether it has one), a new token (the old one stops working), its signals newest first.
  userBotWebhook: { query: z.strictObject({ id }) },
  userBotWebhookReset: { body: z.strictObject({ id }) },
  userBotSignals: { query: z.strictObject({ id, page, page_size: pageSize }) },
  // Whether the owner shows the bot's parameters on the strategy rank; the switch changes nothing of its trading.
  userBotShare: { query: z.strictObject({ id }) },
  userBotShareSet: { body: z.strictObject({ id, shareRules: z.boolean() }) },
  // Every bot's log, filtered by bot, action kind and days (from and to included) in the trader's time zone (tz; absent: UTC).
  userActions: {
    query: z.strictObject({ page, page_size: pageSize, bot: id.optional(), kind: z.enum(actionKinds).optional(), from: day.optional(), to: day.optional(), tz: utcOffset.optional() }),
  },
  // PnL over time of one bot (id) or of the trader's bots (mode), over the last `days` UTC days.
  // tz: the trader's offset from UTC in minutes east (UTC+8: 480), so the daily bars fall on their days as the logs do.
  userPnl: {
    query: z.strictObject({
      id: id.optional(),
      mode: tradingMode.optional(),
      days: z.enum(['7', '30', '90', '365']).optional(),
      tz: utcOffset.optional(),
    }),
  },
  // Equity across Paper, the simulated accounts and the bound exchanges.
  userPortfolio: {},
  userWithdrawInfo: {},
  userWithdraw: {
    body: z.strictObject({
      network: network.optional(),
      address: z.string().regex(/^0x[0-9a-fA-F]{40}$/, 'format'),
      amount: decimal,
      payPassword: z.string().regex(PAYMENT_PASSWORD_RE, 'format'),
      /** The client's idempotency key: the same key never makes a second withdrawal. */
      requestId: z.string().regex(/^[A-Za-z0-9-]{8,64}$/, 'format'),
      otp: secondFactor.optional(),
    }),
  },
  userChangeInfo: {},
  userChange: { body: z.strictObject({ from: assetName, to: assetName, amount: decimal, payPassword: z.string().regex(PAYMENT_PASSWORD_RE, 'format') }) },
  marketUserRank: { query: z.strictObject({ page, limit: pageSize, period: z.enum(rankPeriods).optional(), mode: z.enum(['live', 'simulation']).optional() }) },
  marketBotRank: { query: z.strictObject({ page, limit: pageSize, period: z.enum(rankPeriods).optional(), mode: z.enum(['live', 'simulation']).optional() }) },
  userReferrals: { query: z.strictObject({ page, limit: pageSize }) },
  userPositions: { query: z.strictObject({ page, page_size: pageSize }) },
  noticeList: { query: z.strictObject({ kind: z.enum(['warning', 'notice']).optional(), page, page_size: pageSize }) },
  noticeDetail: { query: z.strictObject({ id }) },
  noticeRead: { body: z.strictObject({ id: id.optional(), all: z.boolean().optional() }) },
  paperReset: { body: z.strictObject({ exchange: exchange.optional() }).optional() },
  paperSweepDust: { body: z.strictObject({ exchange: exchange.optional() }).optional() },
  marketFutures: { query: z.strictObject({ exchange }) },
  // Account security.
  userSecurity: {},
  userTwoFactorSetup: { body: z.strictObject({}).optional() },
  userTwoFactorEnable: { body: z.strictObject({ code: z.string().regex(/^\d{6}$/, 'format') }) },
  userTwoFactorDisable: { body: z.strictObject({ code: secondFactor }) },
  userPaymentNonce: {},
  strategyAiQueue: {},
  strategyAiSearch: {
    body: z.strictObject({ exchangeId: z.number().int().positive(), symbol: symbolSchema, investment: decimal, risk: z.enum(riskLevels), slippage }),
  },
  strategyBacktest: {
    body: perType(backtestBase),
  },
  // The trader's live sessions (the security screen), and ending one or all but the asking one.
  userSessions: { query: z.strictObject({ page, page_size: pageSize }) },
  userSessionEnd: { body: z.strictObject({ id }) },
  userSessionEndOthers: { body: z.strictObject({}).optional() },
  // A demo's faucet (DEV_CHAIN=1 only): test USDT and BNB to a wallet.
  userFaucet: { body: z.strictObject({ address }) },
} as const;

export type CallName = keyof typeof schemas;
type Part<N extends CallName, K extends string> = (typeof schemas)[N] extends Record<K, z.ZodType> ? z.input<(typeof schemas)[N][K]> : undefined;
/** What the PWA sends: the JSON body, the query (as strings) and the path params of a call. */
export type BodyOf<N extends CallName> = Part<N, 'body'>;
export type QueryOf<N extends CallName> = Part<N, 'query'>;
export type ParamsOf<N extends CallName> = Part<N, 'params'>;

// ---- Response data ----

/** The logged-in user (docs/product.md §3): what login answers, plus the token. */
export interface LoginData {
  token: string;
  sn: string;
  nickname: string;
  account: string;
  mobile: string;
  address: string;
  avatar: string;
  /** The sn of the user who invited this one; '' when none. */
  referral: string;
}

export type PublicUser = Omit<LoginData, 'token'>;

/**
 * A proof-of-work challenge (ALTCHA v2, PBKDF2/SHA-256): find the counter whose derived key starts with
 * keyPrefix, then send base64(JSON {challenge, solution: {counter, derivedKey}}) as `challenge`.
 */
export interface LoginChallenge {
  parameters: {
    algorithm: string;
    nonce: string;
    salt: string;
    cost: number;
    keyLength: number;
    keyPrefix: string;
    keySignature: string;
    /** Unix seconds. */
    expiresAt: number;
  };
  signature: string;
}

export interface Profile extends PublicUser {
  email: string;
  /** Whether a login password exists (false for wallet-only accounts). */
  loginPasswordSet: boolean;
  paymentPasswordSet: boolean;
  createdAt: string;
}

export interface UserIndex {
  profile: Profile;
  /** Balances are exact decimal strings. */
  fuel: string;
  points: string;
  referrals: number;
}

/**
 * A notice or a warning for the user. `code` names what happened (fuel_low, fuel_empty,
 * bot_paused, api_invalid, order_failed); `detail` holds its figures; the app words it in zh or en.
 */
export interface Notice {
  id: string;
  kind: 'warning' | 'notice';
  code: string;
  detail: Record<string, string>;
  read: boolean;
  createdAt: string;
}

/** A member of the trader's team (GET /api/user/referrals): invited directly or further down. */
export interface ReferralMember {
  sn: string;
  nickname: string;
  /** 1: invited by the trader; 2: invited by one of theirs. */
  level: number;
  joinedAt: string;
  /** Bots running now. */
  running: number;
  /** Rewards this member's fuel fees earned the trader. */
  rewards: string;
}

/** The platform balances (GET /api/user/account), exact decimal strings. */
export interface AccountBalances {
  usdt: string;
  fuel: string;
  points: string;
  rewards: string;
}

/** A deposit the server has seen or been told of (GET /api/user/depositInfo). */
export interface DepositRecord {
  txHash: string;
  amount: string | null;
  /** submitted: reported by the trader, not yet confirmed on chain; credited: in the USDT balance. */
  status: 'submitted' | 'credited';
  createdAt: string;
}

/** Deposits on chain 56: where to pay, how much at least, how deep before it counts. */
export interface DepositInfo {
  /** false when this server has no chain configured (the screen says so). */
  enabled: boolean;
  network: 'BSC';
  chainId: number;
  /** The USDT token contract and its decimals. */
  token: string;
  decimals: number;
  /** The deposit contract: approve it, then deposit(amount, memo); or send USDT to it from the bound wallet. */
  contract: string;
  minimum: string;
  confirmations: number;
  /** The trader's UID, which deposit() carries so the server knows whose money it is. */
  memo: string;
  /** The wallet bound to the account, whose plain transfers are credited too. */
  wallet: string | null;
  /** The chain is a local demo chain (DEV_CHAIN=1) with a faucet: userFaucet sends test USDT and BNB. */
  faucet: boolean;
  /** The latest deposits (at most 10; the account logs hold them all). */
  recent: DepositRecord[];
}

export interface DepositAddress {
  network: 'BSC';
  address: string;
  memo: string;
  token: string;
}

/** What POST /api/user/deposit answers for a reported transaction. */
export interface DepositReport {
  txHash: string;
  status: 'submitted' | 'credited';
  /** Blocks so far (0: not found on chain yet) and needed. */
  confirmations: number;
  required: number;
}

export interface WithdrawalRecord {
  id: string;
  requestId: string;
  address: string;
  amount: string;
  fee: string;
  /** amount - fee: what arrives. */
  received: string;
  /** pending and signed are waiting; sent is broadcast; confirmed is mined; failed is refunded. */
  status: 'pending' | 'signed' | 'sent' | 'confirmed' | 'failed';
  txHash: string | null;
  createdAt: string;
}

export interface WithdrawInfo {
  enabled: boolean;
  network: 'BSC';
  token: string;
  minimum: string;
  fee: string;
  /** The USDT balance. */
  balance: string;
  paymentPasswordSet: boolean;
  recent: WithdrawalRecord[];
  /** Withdrawals wait until then after a change of the account's security (ISO time), or null. */
  lockedUntil: string | null;
  /** How long withdrawals wait after a security change, and a new address before it is paid (WITHDRAW_LOCK_HOURS), in ms. */
  lockMs: number;
  /** Two-factor authentication is on: a withdrawal needs a code. */
  twoFactor: boolean;
}

/** The security screen: what protects the account now. */
export interface SecurityInfo {
  twoFactor: boolean;
  recoveryCodesLeft: number;
  loginPasswordSet: boolean;
  paymentPasswordSet: boolean;
  /** The bound wallet ('' for none): a wallet-only account sets its payment password with its signature. */
  wallet: string;
  walletProofNeeded: boolean;
  withdrawLockedUntil: string | null;
  /** How long withdrawals wait after a security change (WITHDRAW_LOCK_HOURS), in ms. */
  withdrawLockMs: number;
}

export interface ChangePair {
  from: AccountLog['asset'];
  to: AccountLog['asset'];
  /** Units of `to` per unit of `from`. */
  rate: string;
}

export interface ChangeInfo {
  balances: AccountBalances;
  pairs: ChangePair[];
  paymentPasswordSet: boolean;
}

export type RankPeriod = (typeof rankPeriods)[number];

/** One place on the rank list: realised profit of the cycles closed in the period. */
export interface RankEntry {
  rank: number;
  nickname: string;
  avatar: string;
  /** The UID with its middle hidden. */
  uid: string;
  profit: string;
  cycles: number;
  me: boolean;
}

/** Whether the strategy rank shows the owner's bot's parameters (GET / POST /api/user/botShare). */
export interface BotShare {
  id: string;
  shareRules: boolean;
}

/**
 * A bot on the strategy rank, by return on its investment over the period: its type, pair and figures,
 * and its parameters (to copy into a bot of one's own) when its owner shares them; never its owner, its
 * name or its id.
 */
export interface BotRankEntry {
  rank: number;
  type: BuiltBotType;
  exchange: string;
  symbol: string;
  /** Realised profit of the cycles closed in the period, and its ROI on the investment. */
  profit: string;
  roiPct: string;
  /** Realised profit plus the floating PnL now, less what was floating when the period began; the rank's order. */
  totalPnl: string;
  totalRoiPct: string;
  /** The largest fall of its equity in the period (realised and floating), in percent of its investment. */
  maxDrawdownPct: string;
  /** Seconds since its first start. */
  runtime: number;
  cycles: number;
  /** Null unless its owner shares them; a DCA schedule in UTC (utcOffset 0), never its owner's time zone. */
  params: AnyParamsInput | null;
  /** One of the asking trader's own bots. */
  mine: boolean;
}

/**
 * paperSweepDust: what was converted. Each coin of the simulated account too small to be sold by an order
 * (below its USDT pair's minimum amount or cost) and no longer any bot's to sell, into USDT at the price
 * now less the fee; `total` the USDT received, `balances` the account after it.
 */
export interface DustSwept {
  exchange: string;
  /** from: the names of the stopped bots whose dust the coin was (empty: the account's own). */
  swept: { currency: string; amount: string; quote: string; from: string[] }[];
  total: string;
  balances: ExchangeBalance[];
}

/** A currency on a bound exchange account. */
export interface ExchangeBalance {
  currency: string;
  free: string;
  total: string;
}

/**
 * A balance of the trader's account on an exchange, with what their running and paused bots there have
 * reserved of it (the quote each may still spend on buys it has not made) and `available`: free minus
 * reserved, at least 0, what a new bot can count on.
 */
export interface AssetBalance extends ExchangeBalance {
  reserved: string;
  available: string;
}

/** A backtest of a configuration on recent history (POST /api/strategy/backtest). */
export interface BacktestAnswer {
  exchange: string;
  symbol: string;
  days: number;
  /** The candle size replayed: 1m on Paper; coarser on live exchanges (one page of candles). */
  timeframe: string;
  from: number;
  to: number;
  candles: number;
  startPrice: number;
  endPrice: number;
  investment: string;
  /** Exact realised profit of the closed cycles, net of fees. */
  realized: string;
  returnPct: number;
  maxDrawdownPct: number;
  priceChangePct: number;
  cycles: number;
  fills: number;
  fees: number;
  open: { amount: string; average: string; value: number } | null;
  equity: { time: number; value: number }[];
  /** How orders were filled: at the trigger price (the candle's open when it opened past it), with the slippage. */
  fill: FillModelAnswer;
}

/**
 * A backtest's fill model: a triggered order fills at its trigger price, or at the candle's open when
 * the candle opened past it, then `slippage` against the trader (a fraction: '0.0005' = 0.05 %).
 * `seconds`: the market's own seconds were read (Paper, the simulated market): each minute's order of
 * low and high, a stop at the price of the second that reached it, a cycle re-opened a second after it
 * closed, as the live engine's price rounds take them.
 */
export interface FillModelAnswer {
  price: 'trigger';
  slippage: string;
  seconds: boolean;
}

/** Figures of a backtest window, for a proposal. */
export interface AiFigures {
  returnPct: number;
  maxDrawdownPct: number;
  realized: string;
  cycles: number;
}

/** One configuration the AI search proposes, with why (its backtested figures and score). */
export interface AiProposal {
  type: 'martin' | 'grid';
  params: MartinParamsInput | GridParamsInput;
  score: number;
  d30: AiFigures;
  d7: AiFigures;
  equity: { time: number; value: number }[];
}

export interface AiSearchAnswer {
  exchange: string;
  symbol: string;
  risk: 'conservative' | 'balanced' | 'aggressive';
  /** Candidates backtested, kept within the drawdown limit, and the limit (percent). */
  tried: number;
  kept: number;
  limit: number;
  timeframe: string;
  elapsedMs: number;
  /** How the candidates' backtests filled their orders. */
  fill: FillModelAnswer;
  proposals: AiProposal[];
}

/** A USDT-margined perpetual, read only. */
export interface FuturesRow {
  symbol: string;
  price: string | null;
  change24h: string | null;
  /** Funding rate of the current period, as a fraction (0.0001 = 0.01%). */
  fundingRate: string | null;
  nextFundingTime: number | null;
}

/** A home banner: localized texts and where a tap goes (an app path). */
export interface Banner {
  id: string;
  title: string;
  subtitle: string;
  link: string;
  tone: 'blue' | 'green' | 'orange';
}

/** One change of a balance (GET /api/user/accountLogs): signed amount, the balance after it, why. */
export interface AccountLog {
  id: string;
  asset: 'usdt' | 'fuel' | 'points' | 'rewards';
  amount: string;
  balance: string;
  reason: 'welcome' | 'profit_fee' | 'deposit' | 'withdraw' | 'refund' | 'change' | 'reward' | 'adjust';
  detail: Record<string, string>;
  createdAt: string;
}

/** An exchange a trader can bind (GET /api/market/exchanges). */
export interface ExchangeInfo {
  id: number;
  code: string;
  name: string;
  logo: string;
  /** Whether the API key comes with a passphrase (OKX, Bitget). */
  passphrase: boolean;
  spot: boolean;
  /** Whether paper trading (simulation) is offered on it. */
  simulation: boolean;
  /** A simulated account on this live exchange's prices: the live exchange's code (absent: a real exchange, or Paper). */
  simulatedOf?: string;
}

/** A bound API key as the app sees it: never the secret, the key masked. */
export interface ApiBinding {
  id: string;
  exchangeId: number;
  exchange: string;
  apiKey: string;
  createdAt: string;
  updatedAt: string;
}

/** A symbol's latest price and its change over 24 hours (percent, 2 decimals), exact decimal strings. */
export interface Ticker {
  symbol: string;
  price: string;
  change24h: string;
}

export interface CandleData {
  time: number;
  open: string;
  high: string;
  low: string;
  close: string;
  volume: string;
}

export interface SymbolInfo extends Ticker {
  exchange: string;
  tickSize: string;
  stepSize: string;
  /** Smallest order amount (base) and cost (quote), and the taker fee rate: what a bot's orders must meet. */
  minAmount: string;
  minCost: string;
  feeRate: string;
  /** Candles of the asked timeframe, oldest first, when `history` is 1. */
  history?: CandleData[];
  /** The last 24 hourly closes, oldest first, when `latest` is 1 (the list's sparklines). */
  spark?: number[];
  /** The asked indicator over `history`'s closes, one value per candle (null until enough candles). */
  indicator?: { name: 'ma20' | 'ema20' | 'rsi14'; values: (number | null)[] };
}

/** A strategy type (docs/product.md §3). */
export interface BotType {
  id: number;
  /** A bot type the API builds, or one the catalog names that has no bots of its own (the AI proposes martin and grid bots; arbitrage is not built). */
  code: BuiltBotType | 'ai' | 'arbitrage';
  name: string;
  /** The spec's family: grid trading, DCA, arbitrage, custom. */
  category: 'grid' | 'dca' | 'arbitrage' | 'custom';
  description: string;
  /** Whether bots of this type can be created yet. */
  available: boolean;
}

/** A ready-made parameter set of a strategy type. */
export interface BotTemplate {
  id: number;
  typeId: number;
  name: string;
  symbol: string;
  params: Record<string, string | number | boolean>;
}

/** Data of each call, where known. Calls of later issues answer `unknown` until they are built. */
export interface DataOf {
  loginAccount: LoginData;
  loginNonce: { nonce: string; message: string; expiresAt: string };
  loginVerify: LoginData;
  loginRegister: LoginData;
  loginChallenge: LoginChallenge;
  loginLogout: null;
  userBind: PublicUser;
  authProfile: Profile;
  userIndex: UserIndex;
  userSetInfo: Profile;
  userPassword: null;
  marketSymbols: SymbolInfo[];
  marketExchanges: { exchanges: ExchangeInfo[]; ips: string[] };
  exchangesBind: ApiBinding;
  exchangesUnbind: null;
  userApi: ApiBinding[];
  userApiPost: ApiBinding[];
  marketBotTypes: BotType[];
  marketTypeBots: Page<BotTemplate>;
  marketPrice: Ticker[];
  indexBanners: Banner[];
  userAsset: { exchange: string; balances: AssetBalance[] };
  userAccount: AccountBalances;
  userAccountLogs: Page<AccountLog>;
  /**
   * today and total: realised profit (the spec's bill summary); unrealized: the floating PnL of what the
   * bots hold at the price now; totalPnl: total + unrealized; unpriced: holding bots whose price could not
   * be read now (left out of unrealized).
   */
  userBill: { today: number; total: number; unrealized: number; totalPnl: number; unpriced: number };
  userBillLogs: Page<BillLog>;
  userBillGroup: BillGroup;
  userDeposit: DepositReport;
  userDepositInfo: DepositInfo;
  userDepositAddress: DepositAddress;
  userBotCreate: BotInfo;
  userBotInfo: BotInfo;
  userBotDetail: BotDetail;
  userBotPositions: Page<BotPosition>;
  userPositionAdds: BotOrder[];
  userBotUpdate: BotInfo;
  userBotList: Page<BotSummary>;
  userBotCount: BotCount;
  userBotOperation: BotInfo | null;
  userBotBatch: { task_id: string };
  userBotBatchStatus: BatchStatus;
  userBotActions: Page<BotAction>;
  userBotWebhook: BotWebhook;
  userBotWebhookReset: BotWebhook;
  userBotSignals: Page<BotSignal>;
  userBotShare: BotShare;
  userBotShareSet: BotShare;
  userActions: Page<BotLogLine>;
  userPnl: PnlHistory;
  userPortfolio: Portfolio;
  userWithdrawInfo: WithdrawInfo;
  userWithdraw: WithdrawalRecord;
  userChangeInfo: ChangeInfo;
  userChange: { from: ChangePair['from']; to: ChangePair['to']; amount: string; received: string; balances: AccountBalances };
  marketUserRank: Page<RankEntry> & { me: RankEntry | null; period: RankPeriod; mode: 'live' | 'simulation' };
  marketBotRank: Page<BotRankEntry> & { period: RankPeriod; mode: 'live' | 'simulation' };
  userReferrals: Page<ReferralMember> & { team: number; rewards: string; rates: string[] };
  userPositions: Page<OpenPosition>;
  noticeList: Page<Notice> & { unread: number };
  noticeDetail: Notice;
  noticeRead: { unread: number };
  strategyBacktest: BacktestAnswer;
  strategyAiSearch: AiSearchAnswer;
  paperReset: { exchange: string; balances: ExchangeBalance[] };
  paperSweepDust: DustSwept;
  marketFutures: { exchange: string; supported: boolean; list: FuturesRow[] };
  userSecurity: SecurityInfo;
  userTwoFactorSetup: { secret: string; uri: string };
  userTwoFactorEnable: { recoveryCodes: string[] };
  userTwoFactorDisable: null;
  userPaymentNonce: { nonce: string; message: string; expiresAt: string };
  /** position: 0 while the trader's search runs, n with n before it, null with none; length: the whole line; progress: candidates backtested of all, once it runs. */
  strategyAiQueue: { position: number | null; length: number; progress: { done: number; total: number } | null };
  userSessions: SessionList;
  userSessionEnd: null;
  userSessionEndOthers: { ended: number };
  /** What the dev chain's faucet sent, and where. */
  userFaucet: { address: string; usdt: string; bnb: string };
}
