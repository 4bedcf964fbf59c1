/**
 * The call table: method and path of every call of docs/product.md §7 (plus logout and password, which the
 * spec's screens need), and how the PWA treats its errors. Plain data: the PWA imports it at run time.
 * `screen`: the screen shows errors itself (docs/product.md §7), the client toasts nothing.
 * `noAutoError`: sent with the no-auto-error header (login, register, nonce, verify); also screen-handled.
 * `terminal`: the body carries the device terminal code. `public`: no token needed.
 * `changes`: a write's reads that its success makes stale, which the PWA fetches again (src/shared/query.ts write()).
 */
import type { CallName } from './schemas.ts';

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
export interface CallSpec {
  method: Method;
  path: string;
  screen?: true;
  noAutoError?: true;
  terminal?: true;
  public?: true;
  changes?: readonly CallName[];
}

/** Every bot figure a bot's change can move: lists, counts, details, logs, positions, bills, PnL, balances. */
const botViews = [
  'userBotList',
  'userBotCount',
  'userBotDetail',
  'userBotInfo',
  'userBotActions',
  'userBotPositions',
  'userPositionAdds',
  'userPositions',
  'userBill',
  'userBillGroup',
  'userBillLogs',
  'userAsset',
  'userIndex',
  'userActions',
  'userPnl',
  'userPortfolio',
] as const satisfies readonly CallName[];
const securityViews = ['userSecurity', 'userWithdrawInfo', 'userIndex', 'authProfile', 'noticeList'] as const satisfies readonly CallName[];
const balanceViews = ['userAccount', 'userAccountLogs', 'userIndex', 'userWithdrawInfo', 'userChangeInfo', 'userDepositInfo'] as const satisfies readonly CallName[];
const bindingViews = ['userApi', 'userIndex', 'userAsset', ...botViews] as const;

