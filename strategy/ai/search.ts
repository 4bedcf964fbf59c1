import { DEFAULT_SLIPPAGE, pathFrom, type CandleColumns, type FillModel } from '../backtest.ts';
import { backtestReport, type BacktestReport } from '../backtest-report.ts';
import { gridKit, martinKit } from '../kit.ts';
import { validateGrid } from '../grid/plan.ts';
import type { GridParams } from '../grid/rules.ts';
import { validateMartin } from '../martin/plan.ts';
import type { MartinParams } from '../martin/rules.ts';
import type { MarketRules } from '../core/market.ts';
import { floorTo, money } from '../money.ts';

/**
 * The AI bot's parameter search: candidate martin and grid configurations for the
 * trader's investment are backtested through the engine's own strategies on the last 30 and 7 days,
 * those whose 30-day drawdown breaks the risk level's limit are dropped, and the rest are ranked by
 * return over drawdown^w (w = 1.5 conservative, 1 balanced, 0.5 aggressive; 30 days weighted 0.7, 7 days 0.3). Pure and deterministic: the same
 * history gives the same proposals (ties keep the candidates' fixed order). The backtests fill as every
 * backtest does (strategy/backtest.ts): at the trigger price, the open on a gap, with the slippage
 * (default 0.05 %).
 */
export const riskLevels = ['conservative', 'balanced', 'aggressive'] as const;
export type RiskLevel = (typeof riskLevels)[number];
/** The largest 30-day drawdown (percent) each risk level accepts. */
export const drawdownLimit: Record<RiskLevel, number> = { conservative: 5, balanced: 10, aggressive: 25 };
/** How much each level minds drawdown: a score is return / drawdown^weight. */
const drawdownWeight: Record<RiskLevel, number> = { conservative: 1.5, balanced: 1, aggressive: 0.5 };

/** A martin configuration, or a grid's shape: its range is ±width% around the price it starts at. */
/** The bot types the search proposes. */
export const SEARCHED_TYPES = ['martin', 'grid'] as const;
export type Candidate = { type: 'martin'; params: MartinParams } | { type: 'grid'; shape: { width: string; grids: number; spacing: GridParams['spacing'] } };
/** A configuration to run: a grid's range placed around a price. */
export type Configuration = { type: 'martin'; params: MartinParams } | { type: 'grid'; params: GridParams };

/** The configuration of a candidate started at `price`. */
export function configure(c: Candidate, investment: string, price: number, market: MarketRules): Configuration {
  if (c.type === 'martin') return c;
  const p = money(String(price));
  const w = money(c.shape.width).div(100);
  return {
    type: 'grid',
    params: {
      investment,
      lower: floorTo(p.mul(money(1).minus(w)), market.tickSize).toFixed(),
      upper: floorTo(p.mul(money(1).plus(w)), market.tickSize).toFixed(),
      grids: c.shape.grids,
      spacing: c.shape.spacing,
    },
  };
}

export interface Scored {
  candidate: Candidate;
  /** The candidate started at the price now: what the trader would run. */
  configuration: Configuration;
  score: number;
  d30: Figures;
  d7: Figures;
  /** The 30-day equity curve (for the screen). */
  equity: BacktestReport['equity'];
}

export interface Figures {
  returnPct: number;
  maxDrawdownPct: number;
  realized: string;
  cycles: number;
}

const multipliers = ['1.2', '1.35', '1.5', '2'];
const positions = [3, 4, 5, 6, 7, 8];
const triggers = ['1', '1.5', '2', '3', '4'];
const takeProfits = ['0.8', '1', '1.5', '2', '3'];
const widths = ['5', '8', '12', '16', '20'];
const gridCounts = [4, 6, 8, 12, 16, 24, 32];

