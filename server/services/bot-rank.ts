import { sql } from 'kysely';
import type { DcaParamsInput } from '../../contract/bots.ts';
import { scheduleAt } from '../../contract/schedule-at.ts';
import type { BotRankEntry, RankPeriod } from '../../contract/schemas.ts';
import type { Db } from '../db/connect.ts';
import { exchangeById, SIMULATED_EXCHANGE_IDS } from '../exchanges/catalog.ts';
import { money } from '../../strategy/money.ts';
import { runtimeOf } from '../../strategy/returns.ts';
import { inputParamsOf, startsAndStops } from './bot-queries.ts';

/**
 * The strategy rank: bots ordered by the return on their investment of the
 * cycles they closed in the period, live and simulated bots apart, deleted bots left out. An entry says
 * what a bot trades and how it did (profit, ROI, the largest fall of its realised profit, runtime); its
 * parameters, for a trader to copy into a bot of their own, only when its owner shares them (bots.share_rules,
 * off by default: a bot's rules are its owner's work), and a DCA schedule then in UTC (its owner's UTC
 * offset says where they live). Never its owner, its name (a name can say who) or its id.
 */
const periodDays: Record<RankPeriod, number | null> = { '1d': 1, '7d': 7, '30d': 30, all: null };

type Row = {
  bot_id: string;
  user_id: string;
  type: string;
  exchange_id: number;
  symbol: string;
  params: unknown;
  share_rules: boolean;
  status: string;
  profit: string;
  cycles: string;
  roi: string;
  place: string;
};

export async function botRank(
  db: Db,
  userId: string,
  options: { page: number; limit: number; period: RankPeriod; mode: 'live' | 'simulation'; now?: number },
): Promise<{ list: BotRankEntry[]; total: number; page: number; page_size: number; period: RankPeriod; mode: 'live' | 'simulation' }> {
  const now = options.now ?? Date.now();
  const days = periodDays[options.period];
  const since = days === null ? new Date(0) : new Date(now - days * 86_400_000);
  const paper = options.mode === 'simulation';
  const ranked = sql<Row>`
    with totals as (
      select c.bot_id, sum(c.profit) as profit, count(*) as cycles
      from bot_cycles c join bots b on b.id = c.bot_id
      where c.closed_at >= ${since} and b.deleted_at is null and (b.exchange_id in (${sql.join(SIMULATED_EXCHANGE_IDS)})) = ${paper}
      group by c.bot_id
    ), scored as (
      select t.bot_id, t.profit, t.cycles, b.user_id, b.type, b.exchange_id, b.symbol, b.params, b.share_rules, b.status,
        t.profit * 100 / nullif((b.params->>'investment')::numeric, 0) as roi
      from totals t join bots b on b.id = t.bot_id
    )
    select *, rank() over (order by roi desc nulls last) as place from scored`;
  const offset = (options.page - 1) * options.limit;
  const [list, total] = await Promise.all([
    sql<Row>`select * from (${ranked}) r order by place, bot_id limit ${options.limit} offset ${offset}`.execute(db),
    sql<{ n: string }>`select count(*) as n from (${ranked}) r`.execute(db),
  ]);
  const ids = list.rows.map((r) => String(r.bot_id));
  const [cycles, runs] = await Promise.all([cyclesOf(db, ids, since), startsAndStops(db, ids)]);
  return {
    list: list.rows.map((r) => {
      const id = String(r.bot_id);
      const investment = money(String((r.params as { investment?: string }).investment ?? '0'));
      const run = runs.get(id);
      return {
        rank: Number(r.place),
        type: r.type === 'grid' ? 'grid' : r.type === 'dca' ? 'dca' : r.type === 'custom' ? 'custom' : 'martin',
        exchange: exchangeById(r.exchange_id)?.code ?? 'unknown',
        symbol: r.symbol,
        profit: money(r.profit).toDecimalPlaces(8).toFixed(),
        roiPct: money(r.roi ?? '0')
          .toDecimalPlaces(2)
          .toFixed(),
        maxDrawdownPct: investment.isZero()
          ? '0'
          : maxFall(cycles.get(id) ?? [])
              .mul(100)
              .div(investment)
              .toDecimalPlaces(2)
              .toFixed(),
        runtime: runtimeOf(run?.first ?? null, run?.lastStop ?? null, r.status === 'stopped', now),
        cycles: Number(r.cycles),
        params: r.share_rules ? sharedParams(r.type, r.params) : null,
        mine: String(r.user_id) === String(userId),
      };
    }),
    total: Number(total.rows[0]?.n ?? 0),
    page: options.page,
    page_size: options.limit,
    period: options.period,
    mode: options.mode,
  };
}

/** A shared bot's parameters as a copy takes them, a DCA schedule told in UTC. */
function sharedParams(type: string, stored: unknown): BotRankEntry['params'] {
  const params = inputParamsOf(type, stored);
  if (type === 'dca' && 'start' in params && params.start.kind === 'schedule') return { ...params, start: scheduleAt(params.start, 0) } as DcaParamsInput;
  return params;
}

/** The largest fall of a running sum from its peak (0 when it never falls), the sum starting at 0. */
export function maxFall(profits: readonly string[]) {
  let sum = money(0);
  let peak = money(0);
  let fall = money(0);
  for (const p of profits) {
    sum = sum.plus(p);
    if (sum.gt(peak)) peak = sum;
    if (peak.minus(sum).gt(fall)) fall = peak.minus(sum);
  }
  return fall;
}

async function cyclesOf(db: Db, ids: string[], since: Date): Promise<Map<string, string[]>> {
  if (ids.length === 0) return new Map();
  const rows = await db.selectFrom('bot_cycles').select(['bot_id', 'profit']).where('bot_id', 'in', ids).where('closed_at', '>=', since).orderBy('closed_at').orderBy('id').execute();
  const out = new Map<string, string[]>();
  for (const r of rows) out.set(String(r.bot_id), [...(out.get(String(r.bot_id)) ?? []), String(r.profit)]);
  return out;
}
