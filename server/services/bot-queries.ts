import type { ActionKind, BotAction, BotCount, BotDetail, BotInfo, BotOrder, BotPosition, BotStatus, BotSummary, BuiltBotType, GridLevels } from '../../contract/bots.ts';
import { syncProblemSchema } from '../../contract/bots.ts';
import type { OpenPosition } from '../../contract/returns.ts';
import type { Page } from '../../contract/envelope.ts';
import type { Db } from '../db/connect.ts';
import { money } from '../../strategy/money.ts';
import { kitOf } from '../../strategy/kit.ts';
import { type Bot, type BotRow, findOwnBot, isOwnBotEver } from '../store/bot-rows.ts';
import { countOwnBotsByStatus, pageHoldingBots, pageOwnBots } from '../store/bot-lists.ts';
import { firstFilledOrder, ordersOfCycle } from '../store/bot-orders.ts';
import { type SlotState, slotStates } from '../store/resting-orders.ts';
import { pageBotActions, startStopRows } from '../store/bot-actions.ts';
import { type MarketInfo, WOULD_CROSS } from '../exchanges/port.ts';
import type Decimal from 'decimal.js';
import { exchangeByCode, exchangeById, SIMULATED_EXCHANGE_IDS } from '../exchanges/catalog.ts';
import type { MarketData } from '../trading.ts';
import { fail } from '../errors.ts';
import { returnsOf, runtimeOf } from '../../strategy/returns.ts';

const plain = (x: string | null | undefined) => (x === null || x === undefined ? null : money(x).toFixed());
const iso = (d: Date | string) => new Date(d).toISOString();
const startOfTodayUtc = () => new Date(`${new Date().toISOString().slice(0, 10)}T00:00:00Z`);

function pageOf<T>(list: T[], total: number, page: number, pageSize: number): Page<T> {
  return { list, total, page, page_size: pageSize };
}

/** Any bot's parameters as its form sends them. */
export function inputParamsOf(type: string, params: unknown): BotInfo['params'] {
  return kitOf(type).input(params) as BotInfo['params'];
}

/** A bot's figures that need the market or its log: the floating PnL now and the runtime. */
export interface Standing {
  unrealized: string | null;
  runtime: number;
  startedAt: string | null;
}

/** The returns fields of a bot (docs/engine.md "Returns: ROI and APR"). */
function returnsFields(row: Bot, standing: Standing) {
  const investment = row.fields.investment;
  const r = standing.unrealized === null ? null : returnsOf({ realized: row.realized, unrealized: standing.unrealized, investment, runtimeSeconds: standing.runtime });
  return { unrealized: standing.unrealized, totalProfit: r?.total ?? null, roi: r?.roi ?? null, apr: r?.apr ?? null, runtime: standing.runtime, startedAt: standing.startedAt };
}

function summaryOf(row: Bot, today: string, standing: Standing, ai?: AiRow): BotSummary {
  const held = kitOf(row.type).held(row.params, row.state);
  return {
    ...summaryBase(row, today),
    ...returnsFields(row, standing),
    ...(ai ? { ai: { risk: ai.risk, tunedAt: iso(ai.tuned_at) } } : {}),
    type: row.type as BuiltBotType,
    cycle: held.cycle,
    positions: held.entries,
    maxPositions: held.maxEntries,
    invested: held.cost.toFixed(),
    investment: row.fields.investment,
    averagePrice: held.average?.toFixed() ?? null,
  };
}

