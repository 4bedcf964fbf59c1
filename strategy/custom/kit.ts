import { customParamsSchema, type CustomParamsInput } from './params.ts';
import { customFieldText } from '../../contract/custom-fields.ts';
import { fillsDetail, fillsFloating, fillsHeld } from '../core/fills-position.ts';
import { fillsOpen } from '../backtest-report.ts';
import type { StrategyKit } from '../kit-types.ts';
import { walkKit } from '../backtest.ts';
import { money } from '../money.ts';
import type { Fill } from '../core/position.ts';
import type { MarketRules } from '../core/market.ts';
import { ruleProblem } from './problems.ts';
import { storedCustomParams, validateCustom, type CustomParams } from './rules.ts';
import { decodeCustom, encodeCustom, type StoredCustomState } from './state-codec.ts';
import { customLines, customTriggers, decideCustom, entryQuote, feedOf, initialCustomState, retargetCustom, type CustomState, type CustomView } from './strategy.ts';

/** The custom bot (README.md): its rules checked on 1-minute candles built from every price round. */
export const customKit: StrategyKit<CustomState, CustomView, CustomParams, CustomParamsInput> = {
  type: 'custom',
  view: (params: unknown, market: MarketRules) => ({ params: params as CustomParams, market }),
  initial: initialCustomState,
  decide: decideCustom,
  decode: (id, stored, view) => decodeCustom(id, stored as StoredCustomState, view),
  encode: encodeCustom,
  // Every price round is asked (with its market time): the prices build the 1-minute candles the rules
  // are checked on. Only a finished bot is left alone; take profit and stop loss (the trailing lines, and
  // any price above a followed high) are its trigger prices (customTriggers). A round past one decides at
  // it (upAt, downAt), as martin's: the take profit rests there, a stop sells at the market below its line.
  triggers: (state, view) => {
    const t = customTriggers(state, view);
    return {
      up: Math.min(state.targets?.up ?? Infinity, state.targets?.follow ?? Infinity),
      down: state.targets?.down ?? -Infinity,
      asks: state.phase !== 'done',
      upAt: t?.up ?? null,
      downAt: t?.down ?? null,
    };
  },
  cycle: (s) => s.cycle,
  cycleFigures: (before) => ({
    entries: before.fills.length,
    amount: before.fills.reduce((sum, f: Fill) => sum.plus(f.amount), money(0)),
    cost: before.fills.reduce((sum, f: Fill) => sum.plus(f.price.mul(f.amount)), money(0)),
  }),
  retarget: retargetCustom,
  // One entry a position: while it waits, its size rule's largest buy; holding or done, nothing more.
  reserved: (state, view) => (state.phase === 'waiting' ? entryQuote(view.params) : money(0)),

  paramsSchema: customParamsSchema,
  stored: storedCustomParams,
  input: (params) => ({ ...params, exit: params.exit ?? null, takeProfit: params.takeProfit ?? '', stopLoss: params.stopLoss ?? '' }),
  fieldWords: (path) => ({ zh: customFieldText(path, 'zh'), en: customFieldText(path, 'en') }),
  problem(params, market) {
    const problem = validateCustom(params, market.minCost.toFixed())[0];
    return problem ? ruleProblem(problem, problem.field ? problem.field : '') : null;
  },
  // One entry a position (more only by hand).
  held: (_params, stored) => {
    const held = fillsHeld(stored, 0);
    return { ...held, maxEntries: Math.max(1, held.entries) };
  },
  floating: fillsFloating,
  detail(state, view, price) {
    // The trailing exits' lines as the engine acts on them: a trailing stop moves the stop loss, an armed take profit sells at its line.
    const lines = state.fills.length > 0 ? customLines(state, view) : null;
    // No adds, no levels: its entries wait for its rules.
    return fillsDetail(state, view.market, price, { takeProfit: state.targets?.takeProfit, stop: lines ? lines.stop : state.targets?.stopLoss, nextAdd: null, armed: lines?.armed }, []);
  },
  // Its strategy sells the one position whole on a close.
  partClose: 'whole',
  commitsBudget: false,
  takesSignals: true,
  // Its candles and indicators are not stored: rebuilt from the market's history on every load.
  indicators: { rules: (params) => params, feed: feedOf, closed: decideCustom },
  // On 1-minute candles, its indicators warmed up by the candles before the first minute; its cycles are the positions closed.
  backtest(view, candles, fill, warmUp) {
    const result = walkKit(customKit, view, candles, fill, warmUp);
    return { fills: result.fills, realized: result.realized, cycles: result.cycles, open: fillsOpen(result.state.fills) };
  },
  dust: (stored) => (stored as StoredCustomState).carry ?? '0',
  sweptDust: { carry: '0', carryCost: '0' },
};
