import { describe, expect, it } from 'vitest';
import { copyOf, copyParam } from './bot-copy.ts';

describe('a bot copy in the address', () => {
  it('reads back what was put there, and ignores what does not parse or does not fit', () => {
    const params = { investment: '1000', firstOrder: '23', multiplier: '2', maxPositions: 3, addTrigger: '2', takeProfit: '1', stopLoss: '', repeat: true };
    const copy = { symbol: 'ETH/USDT', params, from: { roiPct: '0.29', maxDrawdownPct: '0', runtime: 120, cycles: 1 } };
    expect(copyOf({ copy: copyParam(copy) })).toEqual(copy);
    expect(copyOf({ copy: copyParam({ symbol: 'ETH/USDT' }) })).toEqual({ symbol: 'ETH/USDT' });
    expect(copyOf({ copy })).toEqual(copy); // as the router hands it over, parsed
    expect(copyOf({})).toBeUndefined();
    expect(copyOf({ copy: '{not json' })).toBeUndefined();
    expect(copyOf({ copy: JSON.stringify({ symbol: 'eth', params: { investment: { nested: 1 } }, from: { roiPct: 1 } }) })).toEqual({});
    // A DCA bot's start is the one object a copy carries.
    const dca = { investment: '320', baseOrder: '20', start: { kind: 'schedule', every: 'day', time: '09:30', utcOffset: 480 } };
    expect(copyOf({ copy: copyParam({ params: dca as never }) })).toEqual({ params: dca });
    expect(copyOf({ copy: JSON.stringify({ params: { ...dca, start: { kind: { deep: 1 } } } }) })).toEqual({});
    // A custom bot's nested rules travel whole when the strategy finds nothing wrong with them (a null exit or '' stop loss: none).
    const rule = { join: 'and', conditions: [{ left: { kind: 'rsi', period: 14, timeframe: '1h' }, op: '<', right: { kind: 'value', value: '30' } }] };
    const custom = { investment: '500', size: { kind: 'fixed', quote: '100' }, entry: rule, exit: null, takeProfit: '3', stopLoss: '', repeat: true };
    expect(copyOf({ copy: copyParam({ params: custom as never }) })).toEqual({ params: { investment: '500', size: { kind: 'fixed', quote: '100' }, entry: rule, takeProfit: '3', repeat: true } });
    expect(copyOf({ copy: JSON.stringify({ params: { ...custom, entry: { join: 'and', conditions: 'x' } } }) })).toEqual({});
    // A DCA bot's indicator start carries a custom bot's rule: taken when the strategy finds nothing wrong with it.
    const indicator = { ...dca, trailingStop: true, start: { kind: 'indicator', rule } };
    expect(copyOf({ copy: copyParam({ params: indicator as never }) })).toEqual({ params: indicator });
    expect(copyOf({ copy: JSON.stringify({ params: { ...indicator, start: { kind: 'indicator', rule: { join: 'and', conditions: [] } } } }) })).toEqual({});
    expect(copyOf({ copy: JSON.stringify({ params: { ...indicator, start: { kind: 'indicator', rule, extra: { deep: 1 } } } }) })).toEqual({});
  });
});