/** Every candidate for an investment at a price: up to 600 martin and 70 grid configurations (those the market accepts there). */
export function candidates(investment: string, price: number, market: MarketRules): Candidate[] {
  const out: Candidate[] = [];
  const inv = money(investment);
  const p = money(String(price));
  for (const multiplier of multipliers) {
    for (const maxPositions of positions) {
      // The first order that makes the whole cycle fit the investment.
      let units = money(0);
      for (let i = 0; i < maxPositions; i++) units = units.plus(money(multiplier).pow(i));
      const firstOrder = floorTo(inv.div(units), money('0.01')).toFixed();
      for (const addTrigger of triggers) {
        for (const takeProfit of takeProfits) {
          const params: MartinParams = { investment, firstOrder, multiplier, maxPositions, addTrigger, takeProfit, repeat: true };
          if (validateMartin(params, market, p).length === 0) out.push({ type: 'martin', params });
        }
      }
    }
  }
  for (const width of widths) {
    for (const grids of gridCounts) {
      for (const spacing of ['arithmetic', 'geometric'] as const) {
        const c: Candidate = { type: 'grid', shape: { width, grids, spacing } };
        const g = configure(c, investment, price, market);
        if (validateGrid(g.params as GridParams, market, p).length === 0) out.push(c);
      }
    }
  }
  return out;
}

const figures = (r: BacktestReport): Figures => ({ returnPct: r.returnPct, maxDrawdownPct: r.maxDrawdownPct, realized: r.realized, cycles: r.cycles });

/** A candidate backtested on a window, started at the window's first price. */
function report(c: Candidate, investment: string, market: MarketRules, candles: CandleColumns & { time: Float64Array }, fill: FillModel, resting: readonly string[]): BacktestReport {
  const run = configure(c, investment, candles.open[0]!, market);
  const filled = { ...fill, resting: resting.includes(run.type) };
  return run.type === 'martin'
    ? backtestReport(martinKit.backtest, { params: run.params, market }, candles, filled)
    : backtestReport(gridKit.backtest, { params: run.params, market }, candles, filled);
}

/** The last `n` candles of a history (a view, not a copy). */
export function tail(c: CandleColumns & { time: Float64Array }, n: number): CandleColumns & { time: Float64Array } {
  const from = Math.max(0, c.close.length - n);
  const view = { time: c.time.subarray(from), open: c.open.subarray(from), high: c.high.subarray(from), low: c.low.subarray(from), close: c.close.subarray(from) };
  return c.path ? { ...view, path: pathFrom(c.path, from) } : view;
}

export interface SearchResult {
  proposals: Scored[];
  /** Candidates tried, and those kept within the risk limit. */
  tried: number;
  kept: number;
  limit: number;
  /** The slippage the backtests assumed (a fraction). */
  slippage: string;
}

export interface SearchInput {
  investment: string;
  risk: RiskLevel;
  market: MarketRules;
  history: CandleColumns & { time: Float64Array };
  recent: number;
  top?: number;
  slippage?: string | undefined;
  /** The bot types whose orders rest on the book as the live engine rests them (FillModel.resting); none by default. */
  resting?: readonly string[] | undefined;
  /**
   * Only the candidates i with i % of === index (a search split over threads, each part on a core; the
   * parts' answers are merged by mergeSearches into what one search over all of them answers).
   */
  part?: { index: number; of: number } | undefined;
  /** Told after each candidate how many of them are done (the server reports it to the waiting screen). */
  onProgress?: ((done: number, total: number) => void) | undefined;
}

/** A kept candidate, with its place in the candidates' order (equal scores keep that order). */
type Ranked = Scored & { rank: number };

/** Best first; equal scores in the candidates' order. */
const byScore = (a: Ranked, b: Ranked) => b.score - a.score || a.rank - b.rank;

/**
 * The best `top`, at most two of one type when the other type has any. `kept` holds, of each type, at
 * least the best `top` (all of them when fewer), which is all this choice can read.
 */
