/**
 * Answer schemas (zod): the `data` of every call's success envelope, keyed by call name. The types in
 * schemas.ts and bots.ts stay the PWA's source; these describe the same shapes for the server side
 * (the OpenAPI document, the answer tests, the fuzzer), and the type checks at the bottom of this file
 * keep the two from drifting. Objects are strict: an answer with a key the contract does not name is
 * a leak or a drift, and fails.
 */
import { z } from 'zod';
import { actionKinds, anyParamsSchema, signalStatuses, batchOperations, botStatuses, botTypesBuilt, gridParamsSchema, martinParamsSchema, riskLevels } from './bots.ts';
import { paramsSchemas } from '../strategy/params.ts';
import { rankPeriods, type CallName, type DataOf } from './schemas.ts';

/** An exact decimal string as the server writes money, prices and percentages: no exponent, sign only when negative. */
const decimal = z.string().regex(/^-?(0|[1-9]\d*)(\.\d+)?$/, 'decimal');
/** A database id, as a string (bigint ids do not fit a JSON number). */
const id = z.string().regex(/^[1-9]\d*$/, 'id');
/** Every server time is `Date.prototype.toISOString()`: UTC with a Z. */
const time = z.iso.datetime();
const count = z.number().int().min(0);
const detail = z.record(z.string(), z.string());
const tradingMode = z.enum(['live', 'simulation']);
const asset = z.enum(['usdt', 'fuel', 'points', 'rewards']);

/** The fields of a page of a list (envelope.ts `Page`), for answers that add fields beside them. */
const pageShape = <T extends z.ZodType>(item: T) => ({ list: z.array(item), total: count, page: z.number().int().min(1), page_size: z.number().int().min(1) });
const page = <T extends z.ZodType>(item: T) => z.strictObject(pageShape(item));

