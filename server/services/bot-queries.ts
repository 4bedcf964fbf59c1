import { sql, type Selectable } from 'kysely';
import type {
  ActionKind,
  BotAction,
  BotCount,
  BotDetail,
  BotInfo,
  BotOrder,
  BotPosition,
  BotStatus,
  BotSummary,
  BuiltBotType,
  CustomParamsInput,
  DcaParamsInput,
  MartinParamsInput,
  OpenPosition,
} from '../../contract/bots.ts';
import type { Page } from '../../contract/envelope.ts';
import type { Db } from '../db/connect.ts';
import type { BotsTable } from '../db/schema.ts';
import { money } from '../../strategy/money.ts';
import { averagePrice, closeCycle, floatingPnl, planLevels } from '../../strategy/martin/plan.ts';
import type { MartinParams } from '../../strategy/martin/rules.ts';
import { decodeMartin, type StoredMartinState } from '../../strategy/martin/state-codec.ts';
import { martinLines } from '../../strategy/martin/strategy.ts';
import type { GridParams } from '../../strategy/grid/rules.ts';
import type { StoredGridState } from '../../strategy/grid/state-codec.ts';
import type { DcaParams } from '../../strategy/dca/rules.ts';
import { planDeal } from '../../strategy/dca/plan.ts';
import { decodeDca, type StoredDcaState } from '../../strategy/dca/state-codec.ts';
import { dcaStop, dcaTrailing } from '../../strategy/dca/strategy.ts';
import type { CustomParams } from '../../strategy/custom/rules.ts';
import { decodeCustom, type StoredCustomState } from '../../strategy/custom/state-codec.ts';
import { customLines } from '../../strategy/custom/strategy.ts';
import { gridDetail, gridHeld, gridInputParams, gridSummaryFields, gridUnrealized } from './grid-queries.ts';
import type { MarketInfo } from '../exchanges/port.ts';
import type Decimal from 'decimal.js';
import { exchangeByCode, exchangeById, SIMULATED_EXCHANGE_IDS } from '../exchanges/catalog.ts';
import type { Trading } from '../trading.ts';
import { fail } from '../errors.ts';
import { returnsOf, runtimeOf } from '../../strategy/returns.ts';

type BotRow = Selectable<BotsTable>;

const plain = (x: string | null | undefined) => (x === null || x === undefined ? null : money(x).toFixed());
const iso = (d: Date | string) => new Date(d).toISOString();
const startOfTodayUtc = () => new Date(`${new Date().toISOString().slice(0, 10)}T00:00:00Z`);

function pageOf<T>(list: T[], total: number, page: number, pageSize: number): Page<T> {
  return { list, total, page, page_size: pageSize };
}

export function inputParams(params: MartinParams): MartinParamsInput {
  return { ...params, stopLoss: params.stopLoss ?? '' };
}

/** A DCA bot's parameters as its form sends them (no stop loss or trailing: '', no trailing stop: false, no cooldown: 0). */
export function dcaInputParams(params: DcaParams): DcaParamsInput {
  return { ...params, stopLoss: params.stopLoss ?? '', trailingDeviation: params.trailingDeviation ?? '', trailingStop: params.trailingStop ?? false, cooldown: params.cooldown ?? 0 };
}

/** A custom bot's parameters as its form sends them (no take profit or stop loss: '', no exit rule: null). */
export function customInputParams(params: CustomParams): CustomParamsInput {
  return { ...params, exit: params.exit ?? null, takeProfit: params.takeProfit ?? '', stopLoss: params.stopLoss ?? '' };
}

/** Any bot's parameters as its form sends them. */
export function inputParamsOf(type: string, params: unknown): BotInfo['params'] {
  if (type === 'grid') return gridInputParams(params as GridParams);
  if (type === 'dca') return dcaInputParams(params as DcaParams);
  if (type === 'custom') return customInputParams(params as CustomParams);
  return inputParams(params as MartinParams);
}

