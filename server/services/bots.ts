import type { BatchOperation, BotCreateInput, BotOperation, BotStatus, BotUpdateInput } from '../../contract/bots.ts';
import { Code, type CodeName } from '../../contract/codes.ts';
import type { Db } from '../db/connect.ts';
import type Decimal from 'decimal.js';
import { money } from '../../strategy/money.ts';
import { sizeClose, type CloseAsk } from '../../strategy/core/position.ts';
import { holdsBy, kitOf } from '../../strategy/kit.ts';
import { botId } from '../../strategy/types.ts';
import { exchangeById, SIMULATED_EXCHANGE_IDS } from '../exchanges/catalog.ts';
import { openPaperAccount } from '../exchanges/paper-venue.ts';
import type { MarketData, Trading } from '../trading.ts';
import { AppError, fail, InputError } from '../errors.ts';
import { botIndicatorCost, checkIndicatorBudget } from './indicator-budget.ts';
import { quoteOf, requireUnreserved } from './reserved-capital.ts';
import { balances } from '../ledger.ts';
import { notifyBot } from '../cluster/notify.ts';
import type { CommandOutcome } from '../cluster/commands.ts';
import { defaultBotName } from '../market/catalog.ts';
import type { Language } from '../../contract/envelope.ts';
import { countKeptBots, findOwnBot, insertBot, markBotDeleted, setBotParams, setBotStatus } from '../store/bot-rows.ts';
import { logAction } from '../store/bot-actions.ts';
import { restartedState } from '../store/bot-fields.ts';
import { insertBatchTask, saveBatchResults } from '../store/batch-tasks.ts';
import { inTransaction, later } from '../events/outbox.ts';

export interface BotsDeps {
  db: Db;
  trading: Trading;
  /** The most bots (not deleted) one trader may keep (config MAX_BOTS_PER_USER). */
  maxBots?: number;
  /** The indicator work one trader's running bots may keep (config INDICATOR_BUDGET). */
  indicatorBudget?: number;
}

/** The most bots one trader may keep unless configured: far above any real use, far below a flood. */
export const DEFAULT_MAX_BOTS = 100;

/**
 * The stored parameters of a bot type from the form's (strategy/kit-types.ts `stored`): parameters that
 * are not that type's are refused (an update's body is checked against every type's schema by its route).
 */
export function storedParams(type: string, input: unknown): unknown {
  const kit = kitOf(type);
  const parsed = kit.paramsSchema.safeParse(input);
  if (!parsed.success) throw fail('StrategyInvalidParams');
  return kit.stored(parsed.data);
}

/** Checks a bot's stored parameters against its market and the price now; the first problem is the answer, with its field (in words where a path would mean nothing). */
export async function checkBotParams(deps: { trading: Pick<MarketData, 'market' | 'prices'> }, type: string, exchange: string, symbol: string, params: unknown): Promise<void> {
  const market = await deps.trading.market(exchange, symbol);
  const price = money(await deps.trading.prices.price(exchange, symbol));
  const problem = kitOf(type).problem(params, market, price);
  if (problem) throw new InputError(problem.code, problem.field ? `params.${problem.field}` : 'params', problem.words);
}

/** Work on one bot after its engine's work in progress, then the user's cached lists are dropped. */
async function changing<T>(deps: BotsDeps, userId: string, id: string, work: () => Promise<T>): Promise<T> {
  try {
    return await deps.trading.engine.serial(id, work);
  } finally {
    deps.trading.listCache.bump(userId);
  }
}

async function ownBot(db: Db, userId: string, id: string) {
  const row = await findOwnBot(db, { userId, id });
  if (!row) throw fail('StrategyNotFound');
  return row;
}

/**
 * The parameters a new bot is created with, checked against the market now. An AI proposal (`ai` set)
 * was fitted at the price of its search: when the price has moved so far that the checks
 * refuse it (or out of a grid's range), it is moved to the price now as the search would have placed it
 * (strategy/ai/refit.ts, the same checks), or refused with a request to search again, never with a
 * field path the trader did not type.
 */
