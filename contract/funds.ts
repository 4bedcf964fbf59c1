/** The platform's money: balances and their changes, deposits and withdrawals on chain 56, conversions. */
import { z } from 'zod';
import type { Call } from './call.ts';
import { address, asset, count, decimal, decimalInput, detail, id, network, page, pageQuery, pageSizeQuery, secondFactor, time } from './fields.ts';
import { PAYMENT_PASSWORD_RE } from './rules.ts';
import { balanceViews, securityViews } from './views.ts';

/** The platform balances, exact decimal strings. */
export const accountBalancesSchema = z.strictObject({ usdt: decimal, fuel: decimal, points: decimal, rewards: decimal });
export type AccountBalances = z.infer<typeof accountBalancesSchema>;
/** One change of a balance: signed amount, the balance after it, why. */
export const accountLogSchema = z.strictObject({
  id,
  asset,
  amount: decimal,
  balance: decimal,
  reason: z.enum(['welcome', 'profit_fee', 'deposit', 'withdraw', 'refund', 'change', 'reward', 'adjust']),
  detail,
  createdAt: time,
});
export type AccountLog = z.infer<typeof accountLogSchema>;
/** submitted: reported by the trader, not yet confirmed on chain; credited: in the USDT balance. */
const depositStatus = z.enum(['submitted', 'credited']);
/** A deposit the server has seen or been told of. */
export const depositRecordSchema = z.strictObject({ txHash: z.string(), amount: decimal.nullable(), status: depositStatus, createdAt: time });
export type DepositRecord = z.infer<typeof depositRecordSchema>;
/** Deposits on chain 56: where to pay, how much at least, how deep before it counts. */
export const depositInfoSchema = z.strictObject({
  /** false when this server has no chain configured (the screen says so). */
  enabled: z.boolean(),
  network: z.literal('BSC'),
  chainId: z.number().int(),
  /** The USDT token contract and its decimals. */
  token: z.string(),
  decimals: z.number().int().min(0),
  /** The deposit contract: approve it, then deposit(amount, memo); or send USDT to it from the bound wallet. */
  contract: z.string(),
  minimum: decimal,
  confirmations: count,
  /** The trader's UID, which deposit() carries so the server knows whose money it is. */
  memo: z.string(),
  /** The wallet bound to the account, whose plain transfers are credited too. */
  wallet: z.string().nullable(),
  /** The chain is a local demo chain (DEV_CHAIN=1) with a faucet: userFaucet sends test USDT and BNB. */
  faucet: z.boolean(),
  /** The latest deposits (at most 10; the account logs hold them all). */
  recent: z.array(depositRecordSchema),
});
export type DepositInfo = z.infer<typeof depositInfoSchema>;
export const depositAddressSchema = z.strictObject({ network: z.literal('BSC'), address: z.string(), memo: z.string(), token: z.string() });
export type DepositAddress = z.infer<typeof depositAddressSchema>;
/** What a reported deposit transaction stands at. */
export const depositReportSchema = z.strictObject({
  txHash: z.string(),
  status: depositStatus,
  /** Blocks so far (0: not found on chain yet) and needed. */
  confirmations: count,
  required: count,
});
export type DepositReport = z.infer<typeof depositReportSchema>;
export const withdrawalRecordSchema = z.strictObject({
  id,
  requestId: z.string(),
  address: z.string(),
  amount: decimal,
  fee: decimal,
  /** amount - fee: what arrives. */
  received: decimal,
  /** pending and signed are waiting; sent is broadcast; confirmed is mined; failed is refunded. */
  status: z.enum(['pending', 'signed', 'sent', 'confirmed', 'failed']),
  txHash: z.string().nullable(),
  createdAt: time,
});
export type WithdrawalRecord = z.infer<typeof withdrawalRecordSchema>;
export const withdrawInfoSchema = z.strictObject({
  enabled: z.boolean(),
  network: z.literal('BSC'),
  token: z.string(),
  minimum: decimal,
  fee: decimal,
  /** The USDT balance. */
  balance: decimal,
  paymentPasswordSet: z.boolean(),
  recent: z.array(withdrawalRecordSchema),
  /** Withdrawals wait until then after a change of the account's security (ISO time), or null. */
  lockedUntil: time.nullable(),
  /** How long withdrawals wait after a security change, and a new address before it is paid (WITHDRAW_LOCK_HOURS), in ms. */
  lockMs: z.number().int().min(0),
  /** Two-factor authentication is on: a withdrawal needs a code. */
  twoFactor: z.boolean(),
});
export type WithdrawInfo = z.infer<typeof withdrawInfoSchema>;
export const changePairSchema = z.strictObject({
  from: asset,
  to: asset,
  /** Units of `to` per unit of `from`. */
  rate: decimal,
});
export type ChangePair = z.infer<typeof changePairSchema>;
export const changeInfoSchema = z.strictObject({ balances: accountBalancesSchema, pairs: z.array(changePairSchema), paymentPasswordSet: z.boolean() });
export type ChangeInfo = z.infer<typeof changeInfoSchema>;
const payPassword = z.string().regex(PAYMENT_PASSWORD_RE, 'format');

export const fundCalls = {
  userAccount: { method: 'GET', path: '/user/account', answer: accountBalancesSchema },
  userAccountLogs: {
    method: 'GET',
    path: '/user/accountLogs',
    query: z.strictObject({ type: asset.optional(), page: pageQuery, page_size: pageSizeQuery }),
    answer: page(accountLogSchema),
  },
  userDeposit: {
    method: 'POST',
    path: '/user/deposit',
    changes: balanceViews,
    body: z.strictObject({ network: network.optional(), txHash: z.string().regex(/^0x[0-9a-fA-F]{64}$/, 'format') }),
    answer: depositReportSchema,
  },
  userDepositInfo: { method: 'GET', path: '/user/depositInfo', answer: depositInfoSchema },
  userDepositAddress: { method: 'GET', path: '/user/depositAddress', query: z.strictObject({ network }), answer: depositAddressSchema },
  userWithdrawInfo: { method: 'GET', path: '/user/withdrawInfo', answer: withdrawInfoSchema },
  userWithdraw: {
    method: 'POST',
    path: '/user/withdraw',
    changes: [...balanceViews, ...securityViews],
    body: z.strictObject({
      network: network.optional(),
      address,
      amount: decimalInput,
      payPassword,
      /** The client's idempotency key: the same key never makes a second withdrawal. */
      requestId: z.string().regex(/^[A-Za-z0-9-]{8,64}$/, 'format'),
      otp: secondFactor.optional(),
    }),
    answer: withdrawalRecordSchema,
  },
  userChangeInfo: { method: 'GET', path: '/user/changeInfo', answer: changeInfoSchema },
  userChange: {
    method: 'POST',
    path: '/user/change',
    changes: balanceViews,
    body: z.strictObject({ from: asset, to: asset, amount: decimalInput, payPassword }),
    answer: z.strictObject({ from: asset, to: asset, amount: decimal, received: decimal, balances: accountBalancesSchema }),
  },
  // A demo's faucet (DEV_CHAIN=1 only): test USDT and BNB to a wallet; the answer says what it sent, and where.
  userFaucet: { method: 'POST', path: '/user/faucet', changes: balanceViews, body: z.strictObject({ address }), answer: z.strictObject({ address: z.string(), usdt: decimal, bnb: decimal }) },
} as const satisfies Record<string, Call>;
