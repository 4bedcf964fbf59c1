/** Trying a strategy before it trades: a backtest on recent history, and the AI's parameter search. */
import { z } from 'zod';
import { botTypesBuilt, gridParamsSchema, martinParamsSchema, perType, riskLevels, symbolSchema } from './bots.ts';
import type { Call } from './call.ts';
import { count, decimal, decimalInput } from './fields.ts';

/**
 * A backtest's slippage: a fraction of the price against the trader on every fill ('0.0005' = 0.05 %),
 * 0 to 0.05; absent, the default (0.05 %, strategy/backtest.ts DEFAULT_SLIPPAGE).
 */
const slippage = z
  .string()
  .regex(/^0(\.\d{1,8})?$/, 'format')
  .refine((s) => Number(s) <= 0.05, 'range')
  .optional();
const exchangeId = z.number().int().positive();
const equitySchema = z.array(z.strictObject({ time: z.number().int(), value: z.number() }));
/**
 * A backtest's fill model: a triggered order fills at its trigger price, or at the candle's open when
 * the candle opened past it, then `slippage` against the trader (a fraction: '0.0005' = 0.05 %).
 * `seconds`: the market's own seconds were read (Paper, the simulated market): each minute's order of
 * low and high, a stop at the price of the second that reached it, a cycle re-opened a second after it
 * closed, as the live engine's price rounds take them. `resting`: the bot types whose orders rested on the
 * book, as the live engine rests them (its RESTING_ORDERS): such an order fills at its own price, with no
 * slippage, at the maker's fee; exits still go at market.
 */
export const fillModelSchema = z.strictObject({ price: z.literal('trigger'), slippage: decimal, seconds: z.boolean(), resting: z.array(z.enum(botTypesBuilt)) });
export type FillModelAnswer = z.infer<typeof fillModelSchema>;
/** A backtest of a configuration on recent history. */
export const backtestAnswerSchema = z.strictObject({
  exchange: z.string(),
  symbol: z.string(),
  days: z.number().int(),
  /** The candle size replayed: 1m on Paper; coarser on live exchanges (one page of candles). */
  timeframe: z.string(),
  from: z.number().int(),
  to: z.number().int(),
  candles: count,
  startPrice: z.number(),
  endPrice: z.number(),
  investment: decimal,
  /** Exact realised profit of the closed cycles, net of fees. */
  realized: decimal,
  returnPct: z.number(),
  maxDrawdownPct: z.number(),
  priceChangePct: z.number(),
  cycles: count,
  fills: count,
  fees: z.number(),
  open: z.strictObject({ amount: decimal, average: decimal, value: z.number() }).nullable(),
  equity: equitySchema,
  /** How orders were filled: at the trigger price (the candle's open when it opened past it), with the slippage. */
  fill: fillModelSchema,
});
export type BacktestAnswer = z.infer<typeof backtestAnswerSchema>;
/** Figures of a backtest window, for a proposal. */
export const aiFiguresSchema = z.strictObject({ returnPct: z.number(), maxDrawdownPct: z.number(), realized: decimal, cycles: count });
export type AiFigures = z.infer<typeof aiFiguresSchema>;
/** One configuration the AI search proposes, with why (its backtested figures and score). */
export const aiProposalSchema = z.strictObject({
  type: z.enum(['martin', 'grid']),
  params: z.union([martinParamsSchema, gridParamsSchema]),
  score: z.number(),
  d30: aiFiguresSchema,
  d7: aiFiguresSchema,
  equity: equitySchema,
});
export type AiProposal = z.infer<typeof aiProposalSchema>;
export const aiSearchAnswerSchema = z.strictObject({
  exchange: z.string(),
  symbol: z.string(),
  risk: z.enum(riskLevels),
  /** Candidates backtested, kept within the drawdown limit, and the limit (percent). */
  tried: count,
  kept: count,
  limit: z.number(),
  timeframe: z.string(),
  elapsedMs: z.number().min(0),
  /** How the candidates' backtests filled their orders. */
  fill: fillModelSchema,
  proposals: z.array(aiProposalSchema),
});
export type AiSearchAnswer = z.infer<typeof aiSearchAnswerSchema>;

export const strategyCalls = {
  // A backtest from the create screens, before the bot is saved.
  strategyBacktest: {
    method: 'POST',
    path: '/strategy/backtest',
    body: perType({ exchangeId, symbol: symbolSchema, days: z.union([z.literal(7), z.literal(30), z.literal(90)]), slippage }),
    answer: backtestAnswerSchema,
  },
  // The AI bot's parameter search.
  strategyAiSearch: {
    method: 'POST',
    path: '/strategy/aiSearch',
    body: z.strictObject({ exchangeId, symbol: symbolSchema, investment: decimalInput, risk: z.enum(riskLevels), slippage }),
    answer: aiSearchAnswerSchema,
  },
  // The trader's place in the AI search line while a search waits: position 0 while the trader's search
  // runs, n with n before it, null with none; length: the whole line; progress: candidates backtested of all, once it runs.
  strategyAiQueue: {
    method: 'GET',
    path: '/strategy/aiQueue',
    answer: z.strictObject({ position: count.nullable(), length: count, progress: z.strictObject({ done: count, total: count }).nullable() }),
  },
} as const satisfies Record<string, Call>;
