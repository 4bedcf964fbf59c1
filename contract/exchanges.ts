/** The trader's accounts on exchanges: API keys, balances, the portfolio, and the simulated accounts' tools. */
import { z } from 'zod';
import type { Call } from './call.ts';
import { count, decimal, exchangeCode, id, idInput, secondFactor, time } from './fields.ts';
import { bindingViews, botViews } from './views.ts';

/** A bound API key as the app sees it: never the secret, the key masked. */
export const apiBindingSchema = z.strictObject({ id, exchangeId: z.number().int(), exchange: z.string(), apiKey: z.string(), createdAt: time, updatedAt: time });
export type ApiBinding = z.infer<typeof apiBindingSchema>;
/** A currency on a bound exchange account. */
export const exchangeBalanceSchema = z.strictObject({ currency: z.string(), free: decimal, total: decimal });
export type ExchangeBalance = z.infer<typeof exchangeBalanceSchema>;
/**
 * A balance of the trader's account on an exchange, with what their running and paused bots there have
 * reserved of it (the quote each may still spend on buys it has not made) and `available`: free minus
 * reserved, at least 0, what a new bot can count on.
 */
export const assetBalanceSchema = exchangeBalanceSchema.extend({ reserved: decimal, available: decimal });
export type AssetBalance = z.infer<typeof assetBalanceSchema>;
/** A coin of an account, valued in USDT at the price now (null: no USDT price for it). */
export const portfolioCoinSchema = z.strictObject({ currency: z.string(), free: decimal, total: decimal, price: decimal.nullable(), value: decimal.nullable() });
export type PortfolioCoin = z.infer<typeof portfolioCoinSchema>;
/** One account of the portfolio: Paper, a simulated account, or a bound exchange. */
export const portfolioAccountSchema = z.strictObject({
  exchange: z.string(),
  /** paper and simulated hold virtual money (labelled so); live is the trader's exchange account. */
  kind: z.enum(['paper', 'simulated', 'live']),
  /** unavailable: the balance could not be read now (not 0): equity and available are null. */
  status: z.enum(['ok', 'unavailable']),
  /** The coins' USDT value (coins without a price left out). */
  equity: decimal.nullable(),
  /** Free USDT the trader's running and paused bots have not reserved: what a new bot can use. */
  available: decimal.nullable(),
  /** The coins held, most valuable first (at most 50; `coinCount` has them all). */
  coins: z.array(portfolioCoinSchema),
  coinCount: count,
});
export type PortfolioAccount = z.infer<typeof portfolioAccountSchema>;
/** The trader's equity across accounts, USDT at the price now. */
export const portfolioSchema = z.strictObject({
  /** Real money: the bound live exchanges. */
  live: decimal,
  /** Virtual money: Paper and the simulated accounts. */
  simulation: decimal,
  total: decimal,
  /** Accounts whose balance could not be read (left out of the sums). */
  unavailable: count,
  accounts: z.array(portfolioAccountSchema),
});
export type Portfolio = z.infer<typeof portfolioSchema>;
/**
 * What a dust sweep converted. Each coin of the simulated account too small to be sold by an order
 * (below its USDT pair's minimum amount or cost) and no longer any bot's to sell, into USDT at the price
 * now less the fee; `total` the USDT received, `balances` the account after it.
 */
export const dustSweptSchema = z.strictObject({
  exchange: z.string(),
  /** from: the names of the stopped bots whose dust the coin was (empty: the account's own). */
  swept: z.array(z.strictObject({ currency: z.string(), amount: decimal, quote: decimal, from: z.array(z.string()) })),
  total: decimal,
  balances: z.array(exchangeBalanceSchema),
});
export type DustSwept = z.infer<typeof dustSweptSchema>;
const balancesOf = z.strictObject({ exchange: z.string(), balances: z.array(exchangeBalanceSchema) });
const account = z.strictObject({ exchange: exchangeCode.optional() });

export const exchangeCalls = {
  // The bind screen says a refusal under its button (and asks for a 2FA code there): a toast too would say it twice.
  exchangesBind: {
    method: 'POST',
    path: '/exchanges/bind',
    screen: true,
    changes: bindingViews,
    body: z.strictObject({
      exchangeId: z.union([z.number().int().positive(), idInput]),
      apiKey: z.string().min(1, 'required').max(256),
      secretKey: z.string().min(1, 'required').max(512),
      passphrase: z.string().max(256).optional(),
      otp: secondFactor.optional(),
    }),
    answer: apiBindingSchema,
  },
  exchangesUnbind: { method: 'DELETE', path: '/exchanges/bind/:id', screen: true, changes: bindingViews, params: z.strictObject({ id: idInput }), answer: z.null() },
  userApi: { method: 'GET', path: '/user/api', query: account, answer: z.array(apiBindingSchema) },
  userApiPost: { method: 'POST', path: '/user/api', changes: bindingViews, body: z.strictObject({ exchange: exchangeCode }), answer: z.array(apiBindingSchema) },
  userAsset: { method: 'GET', path: '/user/asset', query: account, answer: z.strictObject({ exchange: z.string(), balances: z.array(assetBalanceSchema) }) },
  // Equity across Paper, the simulated accounts and the bound exchanges.
  userPortfolio: { method: 'GET', path: '/user/portfolio', answer: portfolioSchema },
  // The simulation page: the Paper account back to its starting balance.
  paperReset: { method: 'POST', path: '/user/paperReset', changes: [...botViews, 'userApi'], body: account.optional(), answer: balancesOf },
  // The simulation page: coins too small to sell (a bot's dust) converted into USDT, as Binance's "convert small balances".
  paperSweepDust: { method: 'POST', path: '/user/paperSweepDust', changes: [...botViews, 'userApi'], body: account.optional(), answer: dustSweptSchema },
} as const satisfies Record<string, Call>;
