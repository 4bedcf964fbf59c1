import { sql } from 'kysely';
import type { BotRankEntry, RankPeriod } from '../../contract/community.ts';
import type { Db } from '../db/connect.ts';
import { exchangeById, SIMULATED_EXCHANGE_IDS } from '../exchanges/catalog.ts';
import { money } from '../../strategy/money.ts';
import { runtimeOf } from '../../strategy/returns.ts';
import { floatingOf, startsAndStops } from './bot-queries.ts';
import { kitOf } from '../../strategy/kit.ts';
import { rankCandidates } from '../store/bot-profits.ts';
import { withFields } from '../store/bot-fields.ts';
import type { MarketData } from '../trading.ts';
import type Decimal from 'decimal.js';

/**
 * The strategy rank: bots ordered by their total return on their investment in the period, realised
 * profit and floating PnL together (what a copier would have made, not only the cycles a bot chose to
 * close), live and simulated bots apart, deleted bots left out. A bot is on it when it closed a cycle
 * in the period or holds a position now. An entry says what a bot trades and how it did: its realised
 * profit and ROI, its total PnL and ROI (with the floating PnL now, less what was floating when the
 * period began), the largest fall of its equity in the period (realised and floating, from the daily
 * snapshots and now), its runtime and cycles; its parameters, for a trader to copy into a bot of their
 * own, only when its owner shares them (bots.share_rules, off by default: a bot's rules are its owner's
 * work), and a DCA schedule then in UTC (its owner's UTC offset says where they live). Never its owner,
 * its name (a name can say who) or its id.
 */
const periodDays: Record<RankPeriod, number | null> = { '1d': 1, '7d': 7, '30d': 30, all: null };
const DAY_MS = 86_400_000;

export async function botRank(
  db: Db,
  trading: MarketData,
  userId: string,
  options: { page: number; limit: number; period: RankPeriod; mode: 'live' | 'simulation'; now?: number },
): Promise<{ list: BotRankEntry[]; total: number; page: number; page_size: number; period: RankPeriod; mode: 'live' | 'simulation' }> {
  const now = options.now ?? Date.now();
  const days = periodDays[options.period];
  const since = days === null ? new Date(0) : new Date(now - days * DAY_MS);
  const bots = withFields(await rankCandidates(db, { since, mode: { simulatedIds: SIMULATED_EXCHANGE_IDS, simulation: options.mode === 'simulation' } }));
  const ids = bots.map((b) => String(b.id));
  const [cycles, snapshots, floating] = await Promise.all([cyclesOf(db, ids, since), snapshotsOf(db, ids, since, days !== null), Promise.all(bots.map((b) => floatingOf(trading, b)))]);
  const scored = bots.map((b, i) => {
    const id = String(b.id);
    // A row written by hand (a test's `{}` parameters) has no investment: its ROI reads 0.
    const investment = money(String(b.fields.investment ?? '0'));
    const own = cycles.get(id) ?? [];
    const realized = own.reduce((sum, c) => sum.plus(c.profit), money(0));
    const snaps = snapshots.get(id) ?? { before: null, days: [] };
    // What was floating when the period began is not the period's: it counts from there.
    const base = days === null ? money(0) : (snaps.before ?? money(0));
    const floatNow = floating[i] === null || floating[i] === undefined ? null : money(floating[i]!);
    const total = realized.plus(floatNow ?? base).minus(base);
    const roi = (x: Decimal) => (investment.isZero() ? money(0) : x.mul(100).div(investment));
    return { bot: b, id, investment, realized, total, roi: roi(total), realizedRoi: roi(realized), fall: equityFall(own, snaps.days, base, total), cycles: own.length };
  });
  // Best total ROI first; equal ones by id (a stable order across pages).
  scored.sort((a, b) => b.roi.cmp(a.roi) || Number(a.id) - Number(b.id));
  const offset = (options.page - 1) * options.limit;
  const page = scored.slice(offset, offset + options.limit);
  const runs = await startsAndStops(
    db,
    page.map((p) => p.id),
  );
  // Equal ROIs share a place (1, 2, 2, 4), as SQL's rank() numbered them.
  const ranks: number[] = [];
  for (let i = 0; i < scored.length; i++) ranks.push(i > 0 && scored[i]!.roi.eq(scored[i - 1]!.roi) ? ranks[i - 1]! : i + 1);
  return {
    list: page.map((p, j) => {
      const run = runs.get(p.id);
      const r = p.bot;
      return {
        rank: ranks[offset + j]!,
        type: r.type as BotRankEntry['type'],
        exchange: exchangeById(r.exchange_id)?.code ?? 'unknown',
        symbol: r.symbol,
        profit: p.realized.toDecimalPlaces(8).toFixed(),
        roiPct: p.realizedRoi.toDecimalPlaces(2).toFixed(),
        totalPnl: p.total.toDecimalPlaces(8).toFixed(),
        totalRoiPct: p.roi.toDecimalPlaces(2).toFixed(),
        maxDrawdownPct: p.investment.isZero() ? '0' : p.fall.mul(100).div(p.investment).toDecimalPlaces(2).toFixed(),
        runtime: runtimeOf(run?.first ?? null, run?.lastStop ?? null, r.status === 'stopped', now),
        cycles: p.cycles,
        params: r.share_rules ? sharedParams(r.type, r.params) : null,
        mine: String(r.user_id) === String(userId),
      };
    }),
    total: scored.length,
    page: options.page,
    page_size: options.limit,
    period: options.period,
    mode: options.mode,
  };
}

