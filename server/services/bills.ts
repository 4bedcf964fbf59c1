import { sql } from 'kysely';
import type { BillGroup, BillLog } from '../../contract/returns.ts';
import type { Page } from '../../contract/envelope.ts';
import type { Db } from '../db/connect.ts';
import { money } from '../../strategy/money.ts';
import { exchangeById, SIMULATED_EXCHANGE_IDS } from '../exchanges/catalog.ts';
import type { MarketData } from '../trading.ts';
import { floatingOf } from './bot-queries.ts';
import type { ModeFilter } from '../store/executor.ts';
import { holdingBots } from '../store/bot-lists.ts';
import { botInMode, cyclesWithBots, profitByBot, profitBySymbol } from '../store/bot-profits.ts';
import type Decimal from 'decimal.js';

const DAY_MS = 86_400_000;
const dayStart = (ms: number) => new Date(Math.floor(ms / DAY_MS) * DAY_MS);
const plain = (x: string | null | undefined) => money(x ?? '0').toFixed();

/** Live and simulated (Paper) bots are billed apart; no mode: both. */
export type TradingMode = 'live' | 'simulation' | undefined;
const filterOf = (mode: TradingMode): ModeFilter | undefined => (mode === undefined ? undefined : { simulatedIds: SIMULATED_EXCHANGE_IDS, simulation: mode === 'simulation' });
const modeOf = (mode: TradingMode, column: string) => botInMode({ simulatedIds: SIMULATED_EXCHANGE_IDS, simulation: mode === 'simulation' }, column);

/**
 * user/bill: realised profit today (UTC) and in total, numbers as the spec's bill summary is; and,
 * beside them, the floating PnL of what the bots hold at the price now (net of the sell fee, as a close
 * would get) and the total PnL, realised plus floating: a bot under water shows as such, not as its
 * realised profit alone. `unpriced`: bots holding a position whose price could not be read now (their
 * floating PnL is left out of the figures, and the screens say so).
 */
export async function billSummary(
  db: Db,
  trading: MarketData,
  userId: string,
  now = Date.now(),
  mode?: TradingMode,
): Promise<{ today: number; total: number; unrealized: number; totalPnl: number; unpriced: number }> {
  const [row, holders] = await Promise.all([realizedOf(db, userId, now, mode), holdersOf(db, userId, mode)]);
  const floating = await Promise.all(holders.map((h) => floatingOf(trading, h)));
  const unrealized = floating.reduce((sum, f) => (f === null ? sum : sum.plus(f)), money(0));
  const number = (x: Decimal | string | null) =>
    Number(
      money(x ?? '0')
        .toDecimalPlaces(8)
        .toFixed(),
    );
  return {
    today: number(row.today),
    total: number(row.total),
    unrealized: number(unrealized),
    totalPnl: number(money(row.total ?? '0').plus(unrealized)),
    unpriced: floating.filter((f) => f === null).length,
  };
}

/** The bots of the trader (in the mode) that hold a position: a martin, DCA or custom cycle's buys, a grid's base on its sell levels. */
function holdersOf(db: Db, userId: string, mode: TradingMode) {
  return holdingBots(db, { userId, mode: filterOf(mode) });
}

async function realizedOf(db: Db, userId: string, now: number, mode: TradingMode) {
  return db
    .selectFrom('bot_cycles')
    .select([(eb) => eb.fn.sum<string>('profit').as('total'), sql<string>`sum(case when closed_at >= ${dayStart(now)} then profit else 0 end)`.as('today')])
    .where('user_id', '=', userId)
    .$if(mode !== undefined, (q) => q.where(modeOf(mode, 'bot_id')))
    .executeTakeFirstOrThrow();
}

/** user/billLogs: every closed cycle, newest first. */
export async function billLogs(db: Db, userId: string, page: number, pageSize: number, mode?: TradingMode): Promise<Page<BillLog>> {
  const [rows, count] = await Promise.all([
    cyclesWithBots(db, { userId, mode: filterOf(mode), limit: pageSize, offset: (page - 1) * pageSize }),
    db
      .selectFrom('bot_cycles')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('user_id', '=', userId)
      .$if(mode !== undefined, (q) => q.where(modeOf(mode, 'bot_id')))
      .executeTakeFirstOrThrow(),
  ]);
  const list = rows.map((r) => ({
    id: String(r.id),
    botId: String(r.bot_id),
    botName: r.name,
    exchange: exchangeById(r.exchange_id)?.code ?? 'unknown',
    symbol: r.symbol,
    cycle: r.cycle,
    profit: plain(r.profit),
    closedAt: new Date(r.closed_at).toISOString(),
  }));
  return { list, total: Number(count.n), page, page_size: pageSize };
}

/** user/billGroup: profit by day over the last 30 days (every day listed), by bot and by symbol. */
export async function billGroup(db: Db, userId: string, now = Date.now(), mode?: TradingMode): Promise<BillGroup> {
  const since = dayStart(now - 29 * DAY_MS);
  const [days, bots, symbols] = await Promise.all([
    db
      .selectFrom('bot_cycles')
      .select([sql<string>`to_char(closed_at at time zone 'UTC', 'YYYY-MM-DD')`.as('day'), (eb) => eb.fn.sum<string>('profit').as('profit')])
      .where('user_id', '=', userId)
      .$if(mode !== undefined, (q) => q.where(modeOf(mode, 'bot_id')))
      .where('closed_at', '>=', since)
      .groupBy(sql`1`)
      .execute(),
    profitByBot(db, { userId, mode: filterOf(mode) }),
    profitBySymbol(db, { userId, mode: filterOf(mode) }),
  ]);
  const byDayMap = new Map(days.map((d) => [d.day, plain(d.profit)]));
  const byDay: BillGroup['byDay'] = [];
  for (let t = since.getTime(); t <= now; t += DAY_MS) {
    const day = new Date(t).toISOString().slice(0, 10);
    byDay.push({ day, profit: byDayMap.get(day) ?? '0' });
  }
  return {
    byDay,
    byBot: bots.map((b) => ({ botId: String(b.bot_id), botName: b.name, symbol: b.symbol, profit: plain(b.profit) })),
    bySymbol: symbols.map((s) => ({ symbol: s.symbol, profit: plain(s.profit) })),
  };
}
