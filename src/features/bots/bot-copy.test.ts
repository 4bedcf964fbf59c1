import { describe, expect, it } from 'vitest';
import { copyAs, copyOf, copyParam, ownParams } from './bot-copy.ts';
import { strategies, strategyOf } from './strategies/index.ts';
import type { BotInfo } from '../../../contract/bots.ts';

const martin = { investment: '1000', firstOrder: '23', multiplier: '2', maxPositions: 3, addTrigger: '2', takeProfit: '1', stopLoss: '', repeat: true };
const dca = { investment: '320', baseOrder: '20', start: { kind: 'schedule', every: 'day', time: '09:30', utcOffset: 480 } };
const rule = { join: 'and', conditions: [{ left: { kind: 'rsi', period: 14, timeframe: '1h' }, op: '<', right: { kind: 'value', value: '30' } }] };
const custom = { investment: '500', size: { kind: 'fixed', quote: '100' }, entry: rule, exit: null, takeProfit: '3', stopLoss: '', repeat: true };

describe('a bot copy in the address', () => {
  it('reads back what was put there, and ignores what does not parse', () => {
    const copy = { symbol: 'ETH/USDT', params: martin, from: { roiPct: '0.29', maxDrawdownPct: '0', runtime: 120, cycles: 1 } };
    expect(copyOf({ copy: copyParam(copy) })).toEqual(copy);
    expect(copyOf({ copy: copyParam({ symbol: 'ETH/USDT' }) })).toEqual({ symbol: 'ETH/USDT' });
    expect(copyOf({ copy })).toEqual(copy); // as the router hands it over, parsed
    expect(copyOf({})).toBeUndefined();
    expect(copyOf({ copy: '{not json' })).toBeUndefined();
    expect(copyOf({ copy: JSON.stringify({ symbol: 'eth', params: ['x'], from: { roiPct: 1 } }) })).toEqual({});
  });

  it("gives a screen the parameters only when they are its type's, by the type's own check", () => {
    const copied = (type: keyof typeof strategies, params: unknown) => copyAs(copyOf({ copy: JSON.stringify({ symbol: 'ETH/USDT', params }) }), strategyOf(type)!.copied)?.params;
    expect(copied('martin', martin)).toEqual(martin);
    // Another type's parameters, or a value that is not plain, leave the form to start as usual.
    expect(copied('grid', martin)).toBeUndefined();
    expect(copied('martin', { ...martin, investment: { nested: 1 } })).toBeUndefined();
    expect(copyAs(copyOf({ copy: JSON.stringify({ symbol: 'ETH/USDT', params: martin }) }), strategies.grid.copied)).toEqual({ symbol: 'ETH/USDT' });
    // A DCA bot's start is the one object its parameters carry.
    expect(copied('dca', dca)).toEqual(dca);
    expect(copied('dca', { ...dca, start: { kind: { deep: 1 } } })).toBeUndefined();
    // A DCA bot's indicator start carries a custom bot's rule: taken when the strategy finds nothing wrong with it.
    const indicator = { ...dca, trailingStop: true, start: { kind: 'indicator', rule } };
    expect(copied('dca', indicator)).toEqual(indicator);
    expect(copied('dca', { ...indicator, start: { kind: 'indicator', rule: { join: 'and', conditions: [] } } })).toBeUndefined();
    expect(copied('dca', { ...indicator, start: { kind: 'indicator', rule, extra: { deep: 1 } } })).toBeUndefined();
    // A custom bot's nested rules travel whole when the strategy finds nothing wrong with them (a null exit or '' stop loss: none).
    expect(copied('custom', custom)).toEqual({ investment: '500', size: { kind: 'fixed', quote: '100' }, entry: rule, takeProfit: '3', repeat: true });
    expect(copied('custom', { ...custom, entry: { join: 'and', conditions: 'x' } })).toBeUndefined();
    expect(copied('custom', dca)).toBeUndefined();
    expect(copied('dip', { investment: '100', dip: '5', takeProfit: '2' })).toEqual({ investment: '100', dip: '5', takeProfit: '2' });
  });

  it("edits a bot's parameters on its own type's screen only", () => {
    const bot = { type: 'martin', params: martin } as unknown as BotInfo;
    expect(ownParams(bot, 'martin')).toEqual(martin);
    expect(ownParams(bot, 'grid')).toBeUndefined();
    expect(ownParams(undefined, 'martin')).toBeUndefined();
  });
});
