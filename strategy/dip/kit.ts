import type Decimal from 'decimal.js';
import { fillsOpen } from '../backtest-report.ts';
import { fillsDetail, fillsFloating, fillsHeld, levelsOf } from '../core/fills-position.ts';
import type { ParamProblem, StrategyKit } from '../kit-types.ts';
import { walkKit } from '../backtest.ts';
import { doubleOf, money } from '../money.ts';
import { dipParamsSchema, type DipParamsInput } from './params.ts';
import { planDip, validateDip, type DipParams, type DipProblem, type DipView } from './plan.ts';
import { decodeDip, encodeDip, type StoredDipState } from './state-codec.ts';
import { decideDip, dipTakeProfit, dipTriggers, initialDipState, type DipState } from './strategy.ts';

const num = (d: Decimal | null | undefined, none: number) => (d ? doubleOf(d) : none);

/** A problem of validateDip as the code the screens say. */
const problemCode: Record<DipProblem['reason'], ParamProblem['code']> = {
  required: 'RequiredFieldMissing',
  format: 'StrategyInvalidParams',
  range: 'StrategyInvalidParams',
  belowMinimum: 'StrategyOrderBelowMinimum',
};

/** Buy the dip, once (README.md): one buy `dip` % below the price it started at, sold at its take profit. */
export const dipKit: StrategyKit<DipState, DipView, DipParams, DipParamsInput> = {
  type: 'dip',
  view: (params, market) => ({ params: params as DipParams, market }),
  initial: initialDipState,
  decide: decideDip,
  decode: (id, stored) => decodeDip(id, stored as StoredDipState),
  encode: encodeDip,
  triggers(state, view) {
    const t = dipTriggers(state, view);
    return { up: num(t.up, Infinity), down: num(t.down, -Infinity), asks: !state.pending && state.phase === 'waiting', upAt: t.up, downAt: t.down };
  },
  cycle: (s) => s.cycle,
  cycleFigures: (before) => ({
    entries: before.fills.length,
    amount: before.fills.reduce((sum, f) => sum.plus(f.amount), money(0)),
    cost: before.fills.reduce((sum, f) => sum.plus(f.price.mul(f.amount)), money(0)),
  }),
  retarget: (state) => state,
  // Its one buy until it is made.
  reserved: (state, view) => (state.phase === 'waiting' || state.phase === 'armed' ? money(view.params.investment) : money(0)),

  paramsSchema: dipParamsSchema,
  stored: (input) => input,
  input: (params) => params,
  problem(params, market, price) {
    const first = validateDip(params, market, price)[0];
    // The envelope names the field in words (its schema's, params.ts).
    return first ? { code: problemCode[first.reason], field: first.field } : null;
  },
  held: (_params, stored) => fillsHeld(stored, 1),
  floating: fillsFloating,
  detail(state, view, price) {
    // Its one planned buy (planDip, as the form shows it): at the line it waits at, or the line the price now would set.
    const armed = state.phase === 'armed' && state.reference !== null;
    const plan = state.fills.length === 0 ? planDip(view.params, view.market, armed ? state.reference! : price) : null;
    const levels = plan ? levelsOf([{ index: 0, price: plan.line, quote: money(view.params.investment), amount: plan.amount }]) : [];
    return fillsDetail(state, view.market, price, { takeProfit: dipTakeProfit(state, view), stop: null, nextAdd: armed ? plan?.line : null, armed: null }, levels);
  },
  partClose: 'whole',
  commitsBudget: false,
  takesSignals: false,
  backtest(view, candles, fill) {
    const result = walkKit(dipKit, view, candles, fill);
    return { fills: result.fills, realized: result.realized, cycles: result.cycles, open: fillsOpen(result.state.fills) };
  },
  dust: (stored) => (stored as StoredDipState).carry ?? '0',
  sweptDust: { carry: '0', carryCost: '0' },
};
