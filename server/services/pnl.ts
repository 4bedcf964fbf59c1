import { sql, type Selectable } from 'kysely';
import type { PnlHistory } from '../../contract/bots.ts';
import type { Db } from '../db/connect.ts';
import type { BotsTable } from '../db/schema.ts';
import { SIMULATED_EXCHANGE_IDS } from '../exchanges/catalog.ts';
import { money } from '../../strategy/money.ts';
import { returnsOf } from '../../strategy/returns.ts';
import type { Trading } from '../trading.ts';
import { standings } from './bot-queries.ts';
import { fail } from './errors.ts';

const DAY_MS = 86_400_000;
const dayStart = (ms: number) => Math.floor(ms / DAY_MS) * DAY_MS;

/**
 * user/pnl (issue 14 §1): PnL over time of one bot of the trader's (`id`), or of all their bots (not
 * deleted; live or simulated ones by `mode`). Realised profit per UTC day of the last `days` days with
 * its running sum since the first cycle; the floating PnL and the returns now (docs/engine.md). For the
 * account: investment = the bots' investments summed, runtime = the longest of the bots' runtimes.
 */
export async function pnlHistory(
  db: Db,
  trading: Trading,
  userId: string,
  query: { id?: string | undefined; mode?: 'live' | 'simulation' | undefined; days: number },
  now = Date.now(),
): Promise<PnlHistory> {
  let q = db.selectFrom('bots').selectAll().where('user_id', '=', userId).where('deleted_at', 'is', null);
  if (query.id) q = q.where('id', '=', query.id);
  else if (query.mode) q = q.where('exchange_id', query.mode === 'simulation' ? 'in' : 'not in', SIMULATED_EXCHANGE_IDS);
  const bots: Selectable<BotsTable>[] = await q.orderBy('id').execute();
  if (query.id && bots.length === 0) throw fail('StrategyNotFound');

  const since = dayStart(now) - (query.days - 1) * DAY_MS;
  const ids = bots.map((b) => String(b.id));
  const [standing, before, byDay] = await Promise.all([
    standings(db, trading, bots, now),
    ids.length === 0
      ? Promise.resolve(undefined)
      : db
          .selectFrom('bot_cycles')
          .select((eb) => eb.fn.sum<string>('profit').as('p'))
          .where('user_id', '=', userId)
          .where('bot_id', 'in', ids)
          .where('closed_at', '<', new Date(since))
          .executeTakeFirst(),
    ids.length === 0
      ? Promise.resolve([])
      : db
          .selectFrom('bot_cycles')
          .select([sql<string>`to_char(closed_at at time zone 'UTC', 'YYYY-MM-DD')`.as('day'), (eb) => eb.fn.sum<string>('profit').as('profit')])
          .where('user_id', '=', userId)
          .where('bot_id', 'in', ids)
          .where('closed_at', '>=', new Date(since))
          .groupBy(sql`1`)
          .execute(),
  ]);

  let realized = money(0);
  let unrealized = money(0);
  let investment = money(0);
  let runtime = 0;
  let unpriced = 0;
  for (const bot of bots) {
    const s = standing.get(String(bot.id))!;
    realized = realized.plus(money(bot.realized));
    investment = investment.plus(money((bot.params as { investment: string }).investment));
    runtime = Math.max(runtime, s.runtime);
    if (s.unrealized === null) unpriced++;
    else unrealized = unrealized.plus(money(s.unrealized));
  }
  const r = returnsOf({ realized, unrealized, investment, runtimeSeconds: runtime });

  const profits = new Map(byDay.map((d) => [d.day, money(d.profit)]));
  let cumulative = money(before?.p ?? '0');
  const points: PnlHistory['points'] = [];
  for (let t = since; t <= now; t += DAY_MS) {
    const day = new Date(t).toISOString().slice(0, 10);
    const profit = profits.get(day) ?? money(0);
    cumulative = cumulative.plus(profit);
    points.push({ day, profit: profit.toFixed(), cumulative: cumulative.toFixed() });
  }
  return {
    realized: realized.toFixed(),
    unrealized: unrealized.toFixed(),
    total: r.total,
    investment: investment.toFixed(),
    roi: r.roi,
    apr: r.apr,
    runtime,
    unpriced,
    days: query.days,
    points,
  };
}