const publicUserShape = {
  sn: z.string(),
  nickname: z.string(),
  account: z.string(),
  mobile: z.string(),
  address: z.string(),
  avatar: z.string(),
  referral: z.string(),
};
export const publicUserSchema = z.strictObject(publicUserShape);
export const loginDataSchema = z.strictObject({ token: z.string().min(1), ...publicUserShape });
/** A statement to sign (wallet sign-in, a wallet account's payment proof) and until when it may be. */
export const nonceSchema = z.strictObject({ nonce: z.string().min(1), message: z.string().min(1), expiresAt: time });
export const profileSchema = z.strictObject({
  ...publicUserShape,
  email: z.string(),
  loginPasswordSet: z.boolean(),
  paymentPasswordSet: z.boolean(),
  createdAt: time,
});
export const accountBalancesSchema = z.strictObject({ usdt: decimal, fuel: decimal, points: decimal, rewards: decimal });
export const exchangeBalanceSchema = z.strictObject({ currency: z.string(), free: decimal, total: decimal });
/** A balance with what the trader's running and paused bots there have reserved of it, and what is left for a new bot. */
export const assetBalanceSchema = exchangeBalanceSchema.extend({ reserved: decimal, available: decimal });
export const noticeSchema = z.strictObject({ id, kind: z.enum(['warning', 'notice']), code: z.string(), detail, read: z.boolean(), createdAt: time });
export const apiBindingSchema = z.strictObject({ id, exchangeId: z.number().int(), exchange: z.string(), apiKey: z.string(), createdAt: time, updatedAt: time });
export const tickerSchema = z.strictObject({ symbol: z.string(), price: decimal, change24h: decimal });
export const candleSchema = z.strictObject({ time: z.number().int(), open: decimal, high: decimal, low: decimal, close: decimal, volume: decimal });
export const symbolInfoSchema = z.strictObject({
  ...tickerSchema.shape,
  exchange: z.string(),
  tickSize: decimal,
  stepSize: decimal,
  minAmount: decimal,
  minCost: decimal,
  feeRate: decimal,
  history: z.array(candleSchema).optional(),
  spark: z.array(z.number()).optional(),
  indicator: z.strictObject({ name: z.enum(['ma20', 'ema20', 'rsi14']), values: z.array(z.number().nullable()) }).optional(),
});
export const exchangeInfoSchema = z.strictObject({
  id: z.number().int(),
  code: z.string(),
  name: z.string(),
  logo: z.string(),
  passphrase: z.boolean(),
  spot: z.boolean(),
  simulation: z.boolean(),
  simulatedOf: z.string().optional(),
});
export const botTypeSchema = z.strictObject({
  id: z.number().int(),
  code: z.enum([...botTypesBuilt, 'ai', 'arbitrage']),
  name: z.string(),
  category: z.enum(['grid', 'dca', 'arbitrage', 'custom']),
  description: z.string(),
  available: z.boolean(),
});
export const botTemplateSchema = z.strictObject({
  id: z.number().int(),
  typeId: z.number().int(),
  name: z.string(),
  symbol: z.string(),
  params: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])),
});
export const bannerSchema = z.strictObject({ id: z.string(), title: z.string(), subtitle: z.string(), link: z.string(), tone: z.enum(['blue', 'green', 'orange']) });
export const accountLogSchema = z.strictObject({
  id,
  asset,
  amount: decimal,
  balance: decimal,
  reason: z.enum(['welcome', 'profit_fee', 'deposit', 'withdraw', 'refund', 'change', 'reward', 'adjust']),
  detail,
  createdAt: time,
});
export const billLogSchema = z.strictObject({ id, botId: id, botName: z.string(), exchange: z.string(), symbol: z.string(), cycle: z.number().int().min(1), profit: decimal, closedAt: time });
export const billGroupSchema = z.strictObject({
  byDay: z.array(z.strictObject({ day: z.iso.date(), profit: decimal })),
  byBot: z.array(z.strictObject({ botId: id, botName: z.string(), symbol: z.string(), profit: decimal })),
  bySymbol: z.array(z.strictObject({ symbol: z.string(), profit: decimal })),
});
const depositStatus = z.enum(['submitted', 'credited']);
export const depositRecordSchema = z.strictObject({ txHash: z.string(), amount: decimal.nullable(), status: depositStatus, createdAt: time });
export const depositInfoSchema = z.strictObject({
  enabled: z.boolean(),
  network: z.literal('BSC'),
  chainId: z.number().int(),
  token: z.string(),
  decimals: z.number().int().min(0),
  contract: z.string(),
  minimum: decimal,
  confirmations: count,
  memo: z.string(),
  wallet: z.string().nullable(),
  faucet: z.boolean(),
  recent: z.array(depositRecordSchema),
});
export const depositAddressSchema = z.strictObject({ network: z.literal('BSC'), address: z.string(), memo: z.string(), token: z.string() });
export const depositReportSchema = z.strictObject({ txHash: z.string(), status: depositStatus, confirmations: count, required: count });
export const withdrawalRecordSchema = z.strictObject({
  id,
  requestId: z.string(),
  address: z.string(),
  amount: decimal,
  fee: decimal,
  received: decimal,
  status: z.enum(['pending', 'signed', 'sent', 'confirmed', 'failed']),
  txHash: z.string().nullable(),
  createdAt: time,
});
export const withdrawInfoSchema = z.strictObject({
  enabled: z.boolean(),
  network: z.literal('BSC'),
  token: z.string(),
  minimum: decimal,
  fee: decimal,
  balance: decimal,
  paymentPasswordSet: z.boolean(),
  recent: z.array(withdrawalRecordSchema),
  lockedUntil: time.nullable(),
  /** How long withdrawals wait after a security change or before a new address is paid (WITHDRAW_LOCK_HOURS), in ms. */
  lockMs: z.number().int().min(0),
  twoFactor: z.boolean(),
});
export const securityInfoSchema = z.strictObject({
  twoFactor: z.boolean(),
  recoveryCodesLeft: count,
  loginPasswordSet: z.boolean(),
  paymentPasswordSet: z.boolean(),
  wallet: z.string(),
  walletProofNeeded: z.boolean(),
  withdrawLockedUntil: time.nullable(),
  /** How long withdrawals wait after a security change (WITHDRAW_LOCK_HOURS), in ms. */
  withdrawLockMs: z.number().int().min(0),
});
export const sessionRowSchema = z.strictObject({
  id,
  terminal: z.number().int().min(1).max(4),
  agent: z.string(),
  ip: z.string(),
  createdAt: time,
  lastSeenAt: time,
  current: z.boolean(),
});
export const changePairSchema = z.strictObject({ from: asset, to: asset, rate: decimal });
export const changeInfoSchema = z.strictObject({ balances: accountBalancesSchema, pairs: z.array(changePairSchema), paymentPasswordSet: z.boolean() });
export const rankEntrySchema = z.strictObject({
  rank: z.number().int().min(1),
  nickname: z.string(),
  avatar: z.string(),
  uid: z.string(),
  profit: decimal,
  cycles: count,
  me: z.boolean(),
});
export const referralMemberSchema = z.strictObject({
  sn: z.string(),
  nickname: z.string(),
  level: z.number().int().min(1).max(2),
  joinedAt: time,
  running: count,
  rewards: decimal,
});
const equitySchema = z.array(z.strictObject({ time: z.number().int(), value: z.number() }));
/** How a backtest filled its orders: at the trigger price (the open on a gap), with this slippage (a fraction). */
const fillModelSchema = z.strictObject({ price: z.literal('trigger'), slippage: decimal, seconds: z.boolean() });
export const backtestAnswerSchema = z.strictObject({
  exchange: z.string(),
  symbol: z.string(),
  days: z.number().int(),
  timeframe: z.string(),
  from: z.number().int(),
  to: z.number().int(),
  candles: count,
  startPrice: z.number(),
  endPrice: z.number(),
  investment: decimal,
  realized: decimal,
  returnPct: z.number(),
  maxDrawdownPct: z.number(),
  priceChangePct: z.number(),
  cycles: count,
  fills: count,
  fees: z.number(),
  open: z.strictObject({ amount: decimal, average: decimal, value: z.number() }).nullable(),
  equity: equitySchema,
  fill: fillModelSchema,
});
export const botParamsSchema = anyParamsSchema;
/** A bot on the strategy rank: what it trades and how it did, never whose it is. */
export const botRankEntrySchema = z.strictObject({
  rank: z.number().int().min(1),
  type: z.enum(botTypesBuilt),
  exchange: z.string(),
  symbol: z.string(),
  profit: decimal,
  roiPct: decimal,
  totalPnl: decimal,
  totalRoiPct: decimal,
  maxDrawdownPct: decimal,
  runtime: count,
  cycles: count,
  params: botParamsSchema.nullable(),
  mine: z.boolean(),
});
export const botShareSchema = z.strictObject({ id, shareRules: z.boolean() });
const aiFiguresSchema = z.strictObject({ returnPct: z.number(), maxDrawdownPct: z.number(), realized: decimal, cycles: count });
export const aiSearchAnswerSchema = z.strictObject({
  exchange: z.string(),
  symbol: z.string(),
  risk: z.enum(riskLevels),
  tried: count,
  kept: count,
  limit: z.number(),
  timeframe: z.string(),
  elapsedMs: z.number().min(0),
  fill: fillModelSchema,
  proposals: z.array(
    z.strictObject({ type: z.enum(['martin', 'grid']), params: z.union([martinParamsSchema, gridParamsSchema]), score: z.number(), d30: aiFiguresSchema, d7: aiFiguresSchema, equity: equitySchema }),
  ),
});
export const futuresRowSchema = z.strictObject({
  symbol: z.string(),
  price: decimal.nullable(),
  change24h: decimal.nullable(),
  fundingRate: decimal.nullable(),
  nextFundingTime: z.number().int().nullable(),
});

