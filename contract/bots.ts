/**
 * The bots (docs/product.md §3-4, §7): their vocabulary, what a trader sends to create or edit one, what
 * the bot screens read back, and the calls. Money is a decimal string everywhere; times are ISO strings.
 */
import { z } from 'zod';
import type { Call } from './call.ts';
import { count, decimal, decimalInput, detail, exchangeCode, id, idInput, page, pageQuery, pageSizeQuery, positiveInt, time, tradingMode } from './fields.ts';
import { botViews } from './views.ts';

export const botStatuses = ['running', 'paused', 'stopped'] as const;
export type BotStatus = (typeof botStatuses)[number];

export const botOperations = ['start', 'stop', 'pause', 'resume', 'delete', 'add', 'close'] as const;
export type BotOperation = (typeof botOperations)[number];
export const batchOperations = ['start', 'stop', 'pause', 'resume', 'delete'] as const;
export type BatchOperation = (typeof batchOperations)[number];

/** The action kinds of a bot's log (docs/product.md §3). */
// The log's action kinds live in rules.ts (no zod): the PWA's all-bots log lists them without loading zod.
export { actionKinds, type ActionKind } from './action-kinds.ts';
import { actionKinds } from './action-kinds.ts';

export const symbolSchema = z.string().regex(/^[A-Z0-9]{2,20}\/[A-Z0-9]{2,20}$/, 'format');

// Each bot type's parameters are its strategy's (strategy/<type>/params.ts, listed in strategy/params.ts).
export { martinParamsSchema, type MartinParamsInput } from '../strategy/martin/params.ts';
export { gridParamsSchema, type GridParamsInput } from '../strategy/grid/params.ts';
export { dcaParamsSchema, dcaStartSchema, type DcaParamsInput } from '../strategy/dca/params.ts';
export { customOperandSchema, customParamsSchema, customRuleSchema, customTimeframes, type CustomParamsInput } from '../strategy/custom/params.ts';
import { paramsSchemas, type BuiltBotType, type ParamsInputOf } from '../strategy/params.ts';

/** The bot types, in the order the screens list them (strategy/params.ts). */
export const botTypesBuilt = Object.keys(paramsSchemas) as [BuiltBotType, ...BuiltBotType[]];
export type { BuiltBotType, ParamsInputOf };
/** Any bot type's parameters as its form sends them. */
export type AnyParamsInput = { [T in BuiltBotType]: ParamsInputOf<T> }[BuiltBotType];
/** Each bot type's variant of a body that carries `type` and `params` beside the `base` fields. */
export function perType<B extends z.ZodRawShape>(base: B): z.ZodType<PerType<z.output<z.ZodObject<B>>>> {
  const variants = botTypesBuilt.map((type) => z.strictObject({ type: z.literal(type), ...base, params: paramsSchemas[type] }));
  return z.discriminatedUnion('type', variants as unknown as [(typeof variants)[number], ...(typeof variants)[number][]]) as unknown as z.ZodType<PerType<z.output<z.ZodObject<B>>>>;
}
/** `base` with each type's `type` and `params`: a union a check of `type` narrows. */
export type PerType<Base> = { [T in BuiltBotType]: Base & { type: T; params: ParamsInputOf<T> } }[BuiltBotType];

export const riskLevels = ['conservative', 'balanced', 'aggressive'] as const;
export type RiskLevelName = (typeof riskLevels)[number];
/** An AI bot: the risk level it was chosen for, which its re-tuning keeps. */
const aiSchema = z.strictObject({ risk: z.enum(riskLevels) }).optional();
const botBase = { exchangeId: z.number().int().positive(), symbol: symbolSchema, name: z.string().trim().max(32).optional(), ai: aiSchema };
/** botCreate's body and botUpdate's (the exchange, symbol and type are fixed once created). */
export const botCreateSchema = perType(botBase);
/** Any type's parameters: the bot's own type checks them (its kit's schema) once the bot is read. */
export const anyParamsSchema = z.union(Object.values(paramsSchemas) as unknown as [z.ZodType<AnyParamsInput>, ...z.ZodType<AnyParamsInput>[]]);
export const botUpdateSchema = z.strictObject({ name: z.string().trim().max(32).optional(), params: anyParamsSchema });
export type BotCreateInput = PerType<z.output<z.ZodObject<typeof botBase>>>;
export type BotUpdateInput = { name?: string | undefined; params: AnyParamsInput };