function summaryBase(row: Bot, today: string) {
  return {
    id: String(row.id),
    name: row.name,
    exchangeId: row.exchange_id,
    exchange: exchangeById(row.exchange_id)?.code ?? 'unknown',
    symbol: row.symbol,
    status: row.status,
    profit: money(row.realized).toFixed(),
    todayProfit: money(today).toFixed(),
    pending: row.fields.pending !== null,
    error: row.error,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}

type AiRow = { bot_id: string; risk: 'conservative' | 'balanced' | 'aggressive'; tuned_at: Date };

/** The AI bots among `ids`, by id. */
async function aiRows(db: Db, ids: string[]): Promise<Map<string, AiRow>> {
  if (ids.length === 0) return new Map();
  const rows = await db.selectFrom('ai_bots').selectAll().where('bot_id', 'in', ids).execute();
  return new Map(rows.map((r) => [String(r.bot_id), r]));
}

async function todayProfits(db: Db, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('bot_cycles')
    .select(['bot_id', (eb) => eb.fn.sum<string>('profit').as('profit')])
    .where('bot_id', 'in', ids)
    .where('closed_at', '>=', startOfTodayUtc())
    .groupBy('bot_id')
    .execute();
  return new Map(rows.map((r) => [String(r.bot_id), String(r.profit)]));
}

/**
 * The floating PnL of what a bot holds at the price now, net of the sell fee: a martin bot's open
 * cycle, a grid's base on its sell levels. '0' when it holds nothing (no price needed); null when the
 * price or the market's rules cannot be read now (or not within 3 s).
 */
export async function floatingOf(trading: MarketData, row: Pick<BotRow, 'type' | 'params' | 'state' | 'exchange_id' | 'symbol'>, waitMs = FLOATING_WAIT_MS): Promise<string | null> {
  // A slow exchange leaves the figure out (null) rather than holding up the whole list.
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), waitMs);
  });
  return Promise.race([floatingNow(trading, row), late]).finally(() => clearTimeout(timer));
}

/** How long a bot's floating PnL may wait for its exchange's price and rules. */
const FLOATING_WAIT_MS = 3_000;

async function floatingNow(trading: MarketData, row: Pick<BotRow, 'type' | 'params' | 'state' | 'exchange_id' | 'symbol'>): Promise<string | null> {
  const kit = kitOf(row.type);
  if (kit.held(row.params, row.state).entries === 0) return '0';
  const exchange = exchangeById(row.exchange_id)?.code ?? 'unknown';
  return (await valued(trading, exchange, row.symbol, (m, now) => kit.floating(row.state, m, now).toFixed()))?.unrealized ?? null;
}

/** Each bot's first start and last stop (ms), from its log. */
export async function startsAndStops(db: Db, ids: string[]): Promise<Map<string, { first: number | null; lastStop: number | null }>> {
  if (ids.length === 0) return new Map();
  const rows = await startStopRows(db, { botIds: ids });
  const ms = (x: Date | string | null) => (x === null ? null : new Date(x).getTime());
  return new Map(rows.map((r) => [String(r.bot_id), { first: ms(r.first), lastStop: ms(r.stop) }]));
}

/** The market- and log-dependent figures of the given bots, by id. */
export async function standings(db: Db, trading: MarketData, rows: BotRow[], now = Date.now()): Promise<Map<string, Standing>> {
  const runs = await startsAndStops(
    db,
    rows.map((r) => String(r.id)),
  );
  const out = new Map<string, Standing>();
  await Promise.all(
    rows.map(async (row) => {
      const run = runs.get(String(row.id));
      const first = run?.first ?? null;
      out.set(String(row.id), {
        unrealized: await floatingOf(trading, row),
        runtime: runtimeOf(first, run?.lastStop ?? null, row.status === 'stopped', now),
        startedAt: first === null ? null : new Date(first).toISOString(),
      });
    }),
  );
  return out;
}

async function ownBot(db: Db, userId: string, id: string): Promise<Bot> {
  const row = await findOwnBot(db, { userId, id });
  if (!row) throw fail('StrategyNotFound');
  return row;
}

/** Live and simulated (Paper) bots are listed apart: the mode as the store filters by it. */
const modeFilter = (mode: 'live' | 'simulation' | undefined) => (mode ? { simulatedIds: SIMULATED_EXCHANGE_IDS, simulation: mode === 'simulation' } : undefined);

/** The id of a filter's exchange code (none: no filter); an unknown code is refused. */
function exchangeIdOf(code: string | undefined): number | undefined {
  if (!code) return undefined;
  const ex = exchangeByCode(code);
  if (!ex) throw fail('ApiExchangeUnsupported');
  return ex.id;
}

/** botList: the user's bots, newest first, filtered by exchange and status. */
export async function listBots(
  db: Db,
  trading: MarketData,
  userId: string,
  filter: { page: number; pageSize: number; exchange?: string | undefined; status?: BotStatus | undefined; mode?: 'live' | 'simulation' | undefined; type?: BuiltBotType | undefined },
): Promise<Page<BotSummary>> {
  const { rows, total } = await pageOwnBots(db, {
    userId,
    filter: { mode: modeFilter(filter.mode), exchangeId: exchangeIdOf(filter.exchange), status: filter.status, type: filter.type },
    limit: filter.pageSize,
    offset: (filter.page - 1) * filter.pageSize,
  });
  const ids = rows.map((r) => String(r.id));
  const [today, ai, standing] = await Promise.all([todayProfits(db, ids), aiRows(db, ids), standings(db, trading, rows)]);
  return pageOf(
    rows.map((r) => summaryOf(r, today.get(String(r.id)) ?? '0', standing.get(String(r.id))!, ai.get(String(r.id)))),
    total,
    filter.page,
    filter.pageSize,
  );
}

