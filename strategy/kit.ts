import type Decimal from 'decimal.js';
import { gridLevels, grossBuy } from './grid/plan.ts';
import { decodeGrid, encodeGrid, type StoredGridState } from './grid/state-codec.ts';
import type { GridParams } from './grid/rules.ts';
import { decideGrid, gridTriggers, initialGridState, type GridState, type GridView } from './grid/strategy.ts';
import { money } from './money.ts';
import { decodeDca, encodeDca, type StoredDcaState } from './dca/state-codec.ts';
import type { DcaParams } from './dca/rules.ts';
import { dcaTriggers, decideDca, initialDcaState, retargetDca, type DcaState, type DcaView } from './dca/strategy.ts';
import { type Fill, orderQuote } from './martin/plan.ts';
import { dealFunds, dealOrderQuote } from './dca/plan.ts';
import type { MartinParams } from './martin/rules.ts';
import { decodeMartin, encodeMartin, type StoredMartinState } from './martin/state-codec.ts';
import { decideMartin, initialMartinState, martinTriggers, retarget, type MartinState, type MartinView } from './martin/strategy.ts';
import { customKit } from './custom/kit.ts';

// The kit's interfaces are in kit-types.ts (a strategy's own kit imports them from there); kit.ts lists the kits.
export type { BotType, KitState, StrategyKit, Triggers } from './kit-types.ts';
import type { BotType, StrategyKit, Triggers } from './kit-types.ts';

/**
 * The trigger price `price` is on or past, at which the engine decides the round (server/engine/bot-book.ts):
 * the down one, else the up one (`upAtNumber`: upAt as a double, kept by a caller on a hot path); null when
 * it crossed neither, or the kit gives no trigger prices (then the round's own price).
 */
export function crossedTrigger(t: Pick<Triggers, 'down' | 'upAt' | 'downAt'>, price: number, upAtNumber = t.upAt ? Number(t.upAt.toString()) : Infinity): Decimal | null {
  if (t.downAt && price <= t.down) return t.downAt;
  return t.upAt && price >= upAtNumber ? t.upAt : null;
}

const num = (d: Decimal | null | undefined, none: number) => (d ? Number(d.toString()) : none);

export const martinKit: StrategyKit<MartinState, MartinView> = {
  type: 'martin',
  view: (params, market) => ({ params: params as MartinParams, market }),
  initial: initialMartinState,
  decide: decideMartin,
  decode: (id, stored, view) => decodeMartin(id, stored as StoredMartinState, view),
  encode: encodeMartin,
  triggers(state, view) {
    const asks = !state.pending && state.phase === 'waiting';
    const t = martinTriggers(state, view);
    if (!t) return { up: Infinity, down: -Infinity, asks };
    // A trailing exit follows its high: asked at the high and above (a new high moves it).
    return { up: Math.min(num(t.up, Infinity), num(t.follow, Infinity)), down: num(t.down, -Infinity), asks, upAt: t.up, downAt: t.down };
  },
  cycle: (s) => s.cycle,
  cycleFigures: (before) => ({
    entries: before.fills.length,
    amount: before.fills.reduce((sum: Decimal, f: Fill) => sum.plus(f.amount), money(0)),
    cost: before.fills.reduce((sum: Decimal, f: Fill) => sum.plus(f.price.mul(f.amount)), money(0)),
  }),
  retarget,
  reserved(state, { params }) {
    if (state.phase === 'done') return money(0);
    let sum = money(0);
    for (let i = state.fills.length; i < params.maxPositions; i++) sum = sum.plus(orderQuote(params, i));
    return sum;
  },
};

