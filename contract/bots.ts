/**
 * The bot calls' shapes (docs/product.md §3-4, §7): what a trader sends to create or edit a martin bot and what
 * the bot screens read back. Money is a decimal string everywhere; times are ISO strings.
 * The schemas are zod (server side); the PWA imports the types only.
 */
import { z } from 'zod';

export const botStatuses = ['running', 'paused', 'stopped'] as const;
export type BotStatus = (typeof botStatuses)[number];

export const botOperations = ['start', 'stop', 'pause', 'resume', 'delete', 'add', 'close'] as const;
export type BotOperation = (typeof botOperations)[number];
export const batchOperations = ['start', 'stop', 'pause', 'resume', 'delete'] as const;
export type BatchOperation = (typeof batchOperations)[number];

/** The action kinds of a bot's log (docs/product.md §3). */
// The log's action kinds live in rules.ts (no zod): the PWA's all-bots log lists them without loading zod.
export { actionKinds, type ActionKind } from './action-kinds.ts';
import type { ActionKind } from './action-kinds.ts';

export const symbolSchema = z.string().regex(/^[A-Z0-9]{2,20}\/[A-Z0-9]{2,20}$/, 'format');

// Each bot type's parameters are its strategy's (strategy/<type>/params.ts, listed in strategy/params.ts).
export { martinParamsSchema, type MartinParamsInput } from '../strategy/martin/params.ts';
export { gridParamsSchema, type GridParamsInput } from '../strategy/grid/params.ts';
export { dcaParamsSchema, dcaStartSchema, type DcaParamsInput } from '../strategy/dca/params.ts';
export { customOperandSchema, customParamsSchema, customRuleSchema, customTimeframes, type CustomParamsInput } from '../strategy/custom/params.ts';
import { paramsSchemas, type BuiltBotType, type ParamsInputOf } from '../strategy/params.ts';

/** The bot types, in the order the screens list them (strategy/params.ts). */
export const botTypesBuilt = Object.keys(paramsSchemas) as [BuiltBotType, ...BuiltBotType[]];
export type { BuiltBotType };
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