export async function countBots(db: Db, userId: string, exchange?: string, mode?: 'live' | 'simulation', type?: BuiltBotType): Promise<BotCount> {
  const counts: BotCount = { total: 0, running: 0, paused: 0, stopped: 0 };
  for (const r of await countOwnBotsByStatus(db, { userId, filter: { mode: modeFilter(mode), exchangeId: exchangeIdOf(exchange), type } })) {
    counts[r.status] = r.n;
    counts.total += r.n;
  }
  return counts;
}

export async function botInfo(db: Db, trading: MarketData, userId: string, id: string): Promise<BotInfo> {
  const row = await ownBot(db, userId, id);
  const [today, ai, standing] = await Promise.all([todayProfits(db, [id]), aiRows(db, [id]), standings(db, trading, [row])]);
  const params = inputParamsOf(row.type, row.params);
  return { ...summaryOf(row, today.get(id) ?? '0', standing.get(id)!, ai.get(id)), params };
}

/** botDetail: the bot with the market now, its trigger prices and its plan, and its ROI on the funds it used. */
export async function botDetail(db: Db, trading: MarketData, userId: string, id: string): Promise<BotDetail> {
  const row = await ownBot(db, userId, id);
  const [detail, peak, health] = await Promise.all([
    detailOf(db, trading, userId, id, row),
    db
      .selectFrom('bot_cycles')
      .select((eb) => eb.fn.max<string | null>('cost').as('cost'))
      .where('bot_id', '=', id)
      .where('user_id', '=', userId)
      .executeTakeFirst(),
    // Its exchange account out of reach (engine/account-health.ts): since when.
    db.selectFrom('account_health').select('down_since').where('user_id', '=', userId).where('exchange_id', '=', row.exchange_id).executeTakeFirst(),
  ]);
  const problem = syncProblemSchema.safeParse(row.sync_problem).data ?? null;
  return {
    ...detail,
    ...(kitOf(row.type).commitsBudget ? { usedFunds: null, usedRoi: null } : usedFunds(detail, peak?.cost ?? null)),
    sync: { at: row.synced_at ? row.synced_at.toISOString() : null, problem, unreachableSince: health?.down_since ? health.down_since.toISOString() : null },
  };
}

/**
 * The funds a bot actually used, beside the budget it was given: the most quote one of its cycles spent
 * (its closed cycles' costs and the open one's), and its total PnL in percent of that (4 decimals). A
 * martin, DCA or custom bot that never reached its deepest add used less than its budget, and its ROI on
 * the budget understates what the money it used earned. A bot that commits its whole budget at the start
 * (a grid: the start buy and the buy levels it reserves) has its ROI on the budget alone (kit.commitsBudget).
 */
function usedFunds(detail: Pick<BotDetail, 'invested' | 'totalProfit'>, peakCycle: string | null): { usedFunds: string | null; usedRoi: string | null } {
  const open = money(detail.invested);
  const peak = peakCycle !== null && money(peakCycle).gt(open) ? money(peakCycle) : open;
  if (peak.lte(0)) return { usedFunds: null, usedRoi: null };
  return { usedFunds: peak.toFixed(), usedRoi: money(detail.totalProfit).div(peak).mul(100).toDecimalPlaces(4).toFixed() };
}