/** What became of a signal: placed (an order), nothing (nothing to do), ignored (bot not running), refused (bad body), busy, expired, error; received: still being acted on. */
export const signalStatuses = ['received', 'placed', 'nothing', 'ignored', 'refused', 'busy', 'expired', 'error'] as const;

const botSummaryShape = {
  id,
  name: z.string(),
  type: z.enum(botTypesBuilt),
  exchangeId: z.number().int(),
  exchange: z.string(),
  symbol: z.string(),
  status: z.enum(botStatuses),
  /** Realised profit over every closed cycle (quote), and the partial closes of the open one. */
  profit: decimal,
  /** Realised profit of cycles closed today (UTC). */
  todayProfit: decimal,
  /** The cycle in progress (1 = the first). */
  cycle: z.number().int().min(1),
  /** Orders filled in the open cycle and the most it may have. */
  positions: count,
  maxPositions: count,
  /** Quote spent in the open cycle. */
  invested: decimal,
  investment: decimal,
  /** Average entry of the open cycle, null when flat. */
  averagePrice: decimal.nullable(),
  /** Whether an order is in flight. */
  pending: z.boolean(),
  /** An AI bot's risk level (its parameters were chosen, and are re-tuned, by the search). */
  ai: z.strictObject({ risk: z.enum(riskLevels), tunedAt: time }).optional(),
  /** Why the engine paused the bot (an order refused), when it did. */
  error: z.string().nullable(),
  /**
   * Returns (docs/engine.md "Returns: ROI and APR"): floating PnL of what the bot holds at the price now
   * (a grid's base on its sell levels), net of the sell fee; null when the price cannot be read now.
   */
  unrealized: decimal.nullable(),
  /** profit + unrealized (null with unrealized). */
  totalProfit: decimal.nullable(),
  /** totalProfit / investment x 100, percent (4 decimals). */
  roi: decimal.nullable(),
  /** roi x 365 / runtime in days, percent (4 decimals); null under a day of runtime. */
  apr: decimal.nullable(),
  /** Seconds from the first start to now (to the last stop when stopped); 0 before any start. */
  runtime: count,
  startedAt: time.nullable(),
  createdAt: time,
  updatedAt: time,
};
/** A bot as the lists show it. */
export const botSummarySchema = z.strictObject(botSummaryShape);
export type BotSummary = z.infer<typeof botSummarySchema>;
const botInfoShape = { ...botSummaryShape, params: anyParamsSchema };
/** botInfo: the bot with its parameters, for the edit screen. */
export const botInfoSchema = z.strictObject(botInfoShape);
export type BotInfo = z.infer<typeof botInfoSchema>;
const side = z.enum(['buy', 'sell']);
/** An order resting on the exchange as the screens show it: resting, on its way (placing), being cancelled, not found (unknown), or refused. */
const restingStateSchema = z.enum(['resting', 'placing', 'cancelling', 'unknown', 'refused']);
/** A grid bot's levels now: the price of each and the order waiting there (null: the empty level). */
export const gridLevelsSchema = z.strictObject({
  quantity: decimal,
  levels: z.array(
    z.strictObject({
      index: z.number().int(),
      price: decimal,
      side: side.nullable(),
      /**
       * Its order on the exchange, where the grid's orders rest there (server/engine/resting.ts): resting,
       * on its way (placing), being cancelled, not found (unknown), or refused with the exchange's reason;
       * null or absent: none stands (the empty level, a level between a fill and its counter-order, or
       * orders sent at market when the price crosses the level).
       */
      order: z
        .strictObject({ state: restingStateSchema, reason: z.string().max(200).nullable() })
        .nullable()
        .optional(),
    }),
  ),
  /** One grid's smallest and largest profit (quote, and percent of its buy). */
  profit: z.strictObject({ min: decimal, max: decimal, minPct: decimal, maxPct: decimal }),
  trades: count,
});
export type GridLevels = z.infer<typeof gridLevelsSchema>;
export const botFillSchema = z.strictObject({ price: decimal, amount: decimal });
export type BotFill = z.infer<typeof botFillSchema>;
/** botDetail: everything the detail screen draws. */
/** What a reconciliation round (or the engine's price reads) found against a bot's books (BotDetail.sync.problem). */
export const syncProblemSchema = z.enum(['unanswered', 'balance_short', 'no_price']);
export const botDetailSchema = z.strictObject({
  ...botInfoShape,
  /** The market price now. */
  price: decimal,
  /**
   * Null: `price` is the market's now. Else the exchange's price could not be read: `price` is the last
   * one read (this server's, at that time), and the figures at it are as of then.
   */
  priceAt: time.nullable(),
  /** Base held in the open cycle (after fees), what a close sells. */
  amount: decimal,
  /**
   * The bot's coin below the market's step (what the fee taken in the coin and the step's rounding left
   * of its buys): carried at no cost into its next sale, which books its quote (strategy/README.md
   * "Books in the quote"); what is left when the bot stops stays in the account.
   */
  dust: decimal,
  /**
   * The most quote one cycle of the bot spent (closed or open): the funds it actually used, beside the
   * budget (investment); null for a grid (it commits its budget at the start) or a bot that never bought.
   */
  usedFunds: decimal.nullable(),
  /** totalProfit in percent of usedFunds (4 decimals): the ROI on the funds used, beside roi on the budget. */
  usedRoi: decimal.nullable(),
  /** Unrealised profit at the price now, net of the sell fee. */
  unrealized: decimal,
  totalProfit: decimal,
  takeProfitPrice: decimal.nullable(),
  stopLossPrice: decimal.nullable(),
  nextAddPrice: decimal.nullable(),
  /**
   * A martin bot's armed trailing take profit (strategy/trailing.ts): the high since it armed and the
   * price the sale fires at (the moving line); absent when not armed. A trailing stop moves stopLossPrice.
   */
  trailing: z.strictObject({ high: decimal, price: decimal }).optional(),
  fills: z.array(botFillSchema),
  /** The cycle as planned from the first fill (or the price now when flat). */
  levels: z.array(z.strictObject({ index: z.number().int(), price: decimal, quote: decimal, amount: decimal })),
  /** A grid bot's levels and orders (absent for the others). */
  grid: gridLevelsSchema.optional(),
  /**
   * A martin or DCA bot's add and take profit as they rest on the exchange as limit orders (the types in
   * RESTING_ORDERS): price, amount and state, with the exchange's reason for a refused one. Absent for a
   * grid (its levels say it) and where the orders go at market; an order that ended is not listed.
   */
  resting: z
    .array(z.strictObject({ slot: z.enum(['add', 'take_profit']), side, price: decimal, amount: decimal, state: restingStateSchema, reason: z.string().max(200).nullable() }))
    .max(2)
    .optional(),
  /**
   * A martin bot's close as the engine computes it (strategy/core/position.ts closeCycle, sizeClose): the
   * base an earlier close left below the step with its cost (sold with the next close), and the market's
   * rules. The confirmation of a (partial) close estimates with them. Absent for the others.
   */
  close: z.strictObject({ carry: decimal, carryCost: decimal, tickSize: decimal, stepSize: decimal, minAmount: decimal, minCost: decimal, feeRate: decimal }).optional(),
  /**
   * The bot against its exchange account (the engine's reconciliation rounds, about every 30 s): when they
   * last agreed (null: not checked yet), and what the last round found otherwise (unanswered: the exchange
   * did not answer; balance_short: the account holds less of the coin than the books; no_price: its pair has
   * had no fresh price for STALE_PRICE_MS, and it opens nothing until the price is back and a round passes), and since when its
   * exchange account is out of reach (order calls failed in a row: the bot opens nothing until a round passes).
   */
  sync: z.strictObject({ at: time.nullable(), problem: syncProblemSchema.nullable(), unreachableSince: time.nullable() }),
});
export type BotDetail = z.infer<typeof botDetailSchema>;
/** A cycle of a bot: open (the position now) or closed with its profit. */
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
export type BotPosition = z.infer<typeof botPositionSchema>;
/** An order of a bot (positionAdds lists the open cycle's buys). */
/**
 * An order's phases: new (recorded, not sent), submitted (sent, its answer awaited), open (resting),
 * partially_filled, filled, pending_cancel, cancelled, rejected, expired, lost (the venue knows no such
 * order; still looked up). The steps between them: server/store/order-states.ts.
 */