export const calls = {
  loginAccount: { method: 'POST', path: '/login/account', noAutoError: true, terminal: true, public: true },
  loginNonce: { method: 'GET', path: '/login/nonce', noAutoError: true, public: true },
  loginVerify: { method: 'POST', path: '/login/verify', noAutoError: true, terminal: true, public: true },
  loginRegister: { method: 'POST', path: '/login/register', noAutoError: true, terminal: true, public: true },
  // A proof-of-work challenge for register and for logins after failures.
  loginChallenge: { method: 'GET', path: '/login/challenge', noAutoError: true, public: true },
  loginLogout: { method: 'POST', path: '/login/logout' },
  userBind: { method: 'POST', path: '/user/bind', changes: ['userIndex', 'authProfile', ...securityViews] },
  authProfile: { method: 'GET', path: '/auth/profile' },
  userIndex: { method: 'GET', path: '/user/index' },
  userSetInfo: { method: 'POST', path: '/user/setInfo', changes: ['userIndex', 'authProfile'] },
  userPassword: { method: 'POST', path: '/user/password', changes: securityViews },
  marketSymbols: { method: 'GET', path: '/market/symbols' },
  marketExchanges: { method: 'GET', path: '/market/exchanges' },
  // The bind screen says a refusal under its button (and asks for a 2FA code there): a toast too would say it twice.
  exchangesBind: { method: 'POST', path: '/exchanges/bind', screen: true, changes: bindingViews },
  exchangesUnbind: { method: 'DELETE', path: '/exchanges/bind/:id', screen: true, changes: bindingViews },
  userApi: { method: 'GET', path: '/user/api' },
  userApiPost: { method: 'POST', path: '/user/api', changes: bindingViews },
  marketBotTypes: { method: 'GET', path: '/market/botTypes' },
  marketTypeBots: { method: 'GET', path: '/market/typeBots' },
  marketPrice: { method: 'GET', path: '/market/price' },
  indexBanners: { method: 'GET', path: '/index/banners' },
  userAsset: { method: 'GET', path: '/user/asset' },
  userAccount: { method: 'GET', path: '/user/account' },
  userAccountLogs: { method: 'GET', path: '/user/accountLogs' },
  userBill: { method: 'GET', path: '/user/bill' },
  userBillLogs: { method: 'GET', path: '/user/billLogs' },
  userBillGroup: { method: 'GET', path: '/user/billGroup' },
  userDeposit: { method: 'POST', path: '/user/deposit', changes: balanceViews },
  userDepositInfo: { method: 'GET', path: '/user/depositInfo' },
  userDepositAddress: { method: 'GET', path: '/user/depositAddress' },
  userBotCreate: { method: 'POST', path: '/user/botCreate', screen: true, changes: botViews },
  userBotInfo: { method: 'GET', path: '/user/botInfo', screen: true },
  userBotDetail: { method: 'GET', path: '/user/botDetail', screen: true },
  userBotPositions: { method: 'GET', path: '/user/botPositions', screen: true },
  userPositionAdds: { method: 'GET', path: '/user/positionAdds' },
  userBotUpdate: { method: 'PUT', path: '/user/botUpdate', screen: true, changes: botViews },
  userBotList: { method: 'GET', path: '/user/botList', screen: true },
  userBotCount: { method: 'GET', path: '/user/botCount' },
  userBotOperation: { method: 'GET', path: '/user/botOperation', screen: true, changes: botViews },
  userBotBatch: { method: 'GET', path: '/user/botBatch', screen: true, changes: botViews },
  userBotBatchStatus: { method: 'GET', path: '/user/botBatchStatus' },
  userBotActions: { method: 'GET', path: '/user/botActions', screen: true },
  // A DCA or custom bot's signal webhook and its signals (the webhook itself, POST /api/signal/{token}, is outside this table: docs/api.md).
  userBotWebhook: { method: 'GET', path: '/user/botWebhook' },
  userBotWebhookReset: { method: 'POST', path: '/user/botWebhookReset', changes: ['userBotWebhook'] },
  userBotSignals: { method: 'GET', path: '/user/botSignals' },
  userWithdrawInfo: { method: 'GET', path: '/user/withdrawInfo' },
  userWithdraw: { method: 'POST', path: '/user/withdraw', changes: [...balanceViews, ...securityViews] },
  userChangeInfo: { method: 'GET', path: '/user/changeInfo' },
  userChange: { method: 'POST', path: '/user/change', changes: balanceViews },
  marketUserRank: { method: 'GET', path: '/market/userRank' },
  marketBotRank: { method: 'GET', path: '/market/botRank' },
  // Whether the strategy rank shows a bot's parameters (its owner's choice; off by default), and the switch.
  userBotShare: { method: 'GET', path: '/user/botShare' },
  userBotShareSet: { method: 'POST', path: '/user/botShare', changes: ['userBotShare', 'marketBotRank'] },
  userReferrals: { method: 'GET', path: '/user/referrals' },
  userPositions: { method: 'GET', path: '/user/positions' },
  // Notices (the spec lists no calls for them).
  noticeList: { method: 'GET', path: '/notice/list' },
  noticeDetail: { method: 'GET', path: '/notice/detail' },
  noticeRead: { method: 'POST', path: '/notice/read', changes: ['noticeList', 'noticeDetail', 'userIndex'] },
  // A backtest from the create screens, before the bot is saved.
  strategyBacktest: { method: 'POST', path: '/strategy/backtest' },
  // The AI bot's parameter search.
  strategyAiSearch: { method: 'POST', path: '/strategy/aiSearch' },
  // The trader's place in the AI search line while a search waits.
  strategyAiQueue: { method: 'GET', path: '/strategy/aiQueue' },
  // The simulation page: the Paper account back to its starting balance.
  paperReset: { method: 'POST', path: '/user/paperReset', changes: [...botViews, 'userApi'] },
  // The simulation page: coins too small to sell (a bot's dust) converted into USDT, as Binance's "convert small balances".
  paperSweepDust: { method: 'POST', path: '/user/paperSweepDust', changes: [...botViews, 'userApi'] },
  // USDT-margined perpetuals, read only.
  marketFutures: { method: 'GET', path: '/market/futures' },
  // Account security: two-factor authentication, the wallet's proof, the withdrawal lock.
  userSecurity: { method: 'GET', path: '/user/security' },
  userTwoFactorSetup: { method: 'POST', path: '/user/twoFactor/setup', changes: securityViews },
  userTwoFactorEnable: { method: 'POST', path: '/user/twoFactor/enable', screen: true, changes: securityViews },
  userTwoFactorDisable: { method: 'POST', path: '/user/twoFactor/disable', screen: true, changes: securityViews },
  userPaymentNonce: { method: 'GET', path: '/user/paymentNonce' },
  // Every bot's log, PnL over time, equity across accounts.
  userActions: { method: 'GET', path: '/user/actions' },
  userPnl: { method: 'GET', path: '/user/pnl' },
  userPortfolio: { method: 'GET', path: '/user/portfolio' },
  // The security screen's list of signed-in devices, and signing them out (sent quietly: the screen says why not).
  userSessions: { method: 'GET', path: '/user/sessions' },
  userSessionEnd: { method: 'POST', path: '/user/sessions/end', changes: ['userSessions'] },
  userSessionEndOthers: { method: 'POST', path: '/user/sessions/endOthers', changes: ['userSessions'] },
  userFaucet: { method: 'POST', path: '/user/faucet', changes: balanceViews },
} as const satisfies Record<CallName, CallSpec>;

/** docs/product.md §7 has 45 rows (46 calls: /user/api is GET and POST); these are ours, for screens the spec lists without calls. */
export const ourCalls = [
  'loginLogout',
  'userPassword',
  'noticeList',
  'noticeDetail',
  'noticeRead',
  'strategyBacktest',
  'strategyAiSearch',
  'paperReset',
  'paperSweepDust',
  'marketFutures',
  'userSecurity',
  'userTwoFactorSetup',
  'userTwoFactorEnable',
  'userTwoFactorDisable',
  'userPaymentNonce',
  'strategyAiQueue',
  'loginChallenge',
  'userActions',
  'userPnl',
  'userPortfolio',
  'marketBotRank',
  'userBotWebhook',
  'userBotWebhookReset',
  'userBotSignals',
  'userBotShare',
  'userBotShareSet',
  'userSessions',
  'userSessionEnd',
  'userSessionEndOthers',
  'userFaucet',
] as const;
export const specCallCount = 46;
