import type Decimal from 'decimal.js';
import type { Kysely } from 'kysely';
import type { ExchangeBalance } from '../../contract/exchanges.ts';
import { kitOf } from '../../strategy/kit.ts';
import { money } from '../../strategy/money.ts';
import { botId } from '../../strategy/types.ts';
import type { Database } from '../db/schema.ts';
import { reservingBots } from '../store/bot-lists.ts';
import { restingQuoteOf } from '../store/resting-orders.ts';
import { exchangeByCode, exchangeById } from '../exchanges/catalog.ts';
import type { EngineSide, MarketData } from '../trading.ts';
import { fail } from '../errors.ts';

/**
 * Capital a trader's bots have reserved: each running or paused bot holds back, of its exchange
 * account's free balance in its pair's quote currency, the quote it may still spend on buys it has not
 * made (its kit's `reserved`: a martin's adds left, a grid's unfilled buy levels, ...). What is free
 * minus what is reserved is what a new bot may count on: bots cannot commit the same money twice, so a
 * martin's deepest add (the one that matters when the price has fallen) is not left unfunded by a bot
 * started after it. A paused bot keeps its reservation: it may be resumed. The quote a bot's resting buys
 * hold on the venue is out of the free balance already, and out of its reservation too.
 *
 * The bots' states are read from the database (a fill and its new state are stored in one transaction),
 * or, for a bot this process trades, from its engine (the same once committed): any process counts the
 * same figure, and a start counts it under the owner's row lock, so two starts at once, on any
 * processes, are counted one after the other.
 */
export async function reservedByBots(
  db: Kysely<Database>,
  trading: Pick<MarketData, 'market'> & Pick<EngineSide, 'engine'>,
  userId: string,
  exchange: string,
  quote: string,
  except?: string,
): Promise<Decimal> {
  const exchangeId = exchangeByCode(exchange)?.id;
  if (exchangeId === undefined) return money(0);
  let sum = money(0);
  const rows = await reservingBots(db, { userId, exchangeId, quote, except });
  // What a bot's resting buys hold on the venue is no longer in its free balance: not reserved twice.
  const resting = await restingQuoteOf(db, { botIds: rows.map((r) => String(r.id)) });
  for (const row of rows) {
    const left = (await reservedBy(trading, exchange, row)).minus(resting.get(String(row.id)) ?? 0);
    if (left.gt(0)) sum = sum.plus(left);
  }
  return sum;
}

/** One bot's reservation; a bot whose market cannot be read now reserves its whole worst case (its fresh state's). */
async function reservedBy(
  trading: Pick<MarketData, 'market'> & Pick<EngineSide, 'engine'>,
  exchange: string,
  row: { id: string | number; type: string; symbol: string; params: unknown; state: unknown },
): Promise<Decimal> {
  const kit = kitOf(row.type);
  const id = String(row.id);
  let market: Awaited<ReturnType<MarketData['market']>>;
  try {
    market = await trading.market(exchange, row.symbol);
  } catch {
    return kit.reserved(kit.initial(botId(id)), kit.view(row.params, { tickSize: money('0.00000001'), stepSize: money('0.00000001'), minAmount: money(0), minCost: money(0), feeRate: money(0) }));
  }
  const view = kit.view(row.params, market);
  const state = trading.engine.stateOf(id) ?? kit.decode(id, row.state, view);
  return kit.reserved(state, view);
}

/** The quote currency of a pair ("BTC/USDT" -> "USDT"). */
export const quoteOf = (symbol: string) => symbol.split('/')[1] ?? 'USDT';

/**
 * A bot's start when it does not fit: the account's free balance in the pair's quote currency, less
 * what the trader's other bots there have reserved, must cover this bot's own reservation (StrategyCapitalReserved,
 * with all four figures). Call under the owner's row lock, in the transaction that marks the bot
 * running. `free`: the balance read before the transaction (undefined: it could not be read now; the
 * exchange then refuses what it cannot fill, and the bot pauses with the reason).
 */
export async function requireUnreserved(
  db: Kysely<Database>,
  trading: Pick<MarketData, 'market'> & Pick<EngineSide, 'engine'>,
  bot: { id: string; userId: string; exchangeId: number; symbol: string },
  needed: Decimal,
  free: Decimal | undefined,
): Promise<void> {
  if (free === undefined || needed.lte(0)) return;
  const exchange = exchangeById(bot.exchangeId)?.code ?? '';
  const quote = quoteOf(bot.symbol);
  const reserved = await reservedByBots(db, trading, bot.userId, exchange, quote, bot.id);
  const available = free.minus(reserved);
  if (available.gte(needed)) return;
  const show = (d: Decimal) => d.toDecimalPlaces(2, 1).toFixed();
  if (reserved.isZero()) throw fail('StrategyInsufficientBalance', { values: { available: show(free), needed: needed.toFixed(), quote } });
  throw fail('StrategyCapitalReserved', { values: { free: show(free), reserved: show(reserved), available: show(available.isNegative() ? money(0) : available), needed: needed.toFixed(), quote } });
}

/** An account's balances with what its running and paused bots reserve of each currency, and what is left. */
export async function withReserved(
  db: Kysely<Database>,
  trading: Pick<MarketData, 'market'> & Pick<EngineSide, 'engine'>,
  userId: string,
  exchange: string,
  balances: readonly ExchangeBalance[],
): Promise<(ExchangeBalance & { reserved: string; available: string })[]> {
  return Promise.all(
    balances.map(async (b) => {
      const reserved = await reservedByBots(db, trading, userId, exchange, b.currency);
      const available = money(b.free).minus(reserved);
      return { ...b, reserved: reserved.toFixed(), available: (available.isNegative() ? money(0) : available).toFixed() };
    }),
  );
}
