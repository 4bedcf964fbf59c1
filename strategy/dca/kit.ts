import type Decimal from 'decimal.js';
import { dcaParamsSchema, type DcaParamsInput } from './params.ts';
import type { CodeName } from '../../contract/codes.ts';
import { scheduleAt } from '../../contract/schedule-at.ts';
import { fillsDetail, fillsFloating, fillsHeld, levelsOf } from '../core/fills-position.ts';
import { ruleProblem } from '../custom/problems.ts';
import { fillsOpen } from '../backtest-report.ts';
import type { StrategyKit } from '../kit-types.ts';
import { walkKit } from '../backtest.ts';
import type { Fill } from '../core/position.ts';
import { doubleOf, money } from '../money.ts';
import { dealFunds, dealOrderQuote, planDeal, validateDca, type DcaProblem } from './plan.ts';
import type { DcaParams } from './rules.ts';
import { decodeDca, encodeDca, type StoredDcaState } from './state-codec.ts';
import { dcaInFlight, dcaResting, dcaSlotOf } from './resting.ts';
import { dcaFeedOf, dcaOpenAt, dcaStop, dcaTrailing, dcaTriggers, decideDca, initialDcaState, retargetDca, startRules, type DcaState, type DcaView } from './strategy.ts';

const num = (d: Decimal | null | undefined, none: number) => (d ? doubleOf(d) : none);

/** A problem of validateDca as the code the screens say (the field goes beside). */
const problemCode: Record<DcaProblem['reason'], CodeName> = {
  required: 'RequiredFieldMissing',
  format: 'StrategyInvalidParams',
  range: 'StrategyInvalidParams',
  insufficient: 'StrategyInvalidInvestment',
  belowMinimum: 'StrategyOrderBelowMinimum',
  tooDeep: 'StrategyInvalidParams',
  withinSafety: 'StrategyInvalidParams',
  trailingStopNeedsStopLoss: 'RequiredFieldMissing',
  rule: 'StrategyInvalidParams',
};

/** The DCA bot (README.md): a deal's buys are its fills, as martin's; it waits to open (`asks`) for its start condition (an indicator start: always asked; a signals-only one: never). */
export const dcaKit: StrategyKit<DcaState, DcaView, DcaParams, DcaParamsInput> = {
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
    if (!t) {
      // Waiting for a schedule or a cooldown: no price opens a deal before its time (null: a time it learns when asked).
      const openAt = asks ? dcaOpenAt(state, view.params) : null;
      return openAt !== null && openAt !== -Infinity ? { up: Infinity, down: -Infinity, asks, after: openAt } : { up: Infinity, down: -Infinity, asks };
    }
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
  resting: { wanted: dcaResting, slotOf: dcaSlotOf, inFlight: dcaInFlight },
  reserved(state, { params }) {
    // A deal not open needs all of it; an open one, the safety orders it has not filled.
    if (state.phase !== 'holding') return dealFunds(params);
    let sum = money(0);
    for (let n = state.safeties + 1; n <= params.maxSafetyOrders; n++) sum = sum.plus(dealOrderQuote(params, n));
    return sum;
  },

  paramsSchema: dcaParamsSchema,
  // The optional stop loss, trailing deviation, trailing stop and cooldown left out when empty (off).
  stored(input) {
    const { stopLoss, cooldown, trailingDeviation, trailingStop, ...rest } = input;
    return { ...rest, ...(stopLoss ? { stopLoss } : {}), ...(trailingDeviation ? { trailingDeviation } : {}), ...(trailingStop ? { trailingStop } : {}), ...(cooldown ? { cooldown } : {}) };
  },
  input: (params) => ({ ...params, stopLoss: params.stopLoss ?? '', trailingDeviation: params.trailingDeviation ?? '', trailingStop: params.trailingStop ?? false, cooldown: params.cooldown ?? 0 }),
  // A schedule's time of day is told in its owner's time zone: a copy takes it in UTC.
  shared: (input) => (input.start.kind === 'schedule' ? { ...input, start: scheduleAt(input.start, 0) } : input),
  problem(params, market, price) {
    const problem = validateDca(params, market, price)[0];
    if (!problem) return null;
    // The start rule's problem as a custom bot's entry rule's: its code, and its field in words (the buy rule's).
    const rule = problem.rule;
    if (rule) return ruleProblem(rule, rule.field, rule.field.replace(/^start\.rule/, 'entry'));
    return { code: problemCode[problem.reason], field: problem.field };
  },
  held: (params, stored) => fillsHeld(stored, params.maxSafetyOrders + 1),
  floating: fillsFloating,
  detail(state, view, price) {
    const holding = state.fills.length > 0;
    const armed = dcaTrailing(state, view);
    return fillsDetail(
      state,
      view.market,
      price,
      {
        takeProfit: state.targets?.takeProfit,
        // The stop as the engine acts on it: a trailing stop moves up with the high since the base order.
        stop: dcaStop(state, view)?.price,
        // No safety order while an armed trailing take profit sells the deal.
        nextAdd: armed ? null : state.targets?.nextSafety,
        armed,
      },
      levelsOf(planDeal(view.params, view.market, holding ? state.fills[0]!.price : price)),
    );
  },
  partClose: 'sized',
  book: (state) => state,
  commitsBudget: false,
  takesSignals: true,
  indicators: { rules: startRules, feed: dcaFeedOf, closed: decideDca },
  // Its cycles are the deals closed; an indicator start reads its warm-up candles from the first one on.
  backtest(view, candles, fill, warmUp) {
    const result = walkKit(dcaKit, view, candles, fill, warmUp);
    return { fills: result.fills, realized: result.realized, cycles: result.cycles, open: fillsOpen(result.state.fills) };
  },
  dust: (stored) => (stored as StoredDcaState).carry ?? '0',
  sweptDust: { carry: '0', carryCost: '0' },
};