const botSummaryShape = {
  id,
  name: z.string(),
  type: z.enum(botTypesBuilt),
  exchangeId: z.number().int(),
  exchange: z.string(),
  symbol: z.string(),
  status: z.enum(botStatuses),
  profit: decimal,
  todayProfit: decimal,
  cycle: z.number().int().min(1),
  positions: count,
  maxPositions: count,
  invested: decimal,
  investment: decimal,
  averagePrice: decimal.nullable(),
  pending: z.boolean(),
  ai: z.strictObject({ risk: z.enum(riskLevels), tunedAt: time }).optional(),
  error: z.string().nullable(),
  unrealized: decimal.nullable(),
  totalProfit: decimal.nullable(),
  roi: decimal.nullable(),
  apr: decimal.nullable(),
  runtime: count,
  startedAt: time.nullable(),
  createdAt: time,
  updatedAt: time,
};
export const botSummarySchema = z.strictObject(botSummaryShape);
const botInfoShape = { ...botSummaryShape, params: botParamsSchema };
export const botInfoSchema = z.strictObject(botInfoShape);
const side = z.enum(['buy', 'sell']);
export const gridLevelsSchema = z.strictObject({
  quantity: decimal,
  levels: z.array(z.strictObject({ index: z.number().int(), price: decimal, side: side.nullable() })),
  profit: z.strictObject({ min: decimal, max: decimal, minPct: decimal, maxPct: decimal }),
  trades: count,
});
export const botDetailSchema = z.strictObject({
  ...botInfoShape,
  price: decimal,
  amount: decimal,
  dust: decimal,
  usedFunds: decimal.nullable(),
  usedRoi: decimal.nullable(),
  unrealized: decimal,
  totalProfit: decimal,
  takeProfitPrice: decimal.nullable(),
  stopLossPrice: decimal.nullable(),
  nextAddPrice: decimal.nullable(),
  trailing: z.strictObject({ high: decimal, price: decimal }).optional(),
  fills: z.array(z.strictObject({ price: decimal, amount: decimal })),
  levels: z.array(z.strictObject({ index: z.number().int(), price: decimal, quote: decimal, amount: decimal })),
  grid: gridLevelsSchema.optional(),
  close: z.strictObject({ carry: decimal, carryCost: decimal, tickSize: decimal, stepSize: decimal, minAmount: decimal, minCost: decimal, feeRate: decimal }).optional(),
});
export const botPositionSchema = z.strictObject({
  cycle: z.number().int().min(1),
  status: z.enum(['open', 'closed']),
  entries: count,
  amount: decimal,
  cost: decimal,
  averagePrice: decimal.nullable(),
  closePrice: decimal.nullable(),
  profit: decimal.nullable(),
  openedAt: time.nullable(),
  closedAt: time.nullable(),
});
export const botOrderSchema = z.strictObject({
  clientOrderId: z.string(),
  cycle: z.number().int().min(1),
  seq: z.number().int().min(1),
  side,
  reason: z.enum(['open', 'add', 'manual_add', 'close', 'stop', 'manual_close', 'signal_close', 'exit_rule']),
  status: z.enum(['new', 'filled', 'rejected']),
  price: decimal.nullable(),
  amount: decimal.nullable(),
  cost: decimal.nullable(),
  fee: decimal.nullable(),
  feeCurrency: z.string().nullable(),
  at: time,
});
export const botWebhookSchema = z.strictObject({
  enabled: z.boolean(),
  createdAt: time.nullable(),
  token: z.string().nullable(),
  path: z.string().nullable(),
  refused: z.number().int().nonnegative(),
  refusedAt: time.nullable(),
  refusedReason: z.string().nullable(),
});
export const botSignalSchema = z.strictObject({
  id,
  signalId: z.string().nullable(),
  action: z.enum(['buy', 'sell', 'close']).nullable(),
  price: z.string().nullable(),
  amount: z.string().nullable(),
  note: z.string().nullable(),
  status: z.enum(signalStatuses),
  reason: z.string().nullable(),
  at: time,
});
export const botActionSchema = z.strictObject({ id, botId: id, kind: z.enum(actionKinds), detail, at: time });
export const botLogLineSchema = z.strictObject({ ...botActionSchema.shape, botName: z.string(), type: z.enum(botTypesBuilt), exchange: z.string(), symbol: z.string() });
export const pnlHistorySchema = z.strictObject({
  realized: decimal,
  unrealized: decimal,
  total: decimal,
  investment: decimal,
  roi: decimal.nullable(),
  apr: decimal.nullable(),
  runtime: count,
  unpriced: count,
  days: z.number().int().min(1),
  points: z.array(z.strictObject({ day: z.iso.date(), profit: decimal, cumulative: decimal, unrealized: decimal.nullable(), total: decimal })),
});
export const portfolioCoinSchema = z.strictObject({ currency: z.string(), free: decimal, total: decimal, price: decimal.nullable(), value: decimal.nullable() });
export const portfolioAccountSchema = z.strictObject({
  exchange: z.string(),
  kind: z.enum(['paper', 'simulated', 'live']),
  status: z.enum(['ok', 'unavailable']),
  equity: decimal.nullable(),
  available: decimal.nullable(),
  coins: z.array(portfolioCoinSchema),
  coinCount: count,
});
export const portfolioSchema = z.strictObject({ live: decimal, simulation: decimal, total: decimal, unavailable: count, accounts: z.array(portfolioAccountSchema) });
export const botCountSchema = z.strictObject({ total: count, running: count, paused: count, stopped: count });
export const batchStatusSchema = z.strictObject({
  task_id: z.string(),
  action: z.enum(batchOperations),
  status: z.enum(['running', 'done']),
  total: count,
  done: count,
  results: z.array(z.strictObject({ id: z.string(), ok: z.boolean(), code: z.number().int(), msg: z.string() })),
});
export const openPositionSchema = z.strictObject({
  botId: id,
  botName: z.string(),
  exchange: z.string(),
  symbol: z.string(),
  status: z.enum(botStatuses),
  entries: count,
  amount: decimal,
  cost: decimal,
  averagePrice: decimal,
  price: decimal,
  unrealized: decimal,
});
const balancesOf = z.strictObject({ exchange: z.string(), balances: z.array(exchangeBalanceSchema) });