async function createdParams(deps: BotsDeps, input: BotCreateInput, exchange: string): Promise<{ params: unknown; refit: boolean }> {
  const params = storedParams(input.type, input.params);
  const kit = kitOf(input.type);
  // Only the types the AI proposes are refitted (kit.refit): another one sent as an AI bot is refused.
  if (input.ai && !kit.refit) throw new InputError('StrategyInvalidParams', 'ai');
  if (!input.ai || !kit.refit) {
    await checkBotParams(deps, input.type, exchange, input.symbol, params);
    return { params, refit: false };
  }
  const market = await deps.trading.market(exchange, input.symbol);
  const price = money(await deps.trading.prices.price(exchange, input.symbol));
  const fit = kit.refit(params, market, price);
  if (!fit) throw fail('StrategyProposalStale', { values: { price: price.toFixed() } });
  return { params: fit.params, refit: fit.moved };
}

/** botCreate: a bot on a bound exchange, stopped until the trader starts it; unnamed, it is named in the request's language. */
export async function createBot(deps: BotsDeps, userId: string, input: BotCreateInput, lang: Language = 'zh'): Promise<string> {
  const exchange = exchangeById(input.exchangeId);
  if (!exchange) throw fail('ApiExchangeUnsupported');
  const bound = await deps.db.selectFrom('exchange_keys').select('id').where('user_id', '=', userId).where('exchange_id', '=', exchange.id).executeTakeFirst();
  if (!bound) throw fail('ApiNotBound');
  const { params, refit } = await createdParams(deps, input, exchange.code);
  if (exchange.code === 'paper' || exchange.simulatedOf) await openPaperAccount(deps.db, userId, exchange.id);
  const changed = await deps.db.transaction().execute(async (tx) => {
    // The user's row lock makes the count and the insert one step, on any number of server processes.
    await tx.selectFrom('users').select('id').where('id', '=', userId).forUpdate().executeTakeFirstOrThrow();
    const max = deps.maxBots ?? DEFAULT_MAX_BOTS;
    if ((await countKeptBots(tx, { userId })) >= max) throw fail('StrategyLimitReached', { values: { max } });
    const id = await insertBot(tx, {
      userId,
      exchangeId: exchange.id,
      symbol: input.symbol,
      type: input.type,
      name: input.name || defaultBotName(input.type, input.symbol, lang),
      params,
      state: kitOf(input.type).encode(kitOf(input.type).initial(botId('new'))),
    });
    if (input.ai) await tx.insertInto('ai_bots').values({ bot_id: id, risk: input.ai.risk }).execute();
    await logAction(tx, {
      botId: id,
      kind: 'create',
      detail: { symbol: input.symbol, exchange: exchange.code, ...(input.ai ? { ai: input.ai.risk } : {}), ...(refit ? { refit: 'price' } : {}) },
    });
    return id;
  });
  deps.trading.listCache.bump(userId);
  return changed;
}

/** botUpdate: new parameters (and name) for a bot that is not running. */
export async function updateBot(deps: BotsDeps, userId: string, id: string, input: BotUpdateInput): Promise<void> {
  await changing(deps, userId, id, async () => {
    const row = await ownBot(deps.db, userId, id);
    if (row.status === 'running') throw fail('StrategyRunningNoEdit');
    const params = storedParams(row.type, input.params);
    const exchange = exchangeById(row.exchange_id)?.code ?? '';
    await checkBotParams(deps, row.type, exchange, row.symbol, params);
    await deps.db.transaction().execute(async (tx) => {
      await setBotParams(tx, { id, params, name: input.name });
      await logAction(tx, { botId: id, kind: 'update', detail: { params: JSON.stringify(params) } });
      await notifyBot(tx, id);
    });
    await deps.trading.engine.refresh(id);
  });
}

/** The status each lifecycle operation leads to, and the refusal from each status (docs/product.md §4). */
const transitions: Record<'start' | 'stop' | 'pause' | 'resume', Partial<Record<BotStatus, BotStatus | CodeName>>> = {
  start: { stopped: 'running', paused: 'running', running: 'StrategyAlreadyRunning' },
  stop: { running: 'stopped', paused: 'stopped', stopped: 'StrategyAlreadyStopped' },
  pause: { running: 'paused', paused: 'StrategyAlreadyPaused', stopped: 'StrategyAlreadyStopped' },
  resume: { paused: 'running', running: 'StrategyAlreadyRunning', stopped: 'StrategyAlreadyStopped' },
};
const isStatus = (x: string): x is BotStatus => x === 'running' || x === 'paused' || x === 'stopped';

