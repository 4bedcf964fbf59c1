import { describe, expect, it } from 'vitest';
import { endAtPrice } from './candles.ts';

describe('candles ending at the price', () => {
  const candle = { time: 0, open: '100.00', high: '101.00', low: '99.00', close: '100.50', volume: '1' };
  it('sets the last close to the price, widening the last range to hold it', () => {
    expect(endAtPrice([candle], '100.50')).toEqual([candle]);
    expect(endAtPrice([candle], '100.20').at(-1)).toEqual({ ...candle, close: '100.20' });
    expect(endAtPrice([candle, candle], '102.00')).toEqual([candle, { ...candle, close: '102.00', high: '102.00' }]);
    expect(endAtPrice([candle], '98.10').at(-1)).toEqual({ ...candle, close: '98.10', low: '98.10' });
  });
  it('leaves candles alone without a price or a candle', () => {
    expect(endAtPrice([], '1')).toEqual([]);
    expect(endAtPrice([candle], null)).toEqual([candle]);
    expect(endAtPrice([candle], '')).toEqual([candle]);
  });
});
