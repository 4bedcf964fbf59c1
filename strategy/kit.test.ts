import { describe, expect, it } from 'vitest';
import { engineRound } from './engine-round.test-support.ts';
import { holdsPosition, kitOf, tradableTypes, type StrategyKit } from './kit.ts';
import type { MarketRules } from './core/market.ts';
import { money } from './money.ts';
import { botId } from './types.ts';

const market: MarketRules = { tickSize: money('0.01'), stepSize: money('0.00001'), minAmount: money('0.00001'), minCost: money('5'), feeRate: money('0.001') };

/** Each type's example parameters, as the create call takes them: from its own folder (strategy/<type>/example.ts). */
const inputs: Record<string, unknown> = Object.fromEntries(
  await Promise.all(tradableTypes.map(async (type) => [type, ((await import(`./${type}/example.ts`)) as { example: unknown }).example] as const)),
);

/** Every bot type answers the services through its kit: these hold for each, so no service needs to know which. */
describe('every strategy kit', () => {
  it('has an example of each type (a new type adds strategy/<type>/example.ts)', () => {
    for (const type of tradableTypes) expect(inputs[type], type).toBeTruthy();
  });

  for (const type of tradableTypes) {
    const kit = kitOf(type) as StrategyKit;
    describe(type, () => {
      it('stores the form’s parameters and gives them back as the form sends them', () => {
        const stored = kit.stored(kit.paramsSchema.parse(inputs[type]));
        expect(kit.stored(kit.paramsSchema.parse(kit.input(stored)))).toEqual(stored);
        // The optional fields left empty are not stored.
        expect(Object.values(stored as object)).not.toContain('');
      });

      it('refuses every other type’s parameters by its schema alone', () => {
        for (const other of tradableTypes.filter((t) => t !== type)) expect(kit.paramsSchema.safeParse(inputs[other]).success, other).toBe(false);
      });

      it('holds nothing when new, by its kit and by the stored state’s shape the SQL reads', () => {
        const params = kit.stored(kit.paramsSchema.parse(inputs[type]));
        const stored = kit.encode(kit.initial(botId('k')));
        expect(kit.held(params, stored).entries).toBe(0);
        expect(holdsPosition(stored)).toBe(false);
        expect(kit.problem(params, market, money('60000'))).toBeNull();
      });
    });
  }

  // The engine commits a decision only when it has intents: a change of the stored state with none would be
  // lost at the next restart (the engine reloads the stored state), so a strategy says so with one.
  for (const type of tradableTypes) {
    it(`${type}: every decision that changes its stored state says so with an intent`, () => {
      const kit = kitOf(type);
      const params = kit.stored(kit.paramsSchema.parse(inputs[type]));
      const view = kit.view(params, market);
      let state = kit.initial(botId('k'));
      let at = Date.UTC(2026, 0, 5);
      for (const p of ['60000', '59000', '57000', '55200', '56000', '58000', '61000', '62500', '66000', '63000', '58000']) {
        for (const price of [money(p), money(p).plus(5), money(p).minus(5)]) {
          at += 60_000;
          const before = JSON.stringify(kit.encode(state));
          const asked = kit.decide(state, { type: 'PriceTicked', price, at }, view);
          if (JSON.stringify(kit.encode(asked.state)) !== before)
            expect(asked.intents.length, `${type} at ${price.toFixed()}: ${before} -> ${JSON.stringify(kit.encode(asked.state))}`).toBeGreaterThan(0);
          state = engineRound(kit, state, view, price, market.stepSize, { at }).state;
        }
      }
    });
  }

  // Every type that buys at the price its example starts at (a custom bot waits for its rule).
  for (const type of tradableTypes.filter((t) => t !== 'custom')) {
    it(`${type}: once it bought, the kit, the stored shape and the detail agree on what it holds`, () => {
      const kit = kitOf(type);
      const params = kit.stored(kit.paramsSchema.parse(inputs[type]));
      const view = kit.view(params, market);
      // It starts at 60,000, then the price falls 8 %: every one of them has bought by then.
      let state = engineRound(kit, kit.initial(botId('k')), view, money('60000'), market.stepSize).state;
      state = engineRound(kit, state, view, money('55200'), market.stepSize).state;
      const stored = kit.encode(state);
      const held = kit.held(params, stored);
      expect(held.entries).toBeGreaterThan(0);
      expect(holdsPosition(stored)).toBe(true);
      const price = money('60600');
      const detail = kit.detail(kit.decode('k', stored, view), view, price);
      expect(kit.floating(stored, market, price).toFixed()).toBe(detail.unrealized);
      expect(money(detail.amount).gt(0)).toBe(true);
    });
  }
});
