import { sql } from 'kysely';
import type Decimal from 'decimal.js';
import type { PnlHistory } from '../../contract/returns.ts';
import type { Db } from '../db/connect.ts';
import { SIMULATED_EXCHANGE_IDS } from '../exchanges/catalog.ts';
import { money } from '../../strategy/money.ts';
import { returnsOf, runtimeOf } from '../../strategy/returns.ts';
import type { MarketData } from '../trading.ts';
import { floatingOf, standings, startsAndStops } from './bot-queries.ts';
import { fail } from '../errors.ts';
import { botsToSnapshot, pnlBots } from '../store/bot-lists.ts';

const DAY_MS = 86_400_000;
const dayStart = (ms: number) => Math.floor(ms / DAY_MS) * DAY_MS;
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * user/pnl: PnL over time of one bot of the trader's (`id`, not deleted), or of all their
 * bots (live or simulated ones by `mode`), deleted ones included as the bill includes them: a deleted
 * bot counts as a stopped one holding nothing (its realised profit, investment and runtime up to its last
 * stop or its deletion; no floating PnL, what it held is no longer the bot's). One point per day of the
 * last `days` days, in the trader's time zone (`utcOffset`, minutes east of UTC, as the screens date the
 * logs; 0: UTC): the day's realised profit, its running sum since the first cycle, and the total PnL
 * of the day = realised + floating. A past day's total is, for each bot with a snapshot of that day
 * (bot_pnl_days, snapshotPnl), its realised and floating PnL when the snapshot was taken, and for the
 * others their realised running sum; today's is the live figures (docs/engine.md "Returns").
 */
