import { sql } from 'kysely';
import type { Db } from '../db/connect.ts';
import type { OrderState } from '../exchanges/port.ts';
import type { ActionKind } from '../../contract/bots.ts';
import Decimal from 'decimal.js';
import { lockBalance, post } from '../ledger.ts';
import { money } from '../../strategy/money.ts';
import { SIMULATED_EXCHANGE_IDS } from '../exchanges/catalog.ts';

/** The share of a profitable cycle's profit paid in fuel, unless configured (FUEL_FEE_RATE). */
export const DEFAULT_FUEL_FEE_RATE = '0.2';
/** What each level up the referral chain earns of a fuel fee paid (0.1 = 10%), unless configured. */
export const DEFAULT_REFERRAL_RATES: readonly string[] = ['0.1', '0.05'];
/** Below this much fuel the trader is warned (once, when a fee crosses it). */
export const FUEL_LOW = 10;
import type { KitState, StrategyKit } from '../../strategy/kit.ts';
import { API_KEY_REFUSED } from '../exchanges/port.ts';
import type { EngineEvent, Intent, PlaceOrder } from '../../strategy/types.ts';
import { checkLease, type Fence } from '../cluster/leases.ts';
import { botName, lockBotStatus, pauseLiveBotsForFuel, saveDecidedState } from '../store/bot-decisions.ts';
import { cycleOpenedAt, insertNewOrder, recordOrderAnswer } from '../store/bot-orders.ts';
import { logActions } from '../store/bot-actions.ts';
import type { LiveEvent } from '../../contract/live.ts';
import { inTransaction, later } from '../events/outbox.ts';
import { leaveNotice } from '../events/notice.ts';

/**
 * A decision that would place a new order for a bot the database no longer says is running (paused,
 * stopped or deleted through the API while the engine held the bot in memory): nothing of it is
 * written and nothing is sent. The engine reloads the bot, which takes it off the price book.
 */
export class BotNotRunning extends Error {
  constructor(botId: string) {
    super(`bot ${botId} is not running: no new order`);
    this.name = 'BotNotRunning';
  }
}

/**
 * A signal's decision whose signal was already acted on (or settled) by another: nothing of it is
 * written and nothing is sent (each signal acted on once, even across a crash and a retry).
 */
export class SignalSettled extends Error {
  constructor(signal: string) {
    super(`signal ${signal} was already settled`);
    this.name = 'SignalSettled';
  }
}

/** The exchange's answer that this decision records on the order in flight. */
export interface OrderUpdate {
  answer: OrderState;
}

/** The action log kind of a filled order, by why it was placed (docs/product.md §3 kinds). */
const fillKind: Record<PlaceOrder['reason'], ActionKind> = {
  open: 'open',
  add: 'add',
  manual_add: 'manual_add',
  close: 'close',
  stop: 'close',
  manual_close: 'manual_close',
  // A custom bot's sell rule, or a sell signal from the webhook: a close, its line named by the detail's reason (not a take profit).
  exit_rule: 'close',
  signal_close: 'close',
};

/** How a cycle ended, by the reason of the order that closed it. */
const closedBy: Record<string, 'take_profit' | 'stop_loss' | 'manual_close' | 'exit_rule' | 'signal'> = {
  close: 'take_profit',
  stop: 'stop_loss',
  manual_close: 'manual_close',
  exit_rule: 'exit_rule',
  signal_close: 'signal',
};

export interface Committed {
  /** This bot was paused (an order refused, or the user's fuel ran out). */
  paused: boolean;
  /** The user's other bots paused because the fuel ran out: the engine reloads them. */
  othersPaused: string[];
}

/** One decision of a bot's strategy: what it was asked (`event`), its state before and after, and what it intends. */
export interface Decision {
  /** The bot; its parameters, when given, tell its kit how many entries a cycle may have (the last add is a warning). */
  bot: { id: string; userId: string; exchangeId: number; params?: unknown };
  kit: StrategyKit;
  event: EngineEvent;
  before: KitState;
  state: KitState;
  intents: Intent[];
  /** The outcome of the order in flight this decision settles (a fill or a refusal), when it settles one. */
  order?: OrderUpdate | undefined;
}

/** The operator's settings a commit applies, and the fence of a clustered engine (the bot's lease). */
export interface CommitOptions {
  fuelFeeRate?: string | undefined;
  referralRates?: readonly string[] | undefined;
  fence?: Fence | undefined;
}

