import type { StrategyKit } from '../kit-types.ts';
import { money } from '../money.ts';
import type { Fill } from '../martin/plan.ts';
import type { MarketRules } from '../martin/rules.ts';
import type { CustomParams } from './rules.ts';
import { decodeCustom, encodeCustom, type StoredCustomState } from './state-codec.ts';
import { customTriggers, decideCustom, entryQuote, initialCustomState, retargetCustom, type CustomState, type CustomView } from './strategy.ts';

/** The custom bot as the engine runs it (registered in strategy/kit.ts's kits). */
export const customKit: StrategyKit<CustomState, CustomView> = {
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
};
