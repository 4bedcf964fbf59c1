import { describe, expect, it } from 'vitest';
import { engineRound } from './engine-round.test-support.ts';
import { holdsPosition, kitOf, tradableTypes, type StrategyKit } from './kit.ts';
import type { MarketRules } from './martin/rules.ts';
import { money } from './money.ts';
import { botId } from './types.ts';

const market: MarketRules = { tickSize: money('0.01'), stepSize: money('0.00001'), minAmount: money('0.00001'), minCost: money('5'), feeRate: money('0.001') };

/** A form's parameters of each type, as the create call takes them. */
const inputs: Record<string, unknown> = {
  martin: { investment: '3100', firstOrder: '100', multiplier: '2', maxPositions: 5, addTrigger: '2', takeProfit: '1.5', stopLoss: '', repeat: false },
  grid: { investment: '1000', lower: '55000', upper: '65000', grids: 10, spacing: 'arithmetic', stopLoss: '', takeProfit: '' },
  dca: {
    investment: '320',
    baseOrder: '20',
    safetyOrder: '20',
    maxSafetyOrders: 4,
    deviation: '1.5',
    stepScale: '1.5',
    volumeScale: '2',
    takeProfit: '1.5',
    stopLoss: '15',
    cooldown: 0,
    start: { kind: 'now' },
  },
  custom: {
    investment: '1000',
    size: { kind: 'fixed', quote: '100' },
    entry: { join: 'and', conditions: [{ left: { kind: 'price' }, op: 'crossesBelow', right: { kind: 'value', value: '59000' } }] },
    exit: null,
    takeProfit: '2',
    stopLoss: '',
    repeat: true,
  },
};

/** Every bot type answers the services through its kit: these hold for each, so no service needs to know which. */
describe('every strategy kit', () => {
  it('has an example here (a new type adds one)', () => {
    expect(Object.keys(inputs).sort()).toEqual([...tradableTypes].sort());
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

  for (const type of ['martin', 'grid', 'dca']) {
    it(`${type}: once it bought, the kit, the stored shape and the detail agree on what it holds`, () => {
      const kit = kitOf(type);
      const params = kit.stored(kit.paramsSchema.parse(inputs[type]));
      const view = kit.view(params, market);
      const state = engineRound(kit, kit.initial(botId('k')), view, money('60000'), market.stepSize).state;
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
