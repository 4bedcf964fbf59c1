import type { ActionKind, BotLogLine, BuiltBotType } from '../../contract/bots.ts';
import type { Page } from '../../contract/envelope.ts';
import type { Db } from '../db/connect.ts';
import { isOwnBotEver } from '../store/bot-rows.ts';
import { pageOwnerActions } from '../store/bot-actions.ts';
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
    if (!(await isOwnBotEver(db, { userId, id: filter.bot }))) throw fail('StrategyNotFound');
  }
  const { rows, total } = await pageOwnerActions(db, {
    filter: { userId, botId: filter.bot, kind: filter.kind, since, until },
    limit: filter.pageSize,
    offset: (filter.page - 1) * filter.pageSize,
  });
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
  return { list, total, page: filter.page, page_size: filter.pageSize };
}