/**
 * Writes one decision of the engine in one transaction: the bot's new state, the outcome of the order
 * in flight, the orders it now places (status new, before they are sent), the action log lines, a
 * closed cycle with its profit, and a pause. Either all of it is stored or none. Answers whether the
 * bot was paused.
 */
export async function commitDecision(db: Db, decision: Decision, options: CommitOptions = {}): Promise<Committed> {
  const { bot, kit, event, state, intents, before, order } = decision;
  const { fuelFeeRate = DEFAULT_FUEL_FEE_RATE, referralRates = DEFAULT_REFERRAL_RATES, fence } = options;
  const actions: { kind: ActionKind; detail: Record<string, string> }[] = [];
  // What the trader's open app is told once this commits (server/events/outbox.ts writes it last).
  const events: LiveEvent[] = [];
  let pause: string | null = null;
  let outOfFuel: string[] = [];
  // Simulation never touches real balances: only a live account's profit pays fuel.
  const paysFuel = !SIMULATED_EXCHANGE_IDS.includes(bot.exchangeId) && intents.some((i) => i.type === 'CycleClosed' && i.profit.gt(0));
  return inTransaction(db, async (tx) => {
    // The bot's name, read once however many notices of this decision carry it.
    let nameRead: Promise<string | undefined> | undefined;
    const nameOfBot = () => (nameRead ??= botName(tx, { id: bot.id }));
    // The lock order: a decision that pays fuel locks the user's fuel before its bot's row. Running out
    // pauses the user's other bots (their rows locked too); one of them mid-decision holds only its own
    // row, and waits for the fuel with no row held, so two bots of one user closing at once never deadlock.
    if (paysFuel) await lockBalance(tx, bot.userId, 'fuel');
    // The status fence: the bot's row is locked for the whole decision, so a pause or stop through the
    // API either comes before it (and no new order is recorded) or waits for it (and the engine is told
    // of the new status after). A bot that is not running may only settle its order in flight; a
    // manual add or close is the trader's own command, checked by the service, and goes through.
    const current = await lockBotStatus(tx, { id: bot.id });
    const manual = event.type === 'ManualAddRequested' || event.type === 'ManualCloseRequested';
    const running = current?.status === 'running' && !current.deleted_at;
    if (!running && !manual && intents.some((i) => i.type === 'PlaceOrder')) throw new BotNotRunning(bot.id);
    // The lease fence: in a cluster, the decision commits only under the lease it was made
    // under, its row locked, so a takeover (epoch + 1) waits for this transaction or refuses it.
    if (fence) await checkLease(tx, bot.id, fence);
    if (event.type === 'SignalReceived') {
      // Recorded before it was acted on (server/services/signals.ts); marked acted on here, in the
      // decision's own transaction, only if nothing settled it before: a retry can never place it twice.
      const { rows } = await sql<{ id: string }>`
        update bot_signals set status = 'placed', done_at = now() where id = ${event.signal} and bot_id = ${bot.id} and status = 'received' returning id`.execute(tx);
      if (rows.length === 0) throw new SignalSettled(event.signal);
      actions.push({ kind: 'signal', detail: { action: event.action, id: event.alert, price: event.price.toFixed(), result: 'placed' } });
    }
    if (event.type === 'ManualAddRequested' || event.type === 'ManualCloseRequested') {
      const detail: Record<string, string> = { command: event.type === 'ManualAddRequested' ? 'add' : 'close', price: event.price.toFixed() };
      if (event.type === 'ManualCloseRequested' && event.part) detail.share = event.part.share;
      actions.push({ kind: 'manual', detail });
    }
    if (order) {
      const a = order.answer;
      const reason = before.pending?.reason ?? 'open';
      const filled = event.type === 'OrderFilled';
      await recordOrderAnswer(tx, {
        clientOrderId: a.clientOrderId,
        status: filled ? 'filled' : 'rejected',
        price: a.price?.toFixed() ?? null,
        filled: a.filled.toFixed(),
        cost: a.cost.toFixed(),
        fee: a.fee?.amount.toFixed() ?? null,
        feeCurrency: a.fee?.currency ?? null,
      });
      const detail: Record<string, string> = { order: a.clientOrderId, reason, cycle: String(kit.cycle(before)) };
      if (filled) {
        Object.assign(detail, { price: a.price!.toFixed(), amount: a.filled.toFixed(), cost: a.cost.toFixed() });
        if (a.fee) Object.assign(detail, { fee: a.fee.amount.toFixed(), feeCurrency: a.fee.currency });
        if (reason === 'stop') detail.stopLoss = '1';
        actions.push({ kind: fillKind[reason], detail });
        events.push({ kind: 'order', bot: bot.id, order: a.clientOrderId, side: a.side, reason, status: 'filled', price: a.price!.toFixed(), amount: a.filled.toFixed(), symbol: a.symbol });
        if (reason === 'add' && bot.params !== undefined) {
          // The last add a cycle may make: nothing more will average the price down, as traders want to be told.
          const held = kit.held(bot.params, kit.encode(state));
          if (held.maxEntries > 1 && held.entries >= held.maxEntries) {
            const named = await nameOfBot();
            await leaveNotice(tx, bot.userId, {
              kind: 'warning',
              code: 'last_add_filled',
              detail: { bot: bot.id, ...(named !== undefined ? { name: named } : {}), entries: String(held.entries), average: held.average?.toFixed() ?? '' },
            });
          }
        }
      } else {
        actions.push({ kind: 'failed', detail: { ...detail, message: a.reason ?? a.status } });
        events.push({ kind: 'order', bot: bot.id, order: a.clientOrderId, side: a.side, reason, status: 'failed', symbol: a.symbol });
      }
    }
    for (const intent of intents) {
      if (intent.type === 'PlaceOrder') {
        // One order per decision: the state's cycle and sequence are the ones in its client order id.
        await insertNewOrder(tx, {
          botId: bot.id,
          clientOrderId: intent.clientOrderId,
          cycle: kit.cycle(state),
          seq: state.seq,
          side: intent.side,
          reason: intent.reason,
          quote: intent.quote?.toFixed() ?? null,
          amount: intent.amount?.toFixed() ?? null,
          atPrice: intent.at?.toFixed() ?? null,
        });
        events.push({ kind: 'order', bot: bot.id, order: intent.clientOrderId, side: intent.side, reason: intent.reason, status: 'placed' });
      } else if (intent.type === 'CycleClosed') {
        const openedAt = await cycleOpenedAt(tx, { botId: bot.id, cycle: intent.cycle });
        const a = order?.answer;
        const figures = kit.cycleFigures(before, intent);
        await tx
          .insertInto('bot_cycles')
          .values({
            bot_id: bot.id,
            user_id: bot.userId,
            cycle: intent.cycle,
            entries: figures.entries,
            amount: figures.amount.toFixed(),
            cost: figures.cost.toFixed(),
            close_price: (a?.price ?? money(0)).toFixed(),
            profit: intent.profit.toFixed(),
            opened_at: openedAt,
          })
          .execute();
        // The log says how the cycle ended: a manual close or a stop loss is no take profit.
        const how = closedBy[before.pending?.reason ?? ''] ?? 'closed';
        actions.push({ kind: 'success', detail: { cycle: String(intent.cycle), profit: intent.profit.toFixed(), how } });
        events.push({ kind: 'cycle', bot: bot.id, cycle: intent.cycle, profit: intent.profit.toFixed(), how });
        // The notices list it too: how it closed (a take profit, a stop loss, by hand) and what it made.
        const named = await nameOfBot();
        await leaveNotice(tx, bot.userId, {
          kind: how === 'stop_loss' ? 'warning' : 'notice',
          code: 'cycle_closed',
          detail: { bot: bot.id, ...(named !== undefined ? { name: named } : {}), cycle: String(intent.cycle), profit: intent.profit.toFixed(), how },
        });
        // A simulated account's profit pays no fuel, so it earns no referrer any reward either; only live accounts' fees do.
        const fee = paysFuel && intent.profit.gt(0) ? intent.profit.mul(money(fuelFeeRate)).toDecimalPlaces(8, Decimal.ROUND_UP) : money(0);
        if (fee.gt(0)) {
          // Fuel pays for profit, in the transaction that books the profit; when it runs out, every
          // running bot of the user pauses and a warning says why.
          const charged = await post(tx, {
            userId: bot.userId,
            asset: 'fuel',
            amount: fee.neg(),
            reason: 'profit_fee',
            floorAtZero: true,
            detail: { bot: bot.id, cycle: String(intent.cycle), profit: intent.profit.toFixed(), fee: fee.toFixed() },
          });
          await rewardReferrers(tx, bot.userId, charged.applied.neg(), referralRates, { bot: bot.id, cycle: String(intent.cycle) });
          if (charged.balance.lte(0)) outOfFuel = await pauseForFuel(tx, bot.userId);
          else if (charged.balance.lt(FUEL_LOW) && charged.balance.minus(charged.applied).gte(FUEL_LOW)) {
            // Crossing below the low mark warns once, before the bots stop.
            await leaveNotice(tx, bot.userId, { kind: 'warning', code: 'fuel_low', detail: { fuel: charged.balance.toFixed() } });
          }
        }
      } else if (intent.type === 'RangeEdgeReached') {
        // A grid at an edge of its range trades no more that way: the trader is warned, once per edge.
        const named = await nameOfBot();
        await leaveNotice(tx, bot.userId, {
          kind: 'warning',
          code: 'range_edge',
          detail: { bot: bot.id, ...(named !== undefined ? { name: named } : {}), side: intent.side, price: intent.price.toFixed() },
        });
      } else if (intent.type === 'PositionReduced') {
        // A partial close: its sale's log line says the share and the profit realised; no cycle closes.
        const sale = actions.find((a) => a.kind === 'manual_close');
        if (sale) Object.assign(sale.detail, { share: intent.share, profit: intent.profit.toFixed() });
      } else if (intent.type === 'TrailingMoved') {
        // A trailing exit is logged when it arms and when it fires; a new high only moves the stored state.
        if (intent.step !== 'raised') {
          const detail = { exit: intent.exit, high: intent.high.toFixed(), price: intent.line.toFixed() };
          actions.push({ kind: intent.step === 'armed' ? 'trailing_armed' : 'trailing_fired', detail });
        }
      } else if (intent.type === 'PauseBot') {
        pause = intent.reason.slice(0, 200);
        actions.push({ kind: 'pause', detail: { reason: pause } });
        // The trader learns it from the notices too: an order was refused and the bot stopped trading.
        // A refused API key gets its own warning: the fix is on the exchange (rebind a valid trade key).
        const keyRefused = pause.startsWith(API_KEY_REFUSED);
        const name = await nameOfBot();
        await leaveNotice(tx, bot.userId, {
          kind: 'warning',
          code: keyRefused ? 'api_key_invalid' : 'bot_paused',
          detail: { bot: bot.id, ...(name !== undefined ? { name } : {}), reason: pause },
        });
        events.push({ kind: 'bot', bot: bot.id, status: 'paused', reason: pause });
      }
    }
    await saveDecidedState(tx, { id: bot.id, state: kit.encode(state), realized: state.realized.toFixed(), pause });
    await logActions(
      tx,
      actions.map((a) => ({ botId: bot.id, ...a })),
    );
    await later(tx, bot.userId, ...events);
    return { paused: pause !== null || outOfFuel.includes(bot.id), othersPaused: outOfFuel.filter((id) => id !== bot.id) };
  });
}