/**
 * The shared answer shapes by the names the OpenAPI document gives them as components (the calls'
 * own answers are named after the call).
 */
export const namedAnswers = {
  LoginData: loginDataSchema,
  PublicUser: publicUserSchema,
  Profile: profileSchema,
  AccountBalances: accountBalancesSchema,
  ExchangeBalance: exchangeBalanceSchema,
  Notice: noticeSchema,
  ApiBinding: apiBindingSchema,
  Ticker: tickerSchema,
  SymbolInfo: symbolInfoSchema,
  ExchangeInfo: exchangeInfoSchema,
  BotType: botTypeSchema,
  BotTemplate: botTemplateSchema,
  Banner: bannerSchema,
  AccountLog: accountLogSchema,
  BillLog: billLogSchema,
  DepositRecord: depositRecordSchema,
  WithdrawalRecord: withdrawalRecordSchema,
  RankEntry: rankEntrySchema,
  BotRankEntry: botRankEntrySchema,
  ReferralMember: referralMemberSchema,
  // Each bot type's parameters, named as MartinParams, GridParams, ... (strategy/params.ts).
  ...Object.fromEntries(Object.entries(paramsSchemas).map(([type, schema]) => [`${type[0]!.toUpperCase()}${type.slice(1)}Params`, schema])),
  BotSummary: botSummarySchema,
  BotInfo: botInfoSchema,
  BotDetail: botDetailSchema,
  BotPosition: botPositionSchema,
  BotOrder: botOrderSchema,
  BotAction: botActionSchema,
  BotLogLine: botLogLineSchema,
  PortfolioAccount: portfolioAccountSchema,
  OpenPosition: openPositionSchema,
  Nonce: nonceSchema,
  SecurityInfo: securityInfoSchema,
  SessionRow: sessionRowSchema,
} as const;

