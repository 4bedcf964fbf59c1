import type Decimal from 'decimal.js';
import { martinParamsSchema, type MartinParamsInput } from './params.ts';
import type { CodeName } from '../../contract/codes.ts';
import { refitMartin } from '../ai/refit.ts';
import { fillsDetail, fillsFloating, fillsHeld, levelsOf } from '../core/fills-position.ts';
import { walkKit } from '../backtest.ts';
import { fillsOpen } from '../backtest-report.ts';
import type { StrategyKit } from '../kit-types.ts';
import { money } from '../money.ts';
import { orderQuote, planLevels, validateMartin, type MartinProblem } from './plan.ts';
import type { Fill } from '../core/position.ts';
import type { MartinParams } from './rules.ts';
import { decodeMartin, encodeMartin, type StoredMartinState } from './state-codec.ts';
import { martinInFlight, martinResting, martinSlotOf } from './resting.ts';
import { decideMartin, initialMartinState, martinKitTriggers, martinLines, retarget, type MartinState, type MartinView } from './strategy.ts';

/** A problem of validateMartin as the code the screens say (the field goes beside). */
const problemCode: Record<MartinProblem['reason'], (field: MartinProblem['field']) => CodeName> = {
  required: () => 'RequiredFieldMissing',
  format: () => 'StrategyInvalidParams',
  range: (field) =>
    field === 'maxPositions' ? 'StrategyInvalidMaxPositions' : field === 'multiplier' ? 'StrategyInvalidMultiplier' : field === 'investment' ? 'StrategyInvalidInvestment' : 'StrategyInvalidParams',
  insufficient: () => 'StrategyInvalidInvestment',
  belowMinimum: () => 'StrategyOrderBelowMinimum',
  trailingStopNeedsStopLoss: () => 'RequiredFieldMissing',
};

/** The martin bot (README.md): adds on the way down, sells the whole cycle at its take profit. */
export const martinKit: StrategyKit<MartinState, MartinView, MartinParams, MartinParamsInput> = {
  type: 'martin',
  view: (params, market) => ({ params: params as MartinParams, market }),
  initial: initialMartinState,
  decide: decideMartin,
  decode: (id, stored, view) => decodeMartin(id, stored as StoredMartinState, view),
  encode: encodeMartin,
  triggers: martinKitTriggers,
  cycle: (s) => s.cycle,
  cycleFigures: (before) => ({
    entries: before.fills.length,
    amount: before.fills.reduce((sum: Decimal, f: Fill) => sum.plus(f.amount), money(0)),
    cost: before.fills.reduce((sum: Decimal, f: Fill) => sum.plus(f.price.mul(f.amount)), money(0)),
  }),
  retarget,
  resting: { wanted: martinResting, slotOf: martinSlotOf, inFlight: martinInFlight },
  reserved(state, { params }) {
    if (state.phase === 'done') return money(0);
    let sum = money(0);
    for (let i = state.fills.length; i < params.maxPositions; i++) sum = sum.plus(orderQuote(params, i));
    return sum;
  },

  paramsSchema: martinParamsSchema,
  stored(input) {
    const { stopLoss, trailingDeviation, trailingStop, ...rest } = input;
    return { ...rest, ...(stopLoss ? { stopLoss } : {}), ...(trailingDeviation ? { trailingDeviation } : {}), ...(trailingStop ? { trailingStop } : {}) };
  },
  input: (params) => ({ ...params, stopLoss: params.stopLoss ?? '' }),
  problem(params, market, price) {
    const first = validateMartin(params, market, price)[0];
    return first ? { code: problemCode[first.reason](first.field), field: first.field } : null;
  },
  refit: refitMartin,
  held: (params, stored) => fillsHeld(stored, params.maxPositions),
  floating: fillsFloating,
  detail(state, view, price) {
    const holding = state.fills.length > 0;
    // The trailing exits' lines as the engine acts on them (a trailing stop moves the stop loss; no add while armed).
    const trail = holding ? martinLines(state, view) : null;
    return fillsDetail(
      state,
      view.market,
      price,
      { takeProfit: state.targets?.takeProfit, stop: trail ? trail.stop : state.targets?.stopLoss, nextAdd: trail ? trail.nextAdd : state.targets?.nextAdd, armed: trail?.armed },
      levelsOf(planLevels(view.params, view.market, holding ? state.fills[0]!.price : price)),
    );
  },
  partClose: 'sized',
  book: (state) => state,
  commitsBudget: false,
  takesSignals: false,
  backtest(view, candles, fill) {
    const result = walkKit(martinKit, view, candles, fill);
    return { fills: result.fills, realized: result.realized, cycles: result.cycles, open: fillsOpen(result.state.fills) };
  },
  dust: (stored) => (stored as StoredMartinState).carry ?? '0',
  sweptDust: { carry: '0', carryCost: '0' },
};