/**
 * Referrers earn a share of the fuel fee their team pays: the direct referrer rates[0],
 * theirs rates[1], and so on; credited to rewards, rounded down to 8 places, logged, in the transaction
 * that takes the fee.
 */
async function rewardReferrers(tx: Parameters<typeof post>[0], userId: string, fee: Decimal, rates: readonly string[], detail: Record<string, string>): Promise<void> {
  if (fee.lte(0)) return;
  let current = userId;
  const seen = new Set([userId]);
  let from = '';
  for (const rate of rates) {
    const row = await tx.selectFrom('users').select(['referrer_id', 'sn']).where('id', '=', current).executeTakeFirst();
    from ||= row?.sn ?? '';
    const referrer = row?.referrer_id ? String(row.referrer_id) : null;
    if (!referrer || seen.has(referrer)) return; // the end of the chain (or a loop, which referrer changes forbid)
    seen.add(referrer);
    const reward = fee.mul(money(rate)).toDecimalPlaces(8, Decimal.ROUND_DOWN);
    if (reward.gt(0)) {
      await post(tx, { userId: referrer, asset: 'rewards', amount: reward, reason: 'reward', detail: { ...detail, from, member: userId, fee: fee.toFixed() } });
    }
    current = referrer;
  }
}

/** Pauses every running live bot of a user whose fuel ran out (simulation pays no fuel), logs why on each, and leaves a warning. */
async function pauseForFuel(tx: Parameters<typeof post>[0], userId: string): Promise<string[]> {
  const ids = await pauseLiveBotsForFuel(tx, { userId, simulatedIds: SIMULATED_EXCHANGE_IDS });
  await logActions(
    tx,
    ids.map((id) => ({ botId: id, kind: 'pause', detail: { reason: 'fuel' } })),
  );
  await leaveNotice(tx, userId, { kind: 'warning', code: 'fuel_empty', detail: { paused: String(ids.length) } });
  await later(tx as Db, userId, ...ids.map((id): LiveEvent => ({ kind: 'bot', bot: id, status: 'paused', reason: 'fuel' })));
  return ids;
}