async function detailOf(db: Db, trading: MarketData, userId: string, id: string, row: Bot): Promise<Omit<BotDetail, 'usedFunds' | 'usedRoi' | 'sync'>> {
  const code = exchangeById(row.exchange_id)?.code ?? 'unknown';
  const market = await trading.market(code, row.symbol);
  // The detail reads the price itself: its floating PnL is at that price. An exchange that does not
  // answer: at the last price read, said so (the trader still sees the bot, and can pause or stop it);
  // none read yet: the error.
  let price: Decimal;
  let priceAt: string | null = null;
  try {
    price = money(await trading.prices.price(code, row.symbol));
  } catch (error) {
    const last = await trading.lastPrice(code, row.symbol);
    if (!last) throw error;
    price = money(last.price);
    priceAt = new Date(last.at).toISOString();
  }
  const info = await botInfo(db, trading, userId, id);
  const withReturns = (unrealized: string) =>
    ({ ...info, ...returnsFields(row, { unrealized, runtime: info.runtime, startedAt: info.startedAt }) }) as BotInfo & { unrealized: string; totalProfit: string };
  const kit = kitOf(row.type);
  const view = kit.view(row.params, market);
  const kitDetail = kit.detail(kit.decode(id, row.state, view), view, price);
  const slots = await slotStates(db, { botId: id });
  if (kitDetail.grid) kitDetail.grid = { ...kitDetail.grid, levels: withOrders(kitDetail.grid.levels, slots) };
  const resting = kitDetail.grid ? [] : restingShown(slots);
  return { ...withReturns(kitDetail.unrealized), price: price.toFixed(), priceAt, ...kitDetail, ...(resting.length > 0 ? { resting } : {}) };
}

/** What each phase of a level's latest resting order shows (an order that ended shows nothing). */
const shownAs: Partial<Record<SlotState['status'], 'resting' | 'placing' | 'cancelling' | 'unknown' | 'refused'>> = {
  new: 'placing',
  submitted: 'placing',
  open: 'resting',
  partially_filled: 'resting',
  pending_cancel: 'cancelling',
  lost: 'unknown',
  rejected: 'refused',
};

/** A grid's levels with their orders on the exchange (the grid's slot of level i is "L{i}": strategy/grid/resting.ts). */
function withOrders(levels: GridLevels['levels'], slots: Map<string, SlotState>): GridLevels['levels'] {
  // Never rested (its orders go at market when the price crosses a level): nothing to show per level.
  if (slots.size === 0) return levels;
  return levels.map((level) => {
    const order = shownOrder(slots.get(`L${level.index}`));
    // A refusal is about a level that still wants its order: an empty level shows nothing but a cancel.
    if (!order || (level.side === null && order.state !== 'cancelling')) return { ...level, order: null };
    return { ...level, order };
  });
}

/** A martin or DCA bot's add and take profit on the exchange: the latest order of each slot that still stands or was refused. */
function restingShown(slots: Map<string, SlotState>): NonNullable<BotDetail['resting']> {
  return (['add', 'take_profit'] as const).flatMap((slot) => {
    const order = slots.get(slot);
    const shown = shownOrder(order);
    if (!shown || !order?.price || !order.amount) return [];
    return [{ slot, side: slot === 'add' ? ('buy' as const) : ('sell' as const), price: order.price, amount: order.amount, ...shown }];
  });
}

/**
 * A slot's latest order as the screens show it, with the venue's reason when refused; null when it ended,
 * or when the venue refused a maker order the price had passed (its slot trades at market then: no fault).
 */
function shownOrder(slot: SlotState | undefined): { state: NonNullable<(typeof shownAs)[SlotState['status']]>; reason: string | null } | null {
  const state = slot ? shownAs[slot.status] : undefined;
  if (!slot || !state || (state === 'refused' && slot.reason === WOULD_CROSS)) return null;
  return { state, reason: state === 'refused' ? slot.reason : null };
}

