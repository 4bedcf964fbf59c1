import type { ActionKind, BotLogLine, BuiltBotType } from '../../contract/bots.ts';
import type { Page } from '../../contract/envelope.ts';
import type { Db } from '../db/connect.ts';
import { exchangeById } from '../exchanges/catalog.ts';
import { fail } from '../errors.ts';

const DAY_MS = 86_400_000;

export interface LogFilter {
  page: number;
  pageSize: number;
  /** One bot of the trader's (another's, or an unknown id: StrategyNotFound). */
  bot?: string | undefined;
  kind?: ActionKind | undefined;
  /** Days, YYYY-MM-DD, both included, in the trader's time zone. */
  from?: string | undefined;
  to?: string | undefined;
  /** That time zone, minutes east of UTC (480 for UTC+8); 0 when absent. */
  tz?: number | undefined;
}

/**
 * user/actions: the log of every bot of the trader's, deleted ones included, newest
 * first, one page at a time. The owner filter is the join on the bot's user: no other row is read.
 */
export async function allActions(db: Db, userId: string, filter: LogFilter): Promise<Page<BotLogLine>> {
  // A day starts at the trader's midnight: UTC midnight less their offset (UTC+8's day starts at 16:00 UTC the day before).
  const shift = (filter.tz ?? 0) * 60_000;
  const since = filter.from ? new Date(Date.parse(`${filter.from}T00:00:00Z`) - shift) : null;
  const until = filter.to ? new Date(Date.parse(`${filter.to}T00:00:00Z`) + DAY_MS - shift) : null;
  if (since && until && since >= until) throw fail('InvalidDateRange');
  if (filter.bot) {
    const own = await db.selectFrom('bots').select('id').where('id', '=', filter.bot).where('user_id', '=', userId).executeTakeFirst();
    if (!own) throw fail('StrategyNotFound');
  }
  const q = db
    .selectFrom('bot_actions as a')
    .innerJoin('bots as b', 'b.id', 'a.bot_id')
    .where('b.user_id', '=', userId)
    .$if(filter.bot !== undefined, (w) => w.where('a.bot_id', '=', filter.bot!))
    .$if(filter.kind !== undefined, (w) => w.where('a.kind', '=', filter.kind!))
    .$if(since !== null, (w) => w.where('a.created_at', '>=', since!))
    .$if(until !== null, (w) => w.where('a.created_at', '<', until!));
  const [rows, count] = await Promise.all([
    q
      .select(['a.id', 'a.bot_id', 'a.kind', 'a.detail', 'a.created_at', 'b.name', 'b.type', 'b.exchange_id', 'b.symbol'])
      .orderBy('a.id', 'desc')
      .limit(filter.pageSize)
      .offset((filter.page - 1) * filter.pageSize)
      .execute(),
    q.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
  ]);
  const list = rows.map((r) => ({
    id: String(r.id),
    botId: String(r.bot_id),
    kind: r.kind as ActionKind,
    detail: r.detail,
    at: new Date(r.created_at).toISOString(),
    botName: r.name,
    type: r.type as BuiltBotType,
    exchange: exchangeById(r.exchange_id)?.code ?? 'unknown',
    symbol: r.symbol,
  }));
  return { list, total: Number(count.n), page: filter.page, page_size: filter.pageSize };
}