export async function pnlHistory(
  db: Db,
  trading: MarketData,
  userId: string,
  query: { id?: string | undefined; mode?: 'live' | 'simulation' | undefined; days: number; utcOffset?: number | undefined },
  now = Date.now(),
): Promise<PnlHistory> {
  const offsetMs = (query.utcOffset ?? 0) * 60_000;
  // The trader's day of a moment, and the moment their day starts.
  const localDay = (ms: number) => dayOf(ms + offsetMs);
  const bots = await pnlBots(db, { userId, id: query.id, mode: query.mode ? { simulatedIds: SIMULATED_EXCHANGE_IDS, simulation: query.mode === 'simulation' } : undefined });
  if (query.id && bots.length === 0) throw fail('StrategyNotFound');
  const present = bots.filter((b) => b.deleted_at === null);
  const deleted = bots.filter((b) => b.deleted_at !== null);

  const today = dayStart(now + offsetMs) - offsetMs;
  const since = today - (query.days - 1) * DAY_MS;
  const ids = bots.map((b) => String(b.id));
  const none = ids.length === 0;
  const [standing, runs, before, byDay, snapshots] = await Promise.all([
    standings(db, trading, present, now),
    startsAndStops(
      db,
      deleted.map((b) => String(b.id)),
    ),
    none
      ? Promise.resolve([])
      : db
          .selectFrom('bot_cycles')
          .select(['bot_id', (eb) => eb.fn.sum<string>('profit').as('profit')])
          .where('user_id', '=', userId)
          .where('bot_id', 'in', ids)
          .where('closed_at', '<', new Date(since))
          .groupBy('bot_id')
          .execute(),
    none
      ? Promise.resolve([])
      : db
          .selectFrom('bot_cycles')
          .select([
            'bot_id',
            sql<string>`to_char((closed_at at time zone 'UTC') + ${query.utcOffset ?? 0} * interval '1 minute', 'YYYY-MM-DD')`.as('day'),
            (eb) => eb.fn.sum<string>('profit').as('profit'),
          ])
          .where('user_id', '=', userId)
          .where('bot_id', 'in', ids)
          .where('closed_at', '>=', new Date(since))
          .groupBy(['bot_id', sql`2`])
          .execute(),
    none
      ? Promise.resolve([])
      : sql<{ bot_id: string; taken_at: Date | string; realized: string; unrealized: string }>`
          select bot_id, taken_at, realized, unrealized from bot_pnl_days
          where user_id = ${userId} and bot_id in (${sql.join(ids)}) and taken_at >= ${new Date(since)} and taken_at < ${new Date(today)}`
          .execute(db)
          .then((r) => r.rows),
  ]);

  let realized = money(0);
  let unrealized = money(0);
  let investment = money(0);
  let runtime = 0;
  let unpriced = 0;
  for (const bot of bots) {
    realized = realized.plus(money(bot.realized));
    investment = investment.plus(money(bot.fields.investment));
    const s = standing.get(String(bot.id));
    if (!s) {
      // Deleted: its run ended at its last stop, or at its deletion when it was not stopped before.
      const run = runs.get(String(bot.id));
      const first = run?.first ?? null;
      const stop = run?.lastStop ?? null;
      const end = first !== null && stop !== null && stop >= first ? stop : new Date(bot.deleted_at!).getTime();
      runtime = Math.max(runtime, runtimeOf(first, end, true, now));
      continue;
    }
    runtime = Math.max(runtime, s.runtime);
    if (s.unrealized === null) unpriced++;
    else unrealized = unrealized.plus(money(s.unrealized));
  }
  const r = returnsOf({ realized, unrealized, investment, runtimeSeconds: runtime });

  // Each bot's realised running sum, carried day by day; a day's total swaps the running sum of each bot
  // with a snapshot that day for the snapshot's realised + floating.
  const botSum = new Map<string, Decimal>(before.map((b) => [String(b.bot_id), money(b.profit)]));
  let cumulative = before.reduce((s, b) => s.plus(money(b.profit)), money(0));
  const cycles = new Map<string, { bot: string; profit: Decimal }[]>();
  for (const c of byDay) cycles.set(c.day, [...(cycles.get(c.day) ?? []), { bot: String(c.bot_id), profit: money(c.profit) }]);
  // A past day's figures are the latest snapshot taken in that day of the trader's (the duty takes one a
  // day, at 23:50 UTC: the end of a UTC day; east of UTC it falls early in the trader's next day).
  const snaps = new Map<string, Map<string, { realized: Decimal; unrealized: Decimal; at: number }>>();
  for (const s of snapshots) {
    const at = new Date(s.taken_at).getTime();
    const day = localDay(at);
    const ofDay = snaps.get(day) ?? new Map();
    const bot = String(s.bot_id);
    if ((ofDay.get(bot)?.at ?? -1) < at) ofDay.set(bot, { realized: money(s.realized), unrealized: money(s.unrealized), at });
    snaps.set(day, ofDay);
  }
  const points: PnlHistory['points'] = [];
  for (let t = since; t <= now; t += DAY_MS) {
    const day = localDay(t);
    let profit = money(0);
    for (const c of cycles.get(day) ?? []) {
      profit = profit.plus(c.profit);
      botSum.set(c.bot, (botSum.get(c.bot) ?? money(0)).plus(c.profit));
    }
    cumulative = cumulative.plus(profit);
    let floating: Decimal | null = null;
    let total = cumulative;
    if (t === today) {
      floating = unrealized;
      total = realized.plus(unrealized);
    } else {
      for (const [bot, s] of snaps.get(day) ?? []) {
        floating = (floating ?? money(0)).plus(s.unrealized);
        total = total
          .minus(botSum.get(bot) ?? money(0))
          .plus(s.realized)
          .plus(s.unrealized);
      }
    }
    points.push({ day, profit: profit.toFixed(), cumulative: cumulative.toFixed(), unrealized: floating === null ? null : floating.toFixed(), total: total.toFixed() });
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

/**
 * The maintenance duty's daily PnL snapshot: for every running or holding bot, its realised
 * profit and floating PnL now, as the row of this UTC day (one per bot and day: a second run the same day
 * replaces the figures with its newer ones, so the day keeps the latest taken). A bot whose price cannot be
 * read now is left out (an earlier row of the day stays). Bots are valued `batch` at a time; answers the rows written.
 */
export async function snapshotPnl(db: Db, trading: MarketData, now = Date.now(), batch = 100): Promise<number> {
  const rows = await botsToSnapshot(db);
  const day = dayOf(now);
  const takenAt = new Date(now);
  let written = 0;
  for (let i = 0; i < rows.length; i += batch) {
    const part = rows.slice(i, i + batch);
    const floating = await Promise.all(part.map((row) => floatingOf(trading, row)));
    const values = part.flatMap((row, j) => {
      const u = floating[j];
      return u === null || u === undefined
        ? []
        : [sql`(${String(row.id)}::bigint, ${String(row.user_id)}::bigint, ${day}::date, ${money(row.realized).toFixed()}::numeric, ${u}::numeric, ${takenAt})`];
    });
    if (values.length === 0) continue;
    await sql`
      insert into bot_pnl_days (bot_id, user_id, day, realized, unrealized, taken_at) values ${sql.join(values)}
      on conflict (bot_id, day) do update set realized = excluded.realized, unrealized = excluded.unrealized, taken_at = excluded.taken_at
      where bot_pnl_days.taken_at <= excluded.taken_at`.execute(db);
    written += values.length;
  }
  return written;
}

/** The next time the daily snapshot is due after `now`: 23:50 UTC, so that a day keeps its figures near its end. */
export function nextSnapshotAt(now = Date.now()): number {
  const at = dayStart(now) + DAY_MS - 10 * 60_000;
  return at > now ? at : at + DAY_MS;
}

/** Drops the snapshots older than any chart reads (365 days), with a margin. */
export async function prunePnlSnapshots(db: Db, now = Date.now()): Promise<number> {
  const result = await sql`delete from bot_pnl_days where day < ${dayOf(dayStart(now) - 400 * DAY_MS)}::date`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}