export const gridKit: StrategyKit<GridState, GridView> = {
  type: 'grid',
  view: (params, market) => ({ params: params as GridParams, market }),
  initial: initialGridState,
  decide: decideGrid,
  decode: (id, stored) => decodeGrid(id, stored as StoredGridState),
  encode: encodeGrid,
  triggers(state, view) {
    const asks = !state.pending && state.phase === 'waiting';
    if (state.pending || state.phase !== 'running') return { up: Infinity, down: -Infinity, asks };
    const t = gridTriggers(state, view);
    // A trailing exit follows its high: asked at the high and above (a new high moves it).
    return { up: Math.min(num(t.up, Infinity), num(t.follow, Infinity)), down: num(t.down, -Infinity), asks, upAt: t.up, downAt: t.down };
  },
  cycle: (s) => s.trades + 1,
  cycleFigures(before) {
    // A grid sold one level's base (or, on an exit, everything held).
    const level = before.pending && before.pending.level >= 0 ? before.orders[before.pending.level] : null;
    const sells = level ? [level] : before.orders.filter((o) => o?.side === 'sell');
    return {
      entries: 1,
      amount: sells.reduce((s: Decimal, o) => s.plus(o!.amount), money(0)),
      cost: sells.reduce((s: Decimal, o) => s.plus(o!.cost), money(0)),
    };
  },
  retarget: (s) => s,
  reserved(state, { params, market }) {
    if (state.phase === 'done') return money(0);
    if (state.phase === 'waiting' || state.orders.length === 0) return money(params.investment);
    // A buy level spends its gross buy at its price (it buys enough for the fee taken in the coin).
    const levels = gridLevels(params, market.tickSize);
    return state.orders.reduce((sum: Decimal, o, i) => (o?.side === 'buy' && levels[i] ? sum.plus(grossBuy(o.amount, market).mul(levels[i])) : sum), money(0));
  },
};

/** The DCA bot (dca/README.md): a deal's buys are its fills, as martin's; it waits to open (`asks`) for its start condition (an indicator start: always asked; a signals-only one: never). */
export const dcaKit: StrategyKit<DcaState, DcaView> = {
  type: 'dca',
  view: (params, market) => ({ params: params as DcaParams, market }),
  initial: initialDcaState,
  decide: decideDca,
  decode: (id, stored, view) => decodeDca(id, stored as StoredDcaState, view),
  encode: encodeDca,
  triggers(state, view) {
    // An indicator start reads every price round (its feed builds the 1-minute candles its rule is checked on), deal or not.
    // A signals-only bot waiting for a buy signal has nothing to ask the prices.
    const start = view.params.start.kind;
    const asks = (!state.pending && state.phase === 'waiting' && start !== 'signal') || start === 'indicator';
    const t = dcaTriggers(state, view);
    if (!t) return { up: Infinity, down: -Infinity, asks };
    // A trailing exit (armed take profit, trailing stop) follows its high: asked at the high and above.
    return { up: Math.min(num(t.up, Infinity), num(t.follow, Infinity)), down: num(t.down, -Infinity), asks, upAt: t.up, downAt: t.down };
  },
  cycle: (s) => s.cycle,
  cycleFigures: (before) => ({
    entries: before.fills.length,
    amount: before.fills.reduce((sum: Decimal, f: Fill) => sum.plus(f.amount), money(0)),
    cost: before.fills.reduce((sum: Decimal, f: Fill) => sum.plus(f.price.mul(f.amount)), money(0)),
  }),
  retarget: retargetDca,
  reserved(state, { params }) {
    // A deal not open needs all of it; an open one, the safety orders it has not filled.
    if (state.phase !== 'holding') return dealFunds(params);
    let sum = money(0);
    for (let n = state.safeties + 1; n <= params.maxSafetyOrders; n++) sum = sum.plus(dealOrderQuote(params, n));
    return sum;
  },
};

const kits: Record<BotType, StrategyKit> = {
  martin: martinKit as unknown as StrategyKit,
  grid: gridKit as unknown as StrategyKit,
  dca: dcaKit as unknown as StrategyKit,
  // The custom bot (custom/README.md): its rules checked on 1-minute candles built from every price round.
  custom: customKit as unknown as StrategyKit,
};

/** The bot types the engine can trade: those with a kit. */
export const tradableTypes: readonly string[] = Object.keys(kits);

/** The kit of a bot type (bots.type). */
export function kitOf(type: string): StrategyKit {
  const kit = kits[type as BotType];
  if (!kit) throw new RangeError(`no strategy ${type}`);
  return kit;
}

/**
 * Whether a bot's state (stored or loaded, any strategy) holds a position: martin's fills in the open
 * cycle, or a grid's base waiting on its sell levels.
 */
export function holdsPosition(state: unknown): boolean {
  const s = state as { fills?: unknown[]; orders?: ({ side: string } | null)[] } | null | undefined;
  return (s?.fills?.length ?? 0) > 0 || (s?.orders ?? []).some((o) => o?.side === 'sell');
}