/** The figures of the open cycle from the stored state, without the market. */
function cycleFigures(state: StoredMartinState) {
  let cost = money(0);
  let amount = money(0);
  for (const f of state.fills) {
    cost = cost.plus(money(f.price).mul(f.amount));
    amount = amount.plus(f.amount);
  }
  return { cost, average: amount.isZero() ? null : cost.div(amount) };
}

/** A bot's figures that need the market or its log: the floating PnL now and the runtime. */
export interface Standing {
  unrealized: string | null;
  runtime: number;
  startedAt: string | null;
}

/** The returns fields of a bot (docs/engine.md "Returns: ROI and APR"). */
function returnsFields(row: BotRow, standing: Standing) {
  const investment = (row.params as { investment: string }).investment;
  const r = standing.unrealized === null ? null : returnsOf({ realized: row.realized, unrealized: standing.unrealized, investment, runtimeSeconds: standing.runtime });
  return { unrealized: standing.unrealized, totalProfit: r?.total ?? null, roi: r?.roi ?? null, apr: r?.apr ?? null, runtime: standing.runtime, startedAt: standing.startedAt };
}

function summaryOf(row: BotRow, today: string, standing: Standing, ai?: AiRow): BotSummary {
  const base = { ...summaryBase(row, today, row.state as { pending: unknown }), ...returnsFields(row, standing), ...(ai ? { ai: { risk: ai.risk, tunedAt: iso(ai.tuned_at) } } : {}) };
  if (row.type === 'grid') {
    const state = row.state as StoredGridState;
    return { ...base, type: 'grid', ...gridSummaryFields(row.params as GridParams, state) };
  }
  const state = row.state as StoredMartinState;
  const params = row.params as MartinParams;
  const { cost, average } = cycleFigures(state);
  // A DCA deal's buys are fills, as martin's: the base order and up to maxSafetyOrders safety orders.
  const dca = row.type === 'dca' ? (row.params as DcaParams) : null;
  // A custom bot's position too: one entry (more only by hand).
  const custom = row.type === 'custom';
  return {
    ...base,
    type: dca ? 'dca' : custom ? 'custom' : 'martin',
    cycle: state.cycle,
    positions: state.fills.length,
    maxPositions: dca ? dca.maxSafetyOrders + 1 : custom ? Math.max(1, state.fills.length) : params.maxPositions,
    invested: cost.toFixed(),
    investment: params.investment,
    averagePrice: average ? average.toDecimalPlaces(12).toFixed() : null,
  };
}

function summaryBase(row: BotRow, today: string, state: { pending: unknown }) {
  return {
    id: String(row.id),
    name: row.name,
    exchangeId: row.exchange_id,
    exchange: exchangeById(row.exchange_id)?.code ?? 'unknown',
    symbol: row.symbol,
    status: row.status,
    profit: money(row.realized).toFixed(),
    todayProfit: money(today).toFixed(),
    pending: state.pending !== null,
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
export async function floatingOf(trading: Trading, row: Pick<BotRow, 'type' | 'state' | 'exchange_id' | 'symbol'>, waitMs = FLOATING_WAIT_MS): Promise<string | null> {
  // A slow exchange leaves the figure out (null) rather than holding up the whole list.
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), waitMs);
  });
  return Promise.race([floatingNow(trading, row), late]).finally(() => clearTimeout(timer));
}

/** How long a bot's floating PnL may wait for its exchange's price and rules. */
const FLOATING_WAIT_MS = 3_000;

async function floatingNow(trading: Trading, row: Pick<BotRow, 'type' | 'state' | 'exchange_id' | 'symbol'>): Promise<string | null> {
  const exchange = exchangeById(row.exchange_id)?.code ?? 'unknown';
  if (row.type === 'grid') {
    const held = gridHeld(row.state as StoredGridState);
    if (held.amount.isZero()) return '0';
    return (await valued(trading, exchange, row.symbol, (m, now) => gridUnrealized(held, now, m.feeRate)))?.unrealized ?? null;
  }
  const state = row.state as StoredMartinState;
  if (!Array.isArray(state.fills) || state.fills.length === 0) return '0';
  const fills = state.fills.map((f) => ({ price: money(f.price), amount: money(f.amount) }));
  return (
    (await valued(trading, exchange, row.symbol, (m, now) => floatingPnl(fills, now, m, { amount: money(state.carry ?? '0'), cost: money(state.carryCost ?? '0') }).toFixed()))?.unrealized ?? null
  );
}