function choose(kept: Ranked[], top: number): Scored[] {
  const sorted = [...kept].sort(byScore);
  const proposals: Ranked[] = [];
  const perType = { martin: 0, grid: 0 };
  for (const s of sorted) {
    if (proposals.length >= top) break;
    if (perType[s.candidate.type] >= 2 && sorted.some((k) => k.candidate.type !== s.candidate.type && !proposals.includes(k))) continue;
    perType[s.candidate.type]++;
    proposals.push(s);
  }
  return proposals.map(({ rank: _, ...p }) => p);
}

/** Of each type, the best `top` (what `choose` can pick from, so what a part of a search sends back). */
function bestOfEachType(kept: Ranked[], top: number): Ranked[] {
  const sorted = [...kept].sort(byScore);
  return [...sorted.filter((s) => s.candidate.type === 'martin').slice(0, top), ...sorted.filter((s) => s.candidate.type === 'grid').slice(0, top)];
}

/** What a part of a split search answers: its best of each type (ranked), and how many it tried and kept. */
export interface SearchPart {
  best: Ranked[];
  tried: number;
  kept: number;
  limit: number;
  slippage: string;
}

/**
 * Backtests the candidates (all, or the input's part of them) on `history` (30 days) and its last
 * `recent` candles (7 days), each window's run started at its first price (a grid's range placed
 * there); those past the risk level's drawdown are dropped, the rest scored and configured at the last
 * price (to start now).
 */
export function searchPart(input: SearchInput): SearchPart {
  const limit = drawdownLimit[input.risk];
  const fill: FillModel = { slippage: input.slippage ?? DEFAULT_SLIPPAGE };
  const resting = input.resting ?? [];
  const start = input.history.open[0]!;
  const now = input.history.close[input.history.close.length - 1]!;
  const all = candidates(input.investment, start, input.market);
  const part = input.part ?? { index: 0, of: 1 };
  const mine = all.map((candidate, rank) => ({ candidate, rank })).filter((c) => c.rank % part.of === part.index);
  const recent = tail(input.history, input.recent);
  const kept: Ranked[] = [];
  let done = 0;
  for (const { candidate, rank } of mine) {
    input.onProgress?.(done++, mine.length);
    const r30 = report(candidate, input.investment, input.market, input.history, fill, resting);
    if (r30.maxDrawdownPct > limit) continue;
    const r7 = report(candidate, input.investment, input.market, recent, fill, resting);
    const w = drawdownWeight[input.risk];
    const score = 0.7 * (r30.returnPct / Math.max(r30.maxDrawdownPct, 1) ** w) + 0.3 * (r7.returnPct / Math.max(r7.maxDrawdownPct, 1) ** w);
    const configuration = configure(candidate, input.investment, now, input.market);
    kept.push({ candidate, configuration, score: Math.round(score * 1e6) / 1e6, d30: figures(r30), d7: figures(r7), equity: r30.equity, rank });
  }
  input.onProgress?.(mine.length, mine.length);
  return { best: bestOfEachType(kept, input.top ?? 3), tried: mine.length, kept: kept.length, limit, slippage: fill.slippage };
}

/** The parts of a split search as the one search over all their candidates answers. */
export function mergeSearches(parts: readonly SearchPart[], top = 3): SearchResult {
  const first = parts[0]!;
  return {
    proposals: choose(
      parts.flatMap((p) => p.best),
      top,
    ),
    tried: parts.reduce((n, p) => n + p.tried, 0),
    kept: parts.reduce((n, p) => n + p.kept, 0),
    limit: first.limit,
    slippage: first.slippage,
  };
}

/**
 * Backtests every candidate on `history` (30 days) and its last `recent` candles (7 days) and answers the
 * best `top`, at most two of one type when the other type has any (searchPart, then mergeSearches).
 */
export function searchParameters(input: SearchInput): SearchResult {
  return mergeSearches([searchPart({ ...input, part: undefined })], input.top ?? 3);
}