/** A bot as the lists show it. */
export interface BotSummary {
  id: string;
  name: string;
  type: BuiltBotType;
  exchangeId: number;
  exchange: string;
  symbol: string;
  status: BotStatus;
  /** Realised profit over every closed cycle (quote), and the partial closes of the open one. */
  profit: string;
  /** Realised profit of cycles closed today (UTC). */
  todayProfit: string;
  /** The cycle in progress (1 = the first). */
  cycle: number;
  /** Orders filled in the open cycle and the most it may have. */
  positions: number;
  maxPositions: number;
  /** Quote spent in the open cycle. */
  invested: string;
  investment: string;
  /** Average entry of the open cycle, null when flat. */
  averagePrice: string | null;
  /** Whether an order is in flight. */
  pending: boolean;
  /** An AI bot's risk level (its parameters were chosen, and are re-tuned, by the search). */
  ai?: { risk: RiskLevelName; tunedAt: string } | undefined;
  /** Why the engine paused the bot (an order refused), when it did. */
  error: string | null;
  /**
   * Returns (docs/engine.md "Returns: ROI and APR"): floating PnL of what the bot holds at the price now
   * (a grid's base on its sell levels), net of the sell fee; null when the price cannot be read now.
   */
  unrealized: string | null;
  /** profit + unrealized (null with unrealized). */
  totalProfit: string | null;
  /** totalProfit / investment x 100, percent (4 decimals). */
  roi: string | null;
  /** roi x 365 / runtime in days, percent (4 decimals); null under a day of runtime. */
  apr: string | null;
  /** Seconds from the first start to now (to the last stop when stopped); 0 before any start. */
  runtime: number;
  startedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

/** botInfo: the bot with its parameters, for the edit screen. */
export interface BotInfo extends BotSummary {
  params: AnyParamsInput;
}

/** A grid bot's levels now: the price of each and the order waiting there (null: the empty level). */
export interface GridLevels {
  quantity: string;
  levels: { index: number; price: string; side: 'buy' | 'sell' | null }[];
  /** One grid's smallest and largest profit (quote, and percent of its buy). */
  profit: { min: string; max: string; minPct: string; maxPct: string };
  trades: number;
}

export interface BotFill {
  price: string;
  amount: string;
}

/** botDetail: everything the detail screen draws. */
export interface BotDetail extends BotInfo {
  /** The market price now. */
  price: string;
  /** Base held in the open cycle (after fees), what a close sells. */
  amount: string;
  /**
   * The bot's coin below the market's step (what the fee taken in the coin and the step's rounding left
   * of its buys): carried at no cost into its next sale, which books its quote (strategy/README.md
   * "Books in the quote"); what is left when the bot stops stays in the account.
   */
  dust: string;
  /** Unrealised profit at the price now, net of the sell fee. */
  unrealized: string;
  totalProfit: string;
  /**
   * The most quote one cycle of the bot spent (closed or open): the funds it actually used, beside the
   * budget (investment); null for a grid (it commits its budget at the start) or a bot that never bought.
   */
  usedFunds: string | null;
  /** totalProfit in percent of usedFunds (4 decimals): the ROI on the funds used, beside roi on the budget. */
  usedRoi: string | null;
  takeProfitPrice: string | null;
  stopLossPrice: string | null;
  nextAddPrice: string | null;
  /**
   * A martin bot's armed trailing take profit (strategy/trailing.ts): the high since it armed and the
   * price the sale fires at (the moving line); absent when not armed. A trailing stop moves stopLossPrice.
   */
  trailing?: { high: string; price: string } | undefined;
  fills: BotFill[];
  /** The cycle as planned from the first fill (or the price now when flat). */
  levels: { index: number; price: string; quote: string; amount: string }[];
  /** A grid bot's levels and orders (absent for martin). */
  grid?: GridLevels;
  /**
   * A martin bot's close as the engine computes it (strategy/martin/plan.ts closeCycle, sizeClose): the
   * base an earlier close left below the step with its cost (sold with the next close), and the market's
   * rules. The confirmation of a (partial) close estimates with them. Absent for grid.
   */
  close?: { carry: string; carryCost: string; tickSize: string; stepSize: string; minAmount: string; minCost: string; feeRate: string };
}

/** A cycle of a bot: open (the position now) or closed with its profit. */
export interface BotPosition {
  cycle: number;
  status: 'open' | 'closed';
  entries: number;
  amount: string;
  cost: string;
  averagePrice: string | null;
  closePrice: string | null;
  profit: string | null;
  openedAt: string | null;
  closedAt: string | null;
}

/** An order of a bot (positionAdds lists the open cycle's buys). */
export interface BotOrder {
  clientOrderId: string;
  cycle: number;
  seq: number;
  side: 'buy' | 'sell';
  reason: 'open' | 'add' | 'manual_add' | 'close' | 'stop' | 'manual_close' | 'signal_close' | 'exit_rule';
  status: 'new' | 'filled' | 'rejected';
  price: string | null;
  amount: string | null;
  cost: string | null;
  fee: string | null;
  feeCurrency: string | null;
  at: string;
}

/**
 * A DCA or custom bot's signal webhook. The token is stored hashed: `token` and `path`
 * are answered once, by the call that makes it (userBotWebhookReset); afterwards only whether there is one.
 */
export interface BotWebhook {
  enabled: boolean;
  createdAt: string | null;
  token: string | null;
  /** The URL's path on this site (`/api/signal/{token}`), with `token`. */
  path: string | null;
  /** Bodies the webhook refused (unreadable, or not a signal): how many, and the last one's time and reason. */
  refused: number;
  refusedAt: string | null;
  refusedReason: string | null;
}

/** What became of a signal: placed (an order), nothing (nothing to do), ignored (bot not running), refused (bad body), busy, expired, error; received: still being acted on. */
export const signalStatuses = ['received', 'placed', 'nothing', 'ignored', 'refused', 'busy', 'expired', 'error'] as const;

/** One signal a bot's webhook received, newest first. */
export interface BotSignal {
  id: string;
  /** The alert's own id (null: a body refused before one was read). */
  signalId: string | null;
  action: 'buy' | 'sell' | 'close' | null;
  price: string | null;
  amount: string | null;
  note: string | null;
  status: (typeof signalStatuses)[number];
  reason: string | null;
  at: string;
}

/** One line of a bot's action log. `detail` holds the figures; the screen words them. */
export interface BotAction {
  id: string;
  botId: string;
  kind: ActionKind;
  detail: Record<string, string>;
  at: string;
}

export interface BotCount {
  total: number;
  running: number;
  paused: number;
  stopped: number;
}

export interface BatchStatus {
  task_id: string;
  action: BatchOperation;
  status: 'running' | 'done';
  total: number;
  done: number;
  results: { id: string; ok: boolean; code: number; msg: string }[];
}

/** A closed cycle in the profit bill. */
export interface BillLog {
  id: string;
  botId: string;
  botName: string;
  exchange: string;
  symbol: string;
  cycle: number;
  profit: string;
  closedAt: string;
}

export interface BillGroup {
  /** The last 30 days (UTC), oldest first, days without a close included as 0. */
  byDay: { day: string; profit: string }[];
  byBot: { botId: string; botName: string; symbol: string; profit: string }[];
  bySymbol: { symbol: string; profit: string }[];
}

/** An open position across the user's bots (/my/positions). */
export interface OpenPosition {
  botId: string;
  botName: string;
  exchange: string;
  symbol: string;
  status: BotStatus;
  entries: number;
  amount: string;
  cost: string;
  averagePrice: string;
  price: string;
  unrealized: string;
}

/** A line of the all-bots log (GET /api/user/actions): the action with the bot it belongs to. */
export interface BotLogLine extends BotAction {
  botName: string;
  /** The bot's type: a line's title names a DCA bot's orders as base and safety orders. */
  type: BuiltBotType;
  exchange: string;
  symbol: string;
}

/** PnL over time (GET /api/user/pnl): of one bot (id) or of the trader's bots (live or simulation). */
export interface PnlHistory {
  /** Realised profit of the bots' closed cycles (grid: grid profit). */
  realized: string;
  /** Floating PnL at the price now of what the bots hold. */
  unrealized: string;
  total: string;
  /** The investments the bots were set up with (their sum for the account). */
  investment: string;
  roi: string | null;
  apr: string | null;
  runtime: number;
  /** Bots whose price could not be read now: their floating PnL is left out of `unrealized`. */
  unpriced: number;
  days: number;
  /**
   * One point per UTC day of the window, oldest first: that day's realised profit, the running sum (from
   * the first cycle), the floating PnL of the day (today: now; a past day: its snapshots' sum, null without
   * any: before snapshots were taken, or no bot running or holding) and the total PnL of the day (realised +
   * floating; docs/engine.md "Returns").
   */
  points: { day: string; profit: string; cumulative: string; unrealized: string | null; total: string }[];
}

/** A coin of an account, valued in USDT at the price now (null: no USDT price for it). */
export interface PortfolioCoin {
  currency: string;
  free: string;
  total: string;
  price: string | null;
  value: string | null;
}

/** One account of the portfolio: Paper, a simulated account, or a bound exchange. */
export interface PortfolioAccount {
  exchange: string;
  /** paper and simulated hold virtual money (labelled so); live is the trader's exchange account. */
  kind: 'paper' | 'simulated' | 'live';
  /** unavailable: the balance could not be read now (not 0): equity and available are null. */
  status: 'ok' | 'unavailable';
  /** The coins' USDT value (coins without a price left out). */
  equity: string | null;
  /** Free USDT the trader's running and paused bots have not reserved: what a new bot can use. */
  available: string | null;
  /** The coins held, most valuable first (at most 50; `coinCount` has them all). */
  coins: PortfolioCoin[];
  coinCount: number;
}

/** The trader's equity across accounts (GET /api/user/portfolio), USDT at the price now. */
export interface Portfolio {
  /** Real money: the bound live exchanges. */
  live: string;
  /** Virtual money: Paper and the simulated accounts. */
  simulation: string;
  total: string;
  /** Accounts whose balance could not be read (left out of the sums). */
  unavailable: number;
  accounts: PortfolioAccount[];
}