/**
 * The largest fall of a bot's equity in the period from its peak, the equity starting at 0: its closed
 * cycles' running sum, each day's snapshot adding what was floating then (less what was floating when
 * the period began), and now the total. A bot under water shows its fall, even with no cycle closed.
 */
function equityFall(cycles: readonly { profit: string; at: number }[], snapshots: readonly { at: number; unrealized: Decimal }[], base: Decimal, total: Decimal): Decimal {
  const points: { at: number; value: (realized: Decimal) => Decimal; cycle?: string }[] = [
    ...cycles.map((c) => ({ at: c.at, value: (r: Decimal) => r, cycle: c.profit })),
    ...snapshots.map((s) => ({ at: s.at, value: (r: Decimal) => r.plus(s.unrealized).minus(base) })),
  ].sort((a, b) => a.at - b.at);
  let realized = money(0);
  let peak = money(0);
  let fall = money(0);
  const see = (v: Decimal) => {
    if (v.gt(peak)) peak = v;
    if (peak.minus(v).gt(fall)) fall = peak.minus(v);
  };
  for (const p of points) {
    if (p.cycle !== undefined) realized = realized.plus(p.cycle);
    see(p.value(realized));
  }
  see(total);
  return fall;
}

/** A shared bot's parameters as a copy takes them (what depends on its owner's clock told in UTC: kit.shared). */
function sharedParams(type: string, stored: unknown): BotRankEntry['params'] {
  const kit = kitOf(type);
  const params = kit.input(stored);
  return (kit.shared ? kit.shared(params) : params) as BotRankEntry['params'];
}

async function cyclesOf(db: Db, ids: string[], since: Date): Promise<Map<string, { profit: string; at: number }[]>> {
  if (ids.length === 0) return new Map();
  const rows = await db.selectFrom('bot_cycles').select(['bot_id', 'profit', 'closed_at']).where('bot_id', 'in', ids).where('closed_at', '>=', since).orderBy('closed_at').orderBy('id').execute();
  const out = new Map<string, { profit: string; at: number }[]>();
  for (const r of rows) out.set(String(r.bot_id), [...(out.get(String(r.bot_id)) ?? []), { profit: String(r.profit), at: new Date(r.closed_at).getTime() }]);
  return out;
}

/**
 * Each bot's daily snapshots in the period (the floating PnL at the end of each day it held a position)
 * and, for a period with a start, the floating PnL of the last snapshot before it (what was floating
 * then, not the period's).
 */
async function snapshotsOf(db: Db, ids: string[], since: Date, bounded: boolean): Promise<Map<string, { before: Decimal | null; days: { at: number; unrealized: Decimal }[] }>> {
  const out = new Map<string, { before: Decimal | null; days: { at: number; unrealized: Decimal }[] }>();
  if (ids.length === 0) return out;
  const { rows } = await sql<{ bot_id: string; taken_at: Date; unrealized: string }>`
    select bot_id, taken_at, unrealized from bot_pnl_days where bot_id in (${sql.join(ids)}) and taken_at >= ${new Date(since.getTime() - 2 * DAY_MS)} order by taken_at`.execute(db);
  for (const r of rows) {
    const entry = out.get(String(r.bot_id)) ?? { before: null, days: [] };
    const at = new Date(r.taken_at).getTime();
    if (bounded && at < since.getTime()) entry.before = money(r.unrealized);
    else entry.days.push({ at, unrealized: money(r.unrealized) });
    out.set(String(r.bot_id), entry);
  }
  return out;
}
