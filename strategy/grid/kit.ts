import type Decimal from 'decimal.js';
import { gridParamsSchema, type GridParamsInput } from './params.ts';
import type { CodeName } from '../../contract/codes.ts';
import { refitGrid } from '../ai/refit.ts';
import type { StrategyKit } from '../kit-types.ts';
import { walkKit } from '../backtest.ts';
import { doubleOf, money } from '../money.ts';
import { gridDetail, gridHeld, gridInputParams, gridUnrealized } from './detail.ts';
import { gridLevels, grossBuy, validateGrid, type GridProblem } from './plan.ts';
import type { GridParams } from './rules.ts';
import { decodeGrid, encodeGrid, type StoredGridState } from './state-codec.ts';
import { gridInFlight, gridResting, gridSlotOf } from './resting.ts';
import { decideGrid, gridTriggers, initialGridState, type GridState, type GridView } from './strategy.ts';

const num = (d: Decimal | null | undefined, none: number) => (d ? doubleOf(d) : none);

/** A problem of validateGrid as the code the screens say (the field goes beside). */
const problemCode: Record<GridProblem['reason'], CodeName> = {
  required: 'RequiredFieldMissing',
  format: 'StrategyInvalidParams',
  range: 'StrategyInvalidParams',
  belowMinimum: 'StrategyOrderBelowMinimum',
  unprofitable: 'StrategyInvalidParams',
  trailingNeedsTakeProfit: 'RequiredFieldMissing',
  trailingStopNeedsStopLoss: 'RequiredFieldMissing',
};

/** The grid bot (README.md): a buy on every level below the price, a sell on every level above. */
export const gridKit: StrategyKit<GridState, GridView, GridParams, GridParamsInput> = {
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
  resting: { wanted: gridResting, slotOf: gridSlotOf, inFlight: gridInFlight },
  reserved(state, { params, market }) {
    if (state.phase === 'done') return money(0);
    if (state.phase === 'waiting' || state.orders.length === 0) return money(params.investment);
    // A buy level spends its gross buy at its price (it buys enough for the fee taken in the coin).
    const levels = gridLevels(params, market.tickSize);
    return state.orders.reduce((sum: Decimal, o, i) => (o?.side === 'buy' && levels[i] ? sum.plus(grossBuy(o.amount, market).mul(levels[i])) : sum), money(0));
  },

  paramsSchema: gridParamsSchema,
  stored(input) {
    const { stopLoss, takeProfit, trailingDeviation, trailingStop, ...rest } = input;
    return {
      ...rest,
      ...(stopLoss ? { stopLoss } : {}),
      ...(takeProfit ? { takeProfit } : {}),
      ...(trailingDeviation ? { trailingDeviation } : {}),
      ...(trailingStop ? { trailingStop } : {}),
    };
  },
  input: gridInputParams,
  problem(params, market, price) {
    const first = validateGrid(params, market, price)[0];
    return first ? { code: problemCode[first.reason], field: first.field } : null;
  },
  refit: refitGrid,
  held: (params, stored) => gridHeld(params, stored as StoredGridState),
  floating: (stored, market, price) => gridUnrealized(gridHeld({ grids: 0 }, stored as StoredGridState), price, market.feeRate),
  detail: gridDetail,
  // A grid's base is spread over its sell levels: a manual close sells all of it.
  partClose: 'none',
  // It buys its start position and reserves every buy level at once.
  commitsBudget: true,
  takesSignals: false,
  // Its cycles are the grids completed, its open position the base on its sell levels.
  backtest(view, candles, fill) {
    const result = walkKit(gridKit, view, candles, fill);
    const sells = result.state.orders.filter((o) => o?.side === 'sell');
    const amount = sells.reduce((s: Decimal, o) => s.plus(o!.amount), money(0));
    const cost = sells.reduce((s: Decimal, o) => s.plus(o!.cost), money(0));
    const open = amount.gt(0) ? { amount: amount.toFixed(), average: cost.div(amount).toDecimalPlaces(8).toFixed() } : null;
    return { fills: result.fills, realized: result.realized, cycles: result.cycles, open };
  },
  dust: (stored) => (stored as StoredGridState).dust ?? '0',
  sweptDust: { dust: '0', dustCost: '0' },
};