export const orderPhases = ['new', 'submitted', 'open', 'partially_filled', 'filled', 'pending_cancel', 'cancelled', 'rejected', 'expired', 'lost'] as const;
export type OrderPhase = (typeof orderPhases)[number];
export const botOrderSchema = z.strictObject({
  clientOrderId: z.string(),
  cycle: z.number().int().min(1),
  seq: z.number().int().min(1),
  side,
  reason: z.enum(['open', 'add', 'manual_add', 'close', 'stop', 'manual_close', 'signal_close', 'exit_rule']),
  status: z.enum(orderPhases),
  price: decimal.nullable(),
  amount: decimal.nullable(),
  cost: decimal.nullable(),
  fee: decimal.nullable(),
  feeCurrency: z.string().nullable(),
  at: time,
});
export type BotOrder = z.infer<typeof botOrderSchema>;
/**
 * A DCA or custom bot's signal webhook. The token is stored hashed: `token` and `path`
 * are answered once, by the call that makes it (userBotWebhookReset); afterwards only whether there is one.
 */
export const botWebhookSchema = z.strictObject({
  enabled: z.boolean(),
  createdAt: time.nullable(),
  token: z.string().nullable(),
  /** The URL's path on this site (`/api/signal/{token}`), with `token`. */
  path: z.string().nullable(),
  /** Bodies the webhook refused (unreadable, or not a signal): how many, and the last one's time and reason. */
  refused: z.number().int().nonnegative(),
  refusedAt: time.nullable(),
  refusedReason: z.string().nullable(),
});
export type BotWebhook = z.infer<typeof botWebhookSchema>;
/** One signal a bot's webhook received, newest first. */
export const botSignalSchema = z.strictObject({
  id,
  /** The alert's own id (null: a body refused before one was read). */
  signalId: z.string().nullable(),
  action: z.enum(['buy', 'sell', 'close']).nullable(),
  price: z.string().nullable(),
  amount: z.string().nullable(),
  note: z.string().nullable(),
  status: z.enum(signalStatuses),
  reason: z.string().nullable(),
  at: time,
});
export type BotSignal = z.infer<typeof botSignalSchema>;
/** One line of a bot's action log. `detail` holds the figures; the screen words them. */
export const botActionSchema = z.strictObject({ id, botId: id, kind: z.enum(actionKinds), detail, at: time });
export type BotAction = z.infer<typeof botActionSchema>;
/** A line of the all-bots log: the action with the bot it belongs to. */
export const botLogLineSchema = z.strictObject({
  ...botActionSchema.shape,
  botName: z.string(),
  /** The bot's type: a line's title names a DCA bot's orders as base and safety orders. */
  type: z.enum(botTypesBuilt),
  exchange: z.string(),
  symbol: z.string(),
});
export type BotLogLine = z.infer<typeof botLogLineSchema>;
export const botCountSchema = z.strictObject({ total: count, running: count, paused: count, stopped: count });
export type BotCount = z.infer<typeof botCountSchema>;
export const batchStatusSchema = z.strictObject({
  task_id: z.string(),
  action: z.enum(batchOperations),
  status: z.enum(['running', 'done']),
  total: count,
  done: count,
  results: z.array(z.strictObject({ id: z.string(), ok: z.boolean(), code: z.number().int(), msg: z.string() })),
});
export type BatchStatus = z.infer<typeof batchStatusSchema>;
/** Whether the strategy rank shows the owner's bot's parameters. */
export const botShareSchema = z.strictObject({ id, shareRules: z.boolean() });
export type BotShare = z.infer<typeof botShareSchema>;