/**
 * The account's free balance in the pair's quote currency, or undefined when it cannot be read now (a
 * live exchange out of reach): then nothing is refused here, and the exchange says it when it refuses
 * the order.
 */
async function freeOf(deps: BotsDeps, userId: string, exchange: string, symbol: string): Promise<Decimal | undefined> {
  try {
    return money((await deps.trading.assets(userId, exchange)).balances.find((b) => b.currency === quoteOf(symbol))?.free ?? '0');
  } catch {
    return undefined;
  }
}

/** Refuses when the account's free balance in the pair's quote currency is below `needed`, saying how much is free. */
async function requireFree(deps: BotsDeps, userId: string, exchange: string, symbol: string, needed: Decimal): Promise<void> {
  const free = await freeOf(deps, userId, exchange, symbol);
  if (free?.lt(needed)) throw fail('StrategyInsufficientBalance', { values: { available: free.toDecimalPlaces(2, 1).toFixed(), needed: needed.toFixed(), quote: quoteOf(symbol) } });
}

/** The quote of a manual add the trader chose: at least the market's minimum order, at most what is free. */
async function checkAddAmount(deps: BotsDeps, userId: string, row: { exchange_id: number; symbol: string }, amount: string) {
  const exchange = exchangeById(row.exchange_id)?.code ?? '';
  const quote = money(amount);
  const market = await deps.trading.market(exchange, row.symbol);
  if (quote.lt(market.minCost) || quote.lte(0)) throw new InputError('StrategyOrderBelowMinimum', 'amount');
  await requireFree(deps, userId, exchange, row.symbol, quote);
  return quote;
}

/**
 * The part of a position a partial close sells, checked as the confirmation estimated it
 * (strategy/core/position.ts sizeClose, at the price now): a share of 1-100 % or a base amount not above
 * the position, rounded down to the step; neither the sale nor the rest below the market's minimum.
 * Undefined: everything (100 %, or the whole amount), exactly the full close. A bot type that closes its
 * position only whole takes 100 % alone; one whose position cannot be split takes no part (kit.partClose).
 */
async function checkClosePart(deps: BotsDeps, row: { id: string | number; type: string; exchange_id: number; symbol: string; params: unknown; state: unknown }, ask: CloseAsk) {
  if ('percent' in ask && (ask.percent.lt(1) || ask.percent.gt(100))) throw fail('StrategyCloseShareInvalid');
  const kit = kitOf(row.type);
  if (kit.partClose === 'whole') {
    if ('percent' in ask && ask.percent.eq(100)) return undefined;
    throw new InputError('StrategyInvalidParams', 'percent' in ask ? 'share' : 'baseAmount');
  }
  if (kit.partClose === 'none' || !kit.book) throw fail('StrategyPartCloseGrid');
  const exchange = exchangeById(row.exchange_id)?.code ?? '';
  const market = await deps.trading.market(exchange, row.symbol);
  // The engine's state when it holds the bot (the one a close sells from), else the stored one.
  const state = deps.trading.engine.stateOf(String(row.id)) ?? kit.decode(String(row.id), row.state, kit.view(row.params, market));
  const book = kit.book(state);
  if (book.fills.length === 0) throw fail('StrategyNoPosition');
  const price = money(await deps.trading.prices.price(exchange, row.symbol));
  const size = sizeClose(book.fills, market, { amount: book.carry, cost: book.carryCost }, price, ask);
  const base = row.symbol.split('/')[0] ?? '';
  if (!size.ok) {
    if (size.problem === 'share') throw fail('StrategyCloseShareInvalid');
    if (size.problem === 'aboveHeld') throw fail('StrategyCloseAboveHeld', { values: { held: size.held.toFixed(), base } });
    if (size.problem === 'restBelowMinimum') throw fail('StrategyCloseRestBelowMinimum', { values: { rest: size.rest.toFixed(), base } });
    throw fail('StrategyOrderBelowMinimum');
  }
  return size.all ? undefined : { amount: size.amount, share: size.share };
}

