/** What the bots earned and hold, across them: the profit bill, PnL over time, open positions, the log of every bot. */
import { z } from 'zod';
import { actionKinds } from './action-kinds.ts';
import { botLogLineSchema, botStatuses } from './bots.ts';
import type { Call } from './call.ts';
import { count, day, decimal, id, idInput, page, pageQuery, pageSizeQuery, time, tradingMode, utcOffset } from './fields.ts';

/** A closed cycle in the profit bill. */
export const billLogSchema = z.strictObject({ id, botId: id, botName: z.string(), exchange: z.string(), symbol: z.string(), cycle: z.number().int().min(1), profit: decimal, closedAt: time });
export type BillLog = z.infer<typeof billLogSchema>;
export const billGroupSchema = z.strictObject({
  /** The last 30 days (UTC), oldest first, days without a close included as 0. */
  byDay: z.array(z.strictObject({ day: z.iso.date(), profit: decimal })),
  byBot: z.array(z.strictObject({ botId: id, botName: z.string(), symbol: z.string(), profit: decimal })),
  bySymbol: z.array(z.strictObject({ symbol: z.string(), profit: decimal })),
});
export type BillGroup = z.infer<typeof billGroupSchema>;
/**
 * The bill's summary: today and total, realised profit (the spec's bill summary); unrealized: the floating
 * PnL of what the bots hold at the price now; totalPnl: total + unrealized; unpriced: holding bots whose
 * price could not be read now (left out of unrealized).
 */
export const billSchema = z.strictObject({ today: z.number(), total: z.number(), unrealized: z.number(), totalPnl: z.number(), unpriced: count });
export type Bill = z.infer<typeof billSchema>;
/** An open position across the user's bots (/my/positions). */
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
export type OpenPosition = z.infer<typeof openPositionSchema>;
/** PnL over time: of one bot (id) or of the trader's bots (live or simulation). */
export const pnlHistorySchema = z.strictObject({
  /** Realised profit of the bots' closed cycles (grid: grid profit). */
  realized: decimal,
  /** Floating PnL at the price now of what the bots hold. */
  unrealized: decimal,
  total: decimal,
  /** The investments the bots were set up with (their sum for the account). */
  investment: decimal,
  roi: decimal.nullable(),
  apr: decimal.nullable(),
  runtime: count,
  /** Bots whose price could not be read now: their floating PnL is left out of `unrealized`. */
  unpriced: count,
  days: z.number().int().min(1),
  /**
   * One point per UTC day of the window, oldest first: that day's realised profit, the running sum (from
   * the first cycle), the floating PnL of the day (today: now; a past day: its snapshots' sum, null without
   * any: before snapshots were taken, or no bot running or holding) and the total PnL of the day (realised +
   * floating; docs/engine.md "Returns").
   */
  points: z.array(z.strictObject({ day: z.iso.date(), profit: decimal, cumulative: decimal, unrealized: decimal.nullable(), total: decimal })),
});
export type PnlHistory = z.infer<typeof pnlHistorySchema>;

// mode (ours): live and simulated bots apart; left out, both.
const modeQuery = z.strictObject({ mode: tradingMode.optional() });

export const returnCalls = {
  userBill: { method: 'GET', path: '/user/bill', query: modeQuery, answer: billSchema },
  userBillLogs: { method: 'GET', path: '/user/billLogs', query: z.strictObject({ page: pageQuery, page_size: pageSizeQuery, mode: tradingMode.optional() }), answer: page(billLogSchema) },
  userBillGroup: { method: 'GET', path: '/user/billGroup', query: modeQuery, answer: billGroupSchema },
  userPositions: { method: 'GET', path: '/user/positions', query: z.strictObject({ page: pageQuery, page_size: pageSizeQuery }), answer: page(openPositionSchema) },
  // Every bot's log, filtered by bot, action kind and days (from and to included) in the trader's time zone (tz; absent: UTC).
  userActions: {
    method: 'GET',
    path: '/user/actions',
    query: z.strictObject({
      page: pageQuery,
      page_size: pageSizeQuery,
      bot: idInput.optional(),
      kind: z.enum(actionKinds).optional(),
      from: day.optional(),
      to: day.optional(),
      tz: utcOffset.optional(),
    }),
    answer: page(botLogLineSchema),
  },
  // PnL over time of one bot (id) or of the trader's bots (mode), over the last `days` UTC days.
  // tz: the trader's offset from UTC in minutes east (UTC+8: 480), so the daily bars fall on their days as the logs do.
  userPnl: {
    method: 'GET',
    path: '/user/pnl',
    query: z.strictObject({ id: idInput.optional(), mode: tradingMode.optional(), days: z.enum(['7', '30', '90', '365']).optional(), tz: utcOffset.optional() }),
    answer: pnlHistorySchema,
  },
} as const satisfies Record<string, Call>;