const botQuery = z.strictObject({ id: idInput });
const botPage = z.strictObject({ id: idInput, page: pageQuery, page_size: pageSizeQuery });
const listFilter = { exchange: exchangeCode.optional(), mode: tradingMode.optional(), type: z.enum(botTypesBuilt).optional() };

export const botCalls = {
  userBotCreate: { method: 'POST', path: '/user/botCreate', screen: true, changes: botViews, body: botCreateSchema, answer: botInfoSchema },
  userBotInfo: { method: 'GET', path: '/user/botInfo', screen: true, query: botQuery, answer: botInfoSchema },
  userBotDetail: { method: 'GET', path: '/user/botDetail', screen: true, query: botQuery, answer: botDetailSchema },
  userBotPositions: { method: 'GET', path: '/user/botPositions', screen: true, query: botPage, answer: page(botPositionSchema) },
  userPositionAdds: {
    method: 'GET',
    path: '/user/positionAdds',
    query: z.strictObject({ id: idInput, cycle: positiveInt(1_000_000_000).optional() }),
    answer: z.array(botOrderSchema),
  },
  userBotUpdate: { method: 'PUT', path: '/user/botUpdate', screen: true, changes: botViews, query: botQuery, body: botUpdateSchema, answer: botInfoSchema },
  userBotList: {
    method: 'GET',
    path: '/user/botList',
    screen: true,
    query: z.strictObject({ page: pageQuery, page_size: pageSizeQuery, status: z.enum(botStatuses).optional(), ...listFilter }),
    answer: page(botSummarySchema),
  },
  userBotCount: { method: 'GET', path: '/user/botCount', query: z.strictObject(listFilter), answer: botCountSchema },
  userBotOperation: {
    method: 'GET',
    path: '/user/botOperation',
    screen: true,
    changes: botViews,
    // amount: the quote (USDT) a manual add spends, when the trader chose it; sell=1 with stop: sell the position first (else the coins are kept).
    // share (percent, 1-100) or baseAmount (of the base coin) with close: a partial close of a martin bot; neither: all of it.
    query: z.strictObject({
      id: idInput,
      action: z.enum(botOperations),
      amount: decimalInput.optional(),
      sell: z.enum(['0', '1']).optional(),
      share: decimalInput.optional(),
      baseAmount: decimalInput.optional(),
    }),
    // The bot after the operation, with its parameters; null once deleted.
    answer: botInfoSchema.nullable(),
  },
  userBotBatch: {
    method: 'GET',
    path: '/user/botBatch',
    screen: true,
    changes: botViews,
    query: z.strictObject({
      action: z.enum(batchOperations),
      ids: z.string().regex(/^[1-9]\d{0,17}(,[1-9]\d{0,17}){0,99}$/, 'format'),
      // sell=1 with stop: each bot holding coins sells them first, as one bot's stop (else the coins are kept).
      sell: z.enum(['0', '1']).optional(),
    }),
    answer: z.strictObject({ task_id: z.string().min(1) }),
  },
  userBotBatchStatus: { method: 'GET', path: '/user/botBatchStatus', query: z.strictObject({ task_id: z.string().regex(/^[A-Za-z0-9-]{1,64}$/, 'format') }), answer: batchStatusSchema },
  userBotActions: { method: 'GET', path: '/user/botActions', screen: true, query: botPage, answer: page(botActionSchema) },
  // A DCA or custom bot's signal webhook (whether it has one), a new token (the old one stops working), its
  // signals newest first. The webhook itself, POST /api/signal/{token}, is outside this table (docs/api.md).
  userBotWebhook: { method: 'GET', path: '/user/botWebhook', query: botQuery, answer: botWebhookSchema },
  userBotWebhookReset: { method: 'POST', path: '/user/botWebhookReset', changes: ['userBotWebhook'], body: botQuery, answer: botWebhookSchema },
  userBotSignals: { method: 'GET', path: '/user/botSignals', query: botPage, answer: page(botSignalSchema) },
  // Whether the strategy rank shows a bot's parameters (its owner's choice; off by default), and the switch,
  // which changes nothing of its trading.
  userBotShare: { method: 'GET', path: '/user/botShare', query: botQuery, answer: botShareSchema },
  userBotShareSet: { method: 'POST', path: '/user/botShare', changes: ['userBotShare', 'marketBotRank'], body: z.strictObject({ id: idInput, shareRules: z.boolean() }), answer: botShareSchema },
} as const satisfies Record<string, Call>;