/**
 * A manual command that placed nothing for a reason other than the strategy's: an order in progress
 * (or the owning process failed to carry it out), or not taken by the owning process before its
 * deadline (it never will be: the trader tries again).
 */
function refuseUnplaced(result: CommandOutcome): void {
  if (result === 'expired') throw fail('Timeout');
  if (result === 'busy' || result === 'error') throw fail('StrategyBusy');
}

/**
 * botOperation: start, stop, pause, resume, delete, or a manual add or close. Answers the bot's id, or
 * null once deleted. A manual add may name the quote to spend (`amount`, checked against the market's
 * minimum and the free balance); a manual close may name a part (`share` in percent or `baseAmount`:
 * checkClosePart); a stop with `sell` sells the open position at market first, as a manual close, and
 * stops only once it is sold (Pionex's "sell all to USDT"; without it the coins stay).
 */
export async function operateBot(
  deps: BotsDeps,
  userId: string,
  id: string,
  action: BotOperation,
  options: { amount?: string | undefined; sell?: boolean; share?: string | undefined; baseAmount?: string | undefined } = {},
): Promise<string | null> {
  const { db, trading } = deps;
  return changing(deps, userId, id, async () => {
    const row = await ownBot(db, userId, id);
    if (action === 'delete') {
      if (row.status === 'running') throw fail('StrategyRunningNoDelete');
      await inTransaction(db, async (tx) => {
        await markBotDeleted(tx, { id });
        await logAction(tx, { botId: id, kind: 'delete', detail: {} });
        await notifyBot(tx, id);
        await later(tx, userId, { kind: 'bot', bot: id, status: 'deleted' });
      });
      await trading.engine.refresh(id);
      return null;
    }
    if (options.amount !== undefined && action !== 'add') throw new InputError('ValidationError', 'amount');
    if (options.sell && action !== 'stop') throw new InputError('ValidationError', 'sell');
    if (options.share !== undefined && action !== 'close') throw new InputError('ValidationError', 'share');
    if (options.baseAmount !== undefined && (action !== 'close' || options.share !== undefined)) throw new InputError('ValidationError', 'baseAmount');
    if (action === 'stop' && options.sell && isStatus(transitions.stop[row.status] ?? '')) {
      // 'nothing': no position to sell (the owning engine loads the bot to know), wherever it runs.
      const sold = await trading.engine.manual(id, 'close');
      refuseUnplaced(sold.result);
      // A live order that is not filled yet leaves the position (and the bot) as it is: the trader stops again once it is sold.
      if (sold.holding) throw fail('StrategyBusy');
    }
    if (action === 'add' || action === 'close') {
      if (row.status === 'stopped' && action === 'add') throw fail('StrategyStoppedNoAdd');
      const quote = options.amount === undefined ? undefined : await checkAddAmount(deps, userId, row, options.amount);
      const ask: CloseAsk | undefined = options.share !== undefined ? { percent: money(options.share) } : options.baseAmount !== undefined ? { amount: money(options.baseAmount) } : undefined;
      const part = ask ? await checkClosePart(deps, row, ask) : undefined;
      // Carried out by the process that owns the bot: this one, or another one the command is sent to.
      const { result, holding } = await trading.engine.manual(id, action, { quote, part });
      refuseUnplaced(result);
      if (result === 'nothing') throw fail(!holding ? 'StrategyNoPosition' : action === 'add' ? 'StrategyMaxPositionsReached' : 'StrategyBusy');
      return id;
    }
    const next = transitions[action][row.status];
    if (!next) throw fail('StrategyInvalidParams');
    if (!isStatus(next)) throw fail(next);
    let commitment: { needed: Decimal; free: Decimal | undefined } | undefined;
    if (next === 'running') {
      // Fuel pays for the profit a live bot makes: none left, no live bot starts. Simulation
      // pays no fuel, so it needs none.
      if (!SIMULATED_EXCHANGE_IDS.includes(row.exchange_id) && money((await balances(db, userId)).fuel).lte(0)) throw fail('InsufficientFuel');
      const exchange = exchangeById(row.exchange_id)?.code ?? '';
      try {
        await checkBotParams(deps, row.type, exchange, row.symbol, row.params);
      } catch (e) {
        if (e instanceof AppError) throw e;
        throw fail('StrategyStartFailed');
      }
      // A start opens a new commitment unless the bot holds a position (the owning engine's state when it
      // is this process, else the stored one: the same once committed): its whole worst case, which must
      // fit in what the account has free and the trader's other bots have not reserved (checked below,
      // under the owner's row lock).
      const kit = kitOf(row.type);
      const live = trading.engine.stateOf(id);
      if (action === 'start' && !holdsBy(row.type, row.params, live ? kit.encode(live) : row.state)) {
        const view = kit.view(row.params, await trading.market(exchange, row.symbol));
        commitment = { needed: kit.reserved(kit.initial(botId(id)), view), free: await freeOf(deps, userId, exchange, row.symbol) };
      }
    }
    await inTransaction(db, async (tx) => {
      if (next === 'running') {
        // The owner's row lock orders two starts at once (any processes) before the budget is counted.
        await tx.selectFrom('users').select('id').where('id', '=', userId).forUpdate().executeTakeFirstOrThrow();
        await checkIndicatorBudget(tx, userId, id, row.type, row.params, deps.indicatorBudget);
        if (commitment) await requireUnreserved(tx, trading, { id, userId, exchangeId: row.exchange_id, symbol: row.symbol }, commitment.needed, commitment.free);
      }
      // A bot that finished its last cycle (repeat off) starts a new one when started again.
      const restart = next === 'running' && row.fields.phase === 'done' ? { state: restartedState(row.state) } : {};
      await setBotStatus(tx, { id, status: next, ...restart });
      await logAction(tx, { botId: id, kind: action, detail: { from: row.status } });
      await later(tx, userId, { kind: 'bot', bot: id, status: next });
      // The engine that owns the bot (this process or another) takes the new status at once.
      await notifyBot(tx, id);
    });
    if (next === 'running' && botIndicatorCost(row.type, row.params) > 0) {
      // A bot with indicators is answered once it is started: its warm-up (in the heavy-work pool, in its
      // owner's turn: seconds when others wait) goes on behind the answer, and it trades once warmed up.
      void trading.engine.serial(id, () => trading.engine.refresh(id)).catch((error: unknown) => trading.engine.log?.error({ err: error, bot: id }, 'start not taken'));
      return id;
    }
    await trading.engine.refresh(id);
    return id;
  });
}