/** Each bot's first start and last stop (ms), from its log. */
export async function startsAndStops(db: Db, ids: string[]): Promise<Map<string, { first: number | null; lastStop: number | null }>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('bot_actions')
    .select(['bot_id', sql<Date | string | null>`min(created_at) filter (where kind = 'start')`.as('first'), sql<Date | string | null>`max(created_at) filter (where kind = 'stop')`.as('stop')])
    .where('bot_id', 'in', ids)
    .where('kind', 'in', ['start', 'stop'])
    .groupBy('bot_id')
    .execute();
  const ms = (x: Date | string | null) => (x === null ? null : new Date(x).getTime());
  return new Map(rows.map((r) => [String(r.bot_id), { first: ms(r.first), lastStop: ms(r.stop) }]));
}

/** The market- and log-dependent figures of the given bots, by id. */
export async function standings(db: Db, trading: Trading, rows: BotRow[], now = Date.now()): Promise<Map<string, Standing>> {
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

async function ownBot(db: Db, userId: string, id: string): Promise<BotRow> {
  const row = await db.selectFrom('bots').selectAll().where('id', '=', id).where('user_id', '=', userId).where('deleted_at', 'is', null).executeTakeFirst();
  if (!row) throw fail('StrategyNotFound');
  return row;
}

/** botList: the user's bots, newest first, filtered by exchange and status. */
export async function listBots(
  db: Db,
  trading: Trading,
  userId: string,
  filter: { page: number; pageSize: number; exchange?: string | undefined; status?: BotStatus | undefined; mode?: 'live' | 'simulation' | undefined; type?: BuiltBotType | undefined },
): Promise<Page<BotSummary>> {
  let q = db.selectFrom('bots').where('user_id', '=', userId).where('deleted_at', 'is', null);
  // Live and simulated (Paper) bots are listed apart.
  if (filter.mode) q = q.where('exchange_id', filter.mode === 'simulation' ? 'in' : 'not in', SIMULATED_EXCHANGE_IDS);
  if (filter.exchange) {
    const ex = exchangeByCode(filter.exchange);
    if (!ex) throw fail('ApiExchangeUnsupported');
    q = q.where('exchange_id', '=', ex.id);
  }
  if (filter.status) q = q.where('status', '=', filter.status);
  if (filter.type) q = q.where('type', '=', filter.type);
  const [rows, count] = await Promise.all([
    q
      .selectAll()
      .orderBy('id', 'desc')
      .limit(filter.pageSize)
      .offset((filter.page - 1) * filter.pageSize)
      .execute(),
    q.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
  ]);
  const ids = rows.map((r) => String(r.id));
  const [today, ai, standing] = await Promise.all([todayProfits(db, ids), aiRows(db, ids), standings(db, trading, rows)]);
  return pageOf(
    rows.map((r) => summaryOf(r, today.get(String(r.id)) ?? '0', standing.get(String(r.id))!, ai.get(String(r.id)))),
    Number(count.n),
    filter.page,
    filter.pageSize,
  );
}

export async function countBots(db: Db, userId: string, exchange?: string, mode?: 'live' | 'simulation', type?: BuiltBotType): Promise<BotCount> {
  let q = db
    .selectFrom('bots')
    .select(['status', (eb) => eb.fn.countAll<string>().as('n')])
    .where('user_id', '=', userId)
    .where('deleted_at', 'is', null);
  if (mode) q = q.where('exchange_id', mode === 'simulation' ? 'in' : 'not in', SIMULATED_EXCHANGE_IDS);
  if (exchange) {
    const ex = exchangeByCode(exchange);
    if (!ex) throw fail('ApiExchangeUnsupported');
    q = q.where('exchange_id', '=', ex.id);
  }
  if (type) q = q.where('type', '=', type);
  const counts: BotCount = { total: 0, running: 0, paused: 0, stopped: 0 };
  for (const r of await q.groupBy('status').execute()) {
    counts[r.status] = Number(r.n);
    counts.total += Number(r.n);
  }
  return counts;
}

export async function botInfo(db: Db, trading: Trading, userId: string, id: string): Promise<BotInfo> {
  const row = await ownBot(db, userId, id);
  const [today, ai, standing] = await Promise.all([todayProfits(db, [id]), aiRows(db, [id]), standings(db, trading, [row])]);
  const params = inputParamsOf(row.type, row.params);
  return { ...summaryOf(row, today.get(id) ?? '0', standing.get(id)!, ai.get(id)), params };
}

/** botDetail: the bot with the market now, its trigger prices and its plan, and its ROI on the funds it used. */
export async function botDetail(db: Db, trading: Trading, userId: string, id: string): Promise<BotDetail> {
  const row = await ownBot(db, userId, id);
  const [detail, peak] = await Promise.all([
    detailOf(db, trading, userId, id, row),
    db
      .selectFrom('bot_cycles')
      .select((eb) => eb.fn.max<string | null>('cost').as('cost'))
      .where('bot_id', '=', id)
      .where('user_id', '=', userId)
      .executeTakeFirst(),
  ]);
  return { ...detail, ...usedFunds(row.type, detail, peak?.cost ?? null) };
}

/**
 * The funds a bot actually used, beside the budget it was given: the most quote one of its cycles spent
 * (its closed cycles' costs and the open one's), and its total PnL in percent of that (4 decimals). A
 * martin, DCA or custom bot that never reached its deepest add used less than its budget, and its ROI on
 * the budget understates what the money it used earned. A grid commits its whole investment at the start
 * (the start buy and the buy levels it reserves): its ROI is on the budget alone (null here).
 */
function usedFunds(type: string, detail: Pick<BotDetail, 'invested' | 'totalProfit'>, peakCycle: string | null): { usedFunds: string | null; usedRoi: string | null } {
  if (type === 'grid') return { usedFunds: null, usedRoi: null };
  const open = money(detail.invested);
  const peak = peakCycle !== null && money(peakCycle).gt(open) ? money(peakCycle) : open;
  if (peak.lte(0)) return { usedFunds: null, usedRoi: null };
  return { usedFunds: peak.toFixed(), usedRoi: money(detail.totalProfit).div(peak).mul(100).toDecimalPlaces(4).toFixed() };
}

async function detailOf(db: Db, trading: Trading, userId: string, id: string, row: BotRow): Promise<Omit<BotDetail, 'usedFunds' | 'usedRoi'>> {
  const market = await trading.market(exchangeById(row.exchange_id)?.code ?? 'unknown', row.symbol);
  const price = money(await trading.prices.price(exchangeById(row.exchange_id)?.code ?? 'unknown', row.symbol));
  const info = await botInfo(db, trading, userId, id);
  // The detail reads the price itself (a failure answers the error): its floating PnL is at that price.
  const withReturns = (unrealized: string) =>
    ({ ...info, ...returnsFields(row, { unrealized, runtime: info.runtime, startedAt: info.startedAt }) }) as BotInfo & { unrealized: string; totalProfit: string };
  if (row.type === 'grid') {
    const grid = gridDetail(row.params as GridParams, row.state as StoredGridState, market, price);
    return { ...withReturns(grid.unrealized), price: price.toFixed(), fills: [], levels: [], ...grid };
  }
  if (row.type === 'dca') return dcaDetail(row, market, price, withReturns);
  if (row.type === 'custom') return customDetail(row, market, price, withReturns);
  const view = { params: row.params as MartinParams, market };
  const state = decodeMartin(id, row.state as StoredMartinState, view);
  const holding = state.fills.length > 0;
  const trail = holding ? martinLines(state, view) : null;
  const close = holding ? closeCycle(state.fills, price, market, { amount: state.carry, cost: state.carryCost }) : null;
  const start = holding ? state.fills[0]!.price : price;
  const unrealized = holding ? floatingPnl(state.fills, price, market, { amount: state.carry, cost: state.carryCost }).toFixed() : '0';
  return {
    ...withReturns(unrealized),
    price: price.toFixed(),
    amount: close ? close.sellAmount.toFixed() : '0',
    // What the last close left below the step: carried into this cycle's sale (sold with it once it adds up to a step).
    dust: state.carry.toFixed(),
    unrealized,
    takeProfitPrice: state.targets?.takeProfit.toFixed() ?? null,
    // The trailing exits' lines as the engine acts on them (a trailing stop moves the stop loss; no add while armed).
    stopLossPrice: (trail ? trail.stop : state.targets?.stopLoss)?.toFixed() ?? null,
    nextAddPrice: (trail ? trail.nextAdd : state.targets?.nextAdd)?.toFixed() ?? null,
    ...(trail?.armed ? { trailing: { high: trail.armed.high.toFixed(), price: trail.armed.line.toFixed() } } : {}),
    averagePrice: holding
      ? averagePrice(state.fills)
          .toDecimalPlaces(market.tickSize.decimalPlaces() + 4)
          .toFixed()
      : null,
    fills: state.fills.map((f) => ({ price: f.price.toFixed(), amount: f.amount.toFixed() })),
    close: {
      carry: state.carry.toFixed(),
      carryCost: state.carryCost.toFixed(),
      tickSize: market.tickSize.toFixed(),
      stepSize: market.stepSize.toFixed(),
      minAmount: market.minAmount.toFixed(),
      minCost: market.minCost.toFixed(),
      feeRate: market.feeRate.toFixed(),
    },
    levels: planLevels(view.params, market, start).map((l) => ({ index: l.index, price: l.price.toFixed(), quote: l.quote.toFixed(), amount: l.amount.toFixed() })),
  };
}

/** A DCA bot's detail: its deal's figures as martin's, the next safety order as the next add, the planned deal as the levels. */
function dcaDetail(
  row: BotRow,
  market: MarketInfo,
  price: Decimal,
  withReturns: (unrealized: string) => BotInfo & { unrealized: string; totalProfit: string },
): Omit<BotDetail, 'usedFunds' | 'usedRoi'> {
  const params = row.params as DcaParams;
  const state = decodeDca(String(row.id), row.state as StoredDcaState, { params, market });
  const holding = state.fills.length > 0;
  const armed = dcaTrailing(state, { params, market });
  const close = holding ? closeCycle(state.fills, price, market, { amount: state.carry, cost: state.carryCost }) : null;
  const unrealized = holding ? floatingPnl(state.fills, price, market, { amount: state.carry, cost: state.carryCost }).toFixed() : '0';
  return {
    ...withReturns(unrealized),
    price: price.toFixed(),
    amount: close ? close.sellAmount.toFixed() : '0',
    // What the last close left below the step: carried into this cycle's sale (sold with it once it adds up to a step).
    dust: state.carry.toFixed(),
    unrealized,
    takeProfitPrice: state.targets?.takeProfit.toFixed() ?? null,
    // The stop as the engine acts on it: a trailing stop moves up with the high since the base order.
    stopLossPrice: dcaStop(state, { params, market })?.price.toFixed() ?? null,
    // No safety order while an armed trailing take profit sells the deal.
    nextAddPrice: armed ? null : (state.targets?.nextSafety?.toFixed() ?? null),
    ...(armed ? { trailing: { high: armed.high.toFixed(), price: armed.line.toFixed() } } : {}),
    averagePrice: holding
      ? averagePrice(state.fills)
          .toDecimalPlaces(market.tickSize.decimalPlaces() + 4)
          .toFixed()
      : null,
    fills: state.fills.map((f) => ({ price: f.price.toFixed(), amount: f.amount.toFixed() })),
    close: {
      carry: state.carry.toFixed(),
      carryCost: state.carryCost.toFixed(),
      tickSize: market.tickSize.toFixed(),
      stepSize: market.stepSize.toFixed(),
      minAmount: market.minAmount.toFixed(),
      minCost: market.minCost.toFixed(),
      feeRate: market.feeRate.toFixed(),
    },
    levels: planDeal(params, market, holding ? state.fills[0]!.price : price).map((o) => ({ index: o.index, price: o.price.toFixed(), quote: o.quote.toFixed(), amount: o.amount.toFixed() })),
  };
}

/** A custom bot's detail: its position's figures as martin's, its take profit and stop loss (and trailing lines); no adds, no levels (its entries wait for its rules). */
function customDetail(
  row: BotRow,
  market: MarketInfo,
  price: Decimal,
  withReturns: (unrealized: string) => BotInfo & { unrealized: string; totalProfit: string },
): Omit<BotDetail, 'usedFunds' | 'usedRoi'> {
  const params = row.params as CustomParams;
  const state = decodeCustom(String(row.id), row.state as StoredCustomState, { params, market });
  const holding = state.fills.length > 0;
  const lines = holding ? customLines(state, { params, market }) : null;
  const close = holding ? closeCycle(state.fills, price, market, { amount: state.carry, cost: state.carryCost }) : null;
  const unrealized = holding ? floatingPnl(state.fills, price, market, { amount: state.carry, cost: state.carryCost }).toFixed() : '0';
  return {
    ...withReturns(unrealized),
    price: price.toFixed(),
    amount: close ? close.sellAmount.toFixed() : '0',
    // What the last close left below the step: carried into this cycle's sale (sold with it once it adds up to a step).
    dust: state.carry.toFixed(),
    unrealized,
    takeProfitPrice: state.targets?.takeProfit?.toFixed() ?? null,
    // The trailing exits' lines as the engine acts on them: a trailing stop moves the stop loss, an armed take profit sells at its line.
    stopLossPrice: (lines ? lines.stop : state.targets?.stopLoss)?.toFixed() ?? null,
    nextAddPrice: null,
    ...(lines?.armed ? { trailing: { high: lines.armed.high.toFixed(), price: lines.armed.line.toFixed() } } : {}),
    averagePrice: holding
      ? averagePrice(state.fills)
          .toDecimalPlaces(market.tickSize.decimalPlaces() + 4)
          .toFixed()
      : null,
    fills: state.fills.map((f) => ({ price: f.price.toFixed(), amount: f.amount.toFixed() })),
    close: {
      carry: state.carry.toFixed(),
      carryCost: state.carryCost.toFixed(),
      tickSize: market.tickSize.toFixed(),
      stepSize: market.stepSize.toFixed(),
      minAmount: market.minAmount.toFixed(),
      minCost: market.minCost.toFixed(),
      feeRate: market.feeRate.toFixed(),
    },
    levels: [],
  };
}

/** botPositions: the open cycle first (when there is one), then the closed cycles, newest first. */
export async function botPositions(db: Db, userId: string, id: string, page: number, pageSize: number): Promise<Page<BotPosition>> {
  const row = await ownBot(db, userId, id);
  const state = row.state as StoredMartinState;
  const open: BotPosition[] = [];
  if (row.type === 'grid') {
    const held = gridHeld(row.state as StoredGridState);
    if (held.sells > 0) {
      open.push({
        cycle: (row.state as StoredGridState).trades + 1,
        status: 'open',
        entries: held.sells,
        amount: held.amount.toFixed(),
        cost: held.cost.toFixed(),
        averagePrice: (held.average ?? money(0)).toFixed(),
        closePrice: null,
        profit: null,
        openedAt: null,
        closedAt: null,
      });
    }
  } else if (state.fills.length > 0) {
    const { cost, average } = cycleFigures(state);
    const first = await db.selectFrom('bot_orders').select('updated_at').where('bot_id', '=', id).where('cycle', '=', state.cycle).where('status', '=', 'filled').orderBy('seq').executeTakeFirst();
    open.push({
      cycle: state.cycle,
      status: 'open',
      entries: state.fills.length,
      amount: state.fills.reduce((s, f) => s.plus(f.amount), money(0)).toFixed(),
      cost: cost.toFixed(),
      averagePrice: average?.toDecimalPlaces(12).toFixed() ?? null,
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
  const which = cycle ?? (row.type === 'grid' ? (row.state as StoredGridState).trades + 1 : (row.state as StoredMartinState).cycle);
  const rows = await db.selectFrom('bot_orders').selectAll().where('bot_id', '=', id).where('cycle', '=', which).orderBy('seq').limit(100).execute();
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
  const row = await db.selectFrom('bots').select('id').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
  if (!row) throw fail('StrategyNotFound');
  const [rows, count] = await Promise.all([
    db
      .selectFrom('bot_actions')
      .selectAll()
      .where('bot_id', '=', id)
      .orderBy('id', 'desc')
      .limit(pageSize)
      .offset((page - 1) * pageSize)
      .execute(),
    db
      .selectFrom('bot_actions')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('bot_id', '=', id)
      .executeTakeFirstOrThrow(),
  ]);
  const list = rows.map((a) => ({ id: String(a.id), botId: String(a.bot_id), kind: a.kind as ActionKind, detail: a.detail, at: iso(a.created_at) }));
  return pageOf(list, Number(count.n), page, pageSize);
}

/** The price now and what a position would make at it; unvalued ('0') when the exchange cannot be reached. */
async function valued(trading: Trading, exchange: string, symbol: string, unrealizedAt: (market: MarketInfo, price: Decimal) => string): Promise<{ price: string; unrealized: string } | null> {
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
export async function openPositions(db: Db, trading: Trading, userId: string, page: number, pageSize: number): Promise<Page<OpenPosition>> {
  // Martin: fills in the open cycle; grid: base waiting on its sell levels.
  // Each raw condition sits in its own brackets: an unbracketed `or` here once escaped the owner filter.
  const q = db
    .selectFrom('bots')
    .where('user_id', '=', userId)
    .where('deleted_at', 'is', null)
    .where((eb) =>
      eb.or([
        sql<boolean>`(jsonb_typeof(state->'fills') = 'array' and jsonb_array_length(state->'fills') > 0)`,
        sql<boolean>`(type = 'grid' and exists (select 1 from jsonb_array_elements(coalesce(state->'orders', '[]'::jsonb)) o where o->>'side' = 'sell'))`,
      ]),
    );
  const [rows, count] = await Promise.all([
    q
      .selectAll()
      .orderBy('id', 'desc')
      .limit(pageSize)
      .offset((page - 1) * pageSize)
      .execute(),
    q.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
  ]);
  const list: OpenPosition[] = [];
  for (const row of rows) {
    const exchange = exchangeById(row.exchange_id)?.code ?? 'unknown';
    const base = { botId: String(row.id), botName: row.name, exchange, symbol: row.symbol, status: row.status };
    if (row.type === 'grid') {
      // A grid's position: the base waiting on its sell levels.
      const held = gridHeld(row.state as StoredGridState);
      const value = (await valued(trading, exchange, row.symbol, (m, now) => gridUnrealized(held, now, m.feeRate))) ?? unvalued;
      list.push({ ...base, entries: held.sells, amount: held.amount.toFixed(), cost: held.cost.toFixed(), averagePrice: (held.average ?? money(0)).toFixed(), ...value });
      continue;
    }
    const state = row.state as StoredMartinState;
    const { cost, average } = cycleFigures(state);
    const fills = state.fills.map((f) => ({ price: money(f.price), amount: money(f.amount) }));
    const value =
      (await valued(trading, exchange, row.symbol, (m, now) => floatingPnl(fills, now, m, { amount: money(state.carry ?? '0'), cost: money(state.carryCost ?? '0') }).toFixed())) ?? unvalued;
    list.push({
      ...base,
      entries: state.fills.length,
      amount: fills.reduce((s, f) => s.plus(f.amount), money(0)).toFixed(),
      cost: cost.toFixed(),
      averagePrice: average!.toDecimalPlaces(12).toFixed(),
      ...value,
    });
  }
  return pageOf(list, Number(count.n), page, pageSize);
}