/** The `data` of each call's success envelope (code 1). */
export const answers = {
  loginAccount: loginDataSchema,
  loginNonce: nonceSchema,
  loginVerify: loginDataSchema,
  loginRegister: loginDataSchema,
  loginChallenge: z.strictObject({
    parameters: z.strictObject({
      algorithm: z.string(),
      nonce: z.string().regex(/^[0-9a-f]+$/),
      salt: z.string().regex(/^[0-9a-f]+$/),
      cost: count,
      keyLength: count,
      keyPrefix: z.string().regex(/^[0-9a-f]+$/),
      keySignature: z.string().regex(/^[0-9a-f]+$/),
      expiresAt: count,
    }),
    signature: z.string().regex(/^[0-9a-f]+$/),
  }),
  loginLogout: z.null(),
  userBind: publicUserSchema,
  authProfile: profileSchema,
  userIndex: z.strictObject({ profile: profileSchema, fuel: decimal, points: decimal, referrals: count }),
  userSetInfo: profileSchema,
  userPassword: z.null(),
  marketSymbols: z.array(symbolInfoSchema),
  marketExchanges: z.strictObject({ exchanges: z.array(exchangeInfoSchema), ips: z.array(z.string()) }),
  exchangesBind: apiBindingSchema,
  exchangesUnbind: z.null(),
  userApi: z.array(apiBindingSchema),
  userApiPost: z.array(apiBindingSchema),
  marketBotTypes: z.array(botTypeSchema),
  marketTypeBots: page(botTemplateSchema),
  marketPrice: z.array(tickerSchema),
  indexBanners: z.array(bannerSchema),
  userAsset: z.strictObject({ exchange: z.string(), balances: z.array(assetBalanceSchema) }),
  userAccount: accountBalancesSchema,
  userAccountLogs: page(accountLogSchema),
  userBill: z.strictObject({ today: z.number(), total: z.number(), unrealized: z.number(), totalPnl: z.number(), unpriced: count }),
  userBillLogs: page(billLogSchema),
  userBillGroup: billGroupSchema,
  userDeposit: depositReportSchema,
  userDepositInfo: depositInfoSchema,
  userDepositAddress: depositAddressSchema,
  userBotCreate: botInfoSchema,
  userBotInfo: botInfoSchema,
  userBotDetail: botDetailSchema,
  userBotPositions: page(botPositionSchema),
  userPositionAdds: z.array(botOrderSchema),
  userBotUpdate: botInfoSchema,
  userBotList: page(botSummarySchema),
  userBotCount: botCountSchema,
  // The server answers the bot with its parameters (BotInfo), more than DataOf's BotSummary promises.
  userBotOperation: botInfoSchema.nullable(),
  userBotBatch: z.strictObject({ task_id: z.string().min(1) }),
  userBotBatchStatus: batchStatusSchema,
  userBotActions: page(botActionSchema),
  userBotWebhook: botWebhookSchema,
  userBotWebhookReset: botWebhookSchema,
  userBotSignals: page(botSignalSchema),
  userBotShare: botShareSchema,
  userBotShareSet: botShareSchema,
  userActions: page(botLogLineSchema),
  userPnl: pnlHistorySchema,
  userPortfolio: portfolioSchema,
  userWithdrawInfo: withdrawInfoSchema,
  userWithdraw: withdrawalRecordSchema,
  userChangeInfo: changeInfoSchema,
  userChange: z.strictObject({ from: asset, to: asset, amount: decimal, received: decimal, balances: accountBalancesSchema }),
  marketUserRank: z.strictObject({ ...pageShape(rankEntrySchema), me: rankEntrySchema.nullable(), period: z.enum(rankPeriods), mode: tradingMode }),
  marketBotRank: z.strictObject({ ...pageShape(botRankEntrySchema), period: z.enum(rankPeriods), mode: tradingMode }),
  userReferrals: z.strictObject({ ...pageShape(referralMemberSchema), team: count, rewards: decimal, rates: z.array(decimal) }),
  userPositions: page(openPositionSchema),
  noticeList: z.strictObject({ ...pageShape(noticeSchema), unread: count }),
  noticeDetail: noticeSchema,
  noticeRead: z.strictObject({ unread: count }),
  strategyBacktest: backtestAnswerSchema,
  strategyAiSearch: aiSearchAnswerSchema,
  paperReset: balancesOf,
  paperSweepDust: z.strictObject({
    exchange: z.string(),
    swept: z.array(z.strictObject({ currency: z.string(), amount: decimal, quote: decimal, from: z.array(z.string()) })),
    total: decimal,
    balances: z.array(exchangeBalanceSchema),
  }),
  marketFutures: z.strictObject({ exchange: z.string(), supported: z.boolean(), list: z.array(futuresRowSchema) }),
  userSecurity: securityInfoSchema,
  userTwoFactorSetup: z.strictObject({ secret: z.string().min(1), uri: z.string().regex(/^otpauth:\/\//, 'otpauth') }),
  userTwoFactorEnable: z.strictObject({ recoveryCodes: z.array(z.string().min(1)).min(1) }),
  userTwoFactorDisable: z.null(),
  userPaymentNonce: nonceSchema,
  strategyAiQueue: z.strictObject({ position: count.nullable(), length: count, progress: z.strictObject({ done: count, total: count }).nullable() }),
  userSessions: z.strictObject({ ...pageShape(sessionRowSchema), freshUntil: time.nullable() }),
  userSessionEnd: z.null(),
  userSessionEndOthers: z.strictObject({ ended: count }),
  userFaucet: z.strictObject({ address: z.string(), usdt: decimal, bnb: decimal }),
} as const satisfies { [N in CallName]: z.ZodType<DataOf[N]> };

// ---- Type-level tests: the answer schemas and DataOf say the same thing ----

/** What an answer schema parses to. */
export type AnswerOf<N extends CallName> = z.output<(typeof answers)[N]>;
/** `true` when A and B are assignable both ways (the same shape, however written). */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
/** The calls (but userBotOperation) whose answer schema and DataOf differ: must be none. */
type Drifted = { [N in Exclude<CallName, 'userBotOperation'>]: Same<AnswerOf<N>, DataOf[N]> extends true ? never : N }[Exclude<CallName, 'userBotOperation'>];
/**
 * The `satisfies` above proves every answer schema's output fits DataOf (no field missing or of
 * another type); this proves the converse (no field of DataOf left out, none made narrower). On a
 * drift, the error names the call: "Type 'true' is not assignable to type '<call>'".
 */
const _noDrift: [Drifted] extends [never] ? true : Drifted = true;
/** userBotOperation answers BotInfo, a BotSummary with its parameters: still what DataOf promises. */
const _operationFits: [AnswerOf<'userBotOperation'>] extends [DataOf['userBotOperation']] ? true : false = true;