/**
 * botBatch: one operation on many bots, carried out in the background; the task's per-bot results are
 * stored as they come, so botBatchStatus can be polled (also after a restart, which marks it done).
 */
export async function startBatch(deps: BotsDeps, userId: string, action: BatchOperation, ids: string[], say: (code: CodeName) => string, sell = false): Promise<string> {
  if (sell && action !== 'stop') throw new InputError('ValidationError', 'sell');
  const taskId = crypto.randomUUID();
  const unique = [...new Set(ids)];
  await insertBatchTask(deps.db, { id: taskId, userId, action, ids: unique });
  void runBatch(deps, userId, taskId, action, unique, say, sell);
  return taskId;
}

async function runBatch(deps: BotsDeps, userId: string, taskId: string, action: BatchOperation, ids: string[], say: (code: CodeName) => string, sell: boolean): Promise<void> {
  const results: { id: string; ok: boolean; code: number; msg: string }[] = [];
  for (const id of ids) {
    try {
      await operateBot(deps, userId, id, action, sell ? { sell } : {});
      results.push({ id, ok: true, code: Code.Success, msg: say('Success') });
    } catch (e) {
      const name: CodeName = e instanceof AppError ? e.codeName : 'ServerError';
      results.push({ id, ok: false, code: Code[name], msg: say(name) });
    }
    const done = results.length === ids.length;
    await saveBatchResults(deps.db, { id: taskId, results, done }).catch(() => undefined);
  }
}