/** botPositions: the open cycle first (when there is one), then the closed cycles, newest first. */
export async function botPositions(db: Db, userId: string, id: string, page: number, pageSize: number): Promise<Page<BotPosition>> {
  const row = await ownBot(db, userId, id);
  const held = kitOf(row.type).held(row.params, row.state);
  const open: BotPosition[] = [];
  if (held.entries > 0) {
    // When the cycle opened: its first filled order (a grid files each level's buy under the cycle of its next sale).
    const first = await firstFilledOrder(db, { botId: id, cycle: held.cycle });
    open.push({
      cycle: held.cycle,
      status: 'open',
      entries: held.entries,
      amount: held.amount.toFixed(),
      cost: held.cost.toFixed(),
      averagePrice: held.average?.toFixed() ?? null,
      closePrice: null,
      profit: null,
      openedAt: first ? iso(first.updated_at) : null,
      closedAt: null,
    });
  }
  const skip = (page - 1) * pageSize;
  const fromOpen = open.slice(skip, skip + pageSize);
  const closedSkip = Math.max(0, skip - open.length);
  const closedTake = pageSize - fromOpen.length;
  const [rows, count] = await Promise.all([
    db.selectFrom('bot_cycles').selectAll().where('bot_id', '=', id).orderBy('cycle', 'desc').limit(closedTake).offset(closedSkip).execute(),
    db
      .selectFrom('bot_cycles')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('bot_id', '=', id)
      .executeTakeFirstOrThrow(),
  ]);
  const closed: BotPosition[] = rows.map((c) => ({
    cycle: c.cycle,
    status: 'closed',
    entries: c.entries,
    amount: money(c.amount).toFixed(),
    cost: money(c.cost).toFixed(),
    averagePrice: money(c.amount).isZero() ? null : money(c.cost).div(c.amount).toDecimalPlaces(12).toFixed(),
    closePrice: money(c.close_price).toFixed(),
    profit: money(c.profit).toFixed(),
    openedAt: c.opened_at ? iso(c.opened_at) : null,
    closedAt: iso(c.closed_at),
  }));
  return pageOf([...fromOpen, ...(closedTake > 0 ? closed : [])], open.length + Number(count.n), page, pageSize);
}

/** positionAdds: the orders of a cycle (the open one by default), in order. */
export async function positionAdds(db: Db, userId: string, id: string, cycle?: number): Promise<BotOrder[]> {
  const row = await ownBot(db, userId, id);
  const which = cycle ?? kitOf(row.type).held(row.params, row.state).cycle;
  const rows = await ordersOfCycle(db, { botId: id, cycle: which });
  return rows.map((o) => ({
    clientOrderId: o.client_order_id,
    cycle: o.cycle,
    seq: o.seq,
    side: o.side,
    reason: o.reason as BotOrder['reason'],
    status: o.status,
    price: plain(o.price),
    amount: plain(o.filled ?? o.amount),
    cost: plain(o.cost ?? o.quote),
    fee: plain(o.fee),
    feeCurrency: o.fee_currency,
    at: iso(o.updated_at),
  }));
}

/** botActions: the bot's log, newest first. */
export async function botActions(db: Db, userId: string, id: string, page: number, pageSize: number): Promise<Page<BotAction>> {
  if (!(await isOwnBotEver(db, { userId, id }))) throw fail('StrategyNotFound');
  const { rows, total } = await pageBotActions(db, { botId: id, limit: pageSize, offset: (page - 1) * pageSize });
  const list = rows.map((a) => ({ id: String(a.id), botId: String(a.bot_id), kind: a.kind as ActionKind, detail: a.detail, at: iso(a.created_at) }));
  return pageOf(list, total, page, pageSize);
}

/** The price now and what a position would make at it; unvalued ('0') when the exchange cannot be reached. */
async function valued(trading: MarketData, exchange: string, symbol: string, unrealizedAt: (market: MarketInfo, price: Decimal) => string): Promise<{ price: string; unrealized: string } | null> {
  try {
    const market = await trading.market(exchange, symbol);
    const now = money(await trading.prices.price(exchange, symbol));
    return { price: now.toFixed(), unrealized: unrealizedAt(market, now) };
  } catch {
    return null;
  }
}
const unvalued = { price: '0', unrealized: '0' };

/** user/positions: the open positions of the user's bots, valued at the price now. */
export async function openPositions(db: Db, trading: MarketData, userId: string, page: number, pageSize: number): Promise<Page<OpenPosition>> {
  const { rows, total } = await pageHoldingBots(db, { userId, limit: pageSize, offset: (page - 1) * pageSize });
  const list: OpenPosition[] = [];
  for (const row of rows) {
    const exchange = exchangeById(row.exchange_id)?.code ?? 'unknown';
    const kit = kitOf(row.type);
    const held = kit.held(row.params, row.state);
    const value = (await valued(trading, exchange, row.symbol, (m, now) => kit.floating(row.state, m, now).toFixed())) ?? unvalued;
    list.push({
      botId: String(row.id),
      botName: row.name,
      exchange,
      symbol: row.symbol,
      status: row.status,
      entries: held.entries,
      amount: held.amount.toFixed(),
      cost: held.cost.toFixed(),
      averagePrice: (held.average ?? money(0)).toFixed(),
      ...value,
    });
  }
  return pageOf(list, total, page, pageSize);
}
