/**
 * The response code table: every `code` the server can put in the envelope, with the message id
 * (a Lingui catalog id in src/locales) the server answers with. Client-only messages (network
 * errors, HTTP statuses) are in `clientMessageIds`. Codes are grouped by the key groups of docs/product.md §8.
 */
export const Code = {
  Success: 1,
  // Session end (docs/product.md §4): the client wipes storage and goes to /login after 1.5 s.
  NotLoggedIn: 101,
  TokenExpired: 1006,
  SessionRevoked: 2003,

  // General
  ServerError: 1000,
  Forbidden: 1003,
  NotFound: 1004,
  ValidationError: 1005,
  InsufficientFunds: 1007,
  TradingDisabled: 1008,
  Maintenance: 1009,
  Timeout: 1010,
  InvalidCredentials: 1011,
  AccountLocked: 1012,
  AccountNotFound: 1013,
  AccountExists: 1014,
  IncorrectPassword: 1015,
  TooManyAttempts: 1016,
  InsufficientRole: 1017,
  TokenInvalid: 1018,
  AccountDisabled: 1019,
  RateLimited: 1020,
  ChallengeRequired: 1021,
  ChallengeFailed: 1022,
  // A request id (idempotency key) sent again with a different request.
  RequestIdReused: 1023,
  // The session was ended after too many wrong password or code tries through it.
  SessionTriesExhausted: 1024,
  // A session id that is not one of the trader's live sessions (another trader's answers the same).
  SessionNotFound: 1025,
  // Signing other devices out needs a login of this device within the last few minutes.
  LoginAgainRequired: 1026,
  // The session was the least recently used of more than MAX_SESSIONS signed-in devices, ended by a new login.
  SessionReplaced: 1027,

  // Registration
  RegAccountExists: 1101,
  InvalidChannel: 1102,
  AccountFormat: 1103,
  PasswordFormat: 1104,
  PasswordsMismatch: 1105,
  InvalidReferralCode: 1106,
  AgreementRequired: 1107,

  // Profile and payment password
  InvalidEmail: 1201,
  PaymentPasswordFormat: 1202,
  PaymentPasswordMismatch: 1203,
  PaymentPasswordNotSet: 1204,
  InvalidNickname: 1205,
  InvalidMobile: 1206,
  InvalidAvatar: 1207,
  ReferrerChangedOnce: 1208,
  TwoFactorRequired: 1209,
  TwoFactorInvalid: 1210,
  TwoFactorAlreadyEnabled: 1211,
  TwoFactorNotEnabled: 1212,
  WalletProofRequired: 1213,

  // Wallet
  WalletNotConnected: 2101,
  WalletConnectionFailed: 2102,
  WalletSignatureFailed: 2103,
  WalletNotSupported: 2104,
  WalletNotInstalled: 2105,
  WalletNonceFailed: 2106,
  WalletNetworkUnsupported: 2107,
  WalletUserCancelled: 2108,
  WalletDomainMismatch: 2109,
  WalletNonceInvalid: 2110,
  WalletAlreadyBound: 2111,
  WalletInUse: 2112,

  // Exchange API keys
  ApiInvalidKey: 2201,
  ApiRateLimit: 2202,
  ApiBindFailed: 2203,
  ApiNotBound: 2204,
  ApiExchangeUnsupported: 2205,
  BindAddFailed: 2206,
  BindUpdateFailed: 2207,

  // Orders
  OrderFailed: 3001,
  OrderNotFound: 3002,
  OrderAlreadyFilled: 3003,
  OrderAlreadyCancelled: 3004,
  OrderInvalidPair: 3005,
  OrderPriceOutOfRange: 3006,
  OrderAmountTooSmall: 3007,
  OrderAmountTooLarge: 3008,
  OrderMarketClosed: 3009,

  // Strategy
  StrategyNotFound: 3101,
  StrategyAlreadyRunning: 3102,
  StrategyAlreadyStopped: 3103,
  StrategyCreateFailed: 3104,
  StrategyUpdateFailed: 3105,
  StrategyDeleteFailed: 3106,
  StrategyStartFailed: 3107,
  StrategyStopFailed: 3108,
  StrategyInvalidParams: 3109,
  StrategyRunningNoEdit: 3110,
  StrategyStoppedNoAdd: 3111,
  StrategyNoPosition: 3112,
  StrategyBusy: 3113,
  StrategyMaxPositionsReached: 3114,
  StrategyRunningNoDelete: 3115,
  StrategyAlreadyPaused: 3116,
  StrategyInvalidInvestment: 3117,
  StrategyInvalidMaxPositions: 3118,
  StrategyInvalidMultiplier: 3119,
  StrategyOrderBelowMinimum: 3120,
  BatchTaskNotFound: 3121,
  SimulationBotsActive: 3122,
  StrategyLimitReached: 3123,
  AiSearchQueueFull: 3124,
  AiSearchUserBusy: 3125,
  StrategyInsufficientBalance: 3126,
  StrategyProposalStale: 3127,
  StrategyCloseShareInvalid: 3128,
  StrategyCloseAboveHeld: 3129,
  StrategyCloseRestBelowMinimum: 3130,
  StrategyPartCloseGrid: 3131,
  // Signal webhooks.
  SignalTokenInvalid: 3132,
  SignalBodyInvalid: 3133,
  SignalDuplicate: 3134,
  SignalBotNotRunning: 3135,
  SignalTypeUnsupported: 3136,
  // Heavy work shared fairly: a trader's backtests queue behind their own; custom bots' indicators have a budget.
  BacktestQueueFull: 3137,
  BacktestTimedOut: 3138,
  IndicatorBudgetExceeded: 3139,
  // Capital bots have reserved: a start that would commit money other running bots still need.
  StrategyCapitalReserved: 3140,

  // Asset
  AssetNotFound: 4001,
  DepositFailed: 4002,
  WithdrawalFailed: 4003,
  TransferFailed: 4004,
  InsufficientFuel: 4005,
  InvalidAddress: 4006,
  InvalidAmount: 4007,
  InsufficientCapital: 4008,
  ChainUnavailable: 4009,
  NetworkUnsupported: 4010,
  AmountBelowMinimum: 4011,
  InvalidTxHash: 4012,
  ChangeUnsupported: 4013,
  WithdrawalInProgress: 4014,
  WithdrawalLocked: 4015,

  // System
  DatabaseError: 5001,
  CacheError: 5002,
  ThirdPartyError: 5003,
  ServiceUnavailable: 5004,

  // Generic
  RequiredFieldMissing: 6001,
  InvalidFormat: 6002,
  InvalidLengthOrRange: 6003,
  Duplicate: 6004,
  PermissionDenied: 6005,
  InvalidDateRange: 6006,

  // Notice
  SimulationSpotUnsupported: 7001,
} as const;

export type CodeName = keyof typeof Code;
export type CodeValue = (typeof Code)[CodeName];

export { sessionEndCodes } from './session-end.ts';

/** Lingui message id of a code: `code.<CodeName>`. The catalogs in src/locales hold zh and en. */
export function messageIdOf(name: CodeName): string {
  return `code.${name}`;
}

/** Client-side message ids (docs/product.md §8 network errors and HTTP statuses, docs/product.md §5 validation). */
export const clientMessageIds = ['net.timeout', 'net.offline', 'net.other', 'http.401', 'http.403', 'http.404', 'http.500', 'http.503', 'http.other', 'toast.success', 'toast.failure'] as const;
