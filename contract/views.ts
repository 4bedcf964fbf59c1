/**
 * The reads that a kind of change makes stale, named once for the writes that share them (each call's
 * `changes`). Plain names: contract/calls.ts checks that each is a call.
 */

/** Every bot figure a bot's change can move: lists, counts, details, logs, positions, bills, PnL, balances. */
export const botViews = [
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
] as const;
export const securityViews = ['userSecurity', 'userWithdrawInfo', 'userIndex', 'authProfile', 'noticeList'] as const;
export const balanceViews = ['userAccount', 'userAccountLogs', 'userIndex', 'userWithdrawInfo', 'userChangeInfo', 'userDepositInfo'] as const;
export const bindingViews = ['userApi', 'userIndex', 'userAsset', ...botViews] as const;
