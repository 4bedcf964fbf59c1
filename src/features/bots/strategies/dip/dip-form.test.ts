import { describe, expect, it } from 'vitest';
import type { SymbolInfo } from '../../../../../contract/market.ts';
import { checkDip, defaultDipValues, dipPreview } from './dip-form.ts';

const btc = { symbol: 'BTC/USDT', price: '60000', tickSize: '0.01', stepSize: '0.00001', minAmount: '0.00001', minCost: '5', feeRate: '0.001' } as SymbolInfo;

describe('the buy-the-dip form', () => {
  it('shows the engine’s own plan at the price now: line, amount and take profit', () => {
    expect(dipPreview(defaultDipValues, btc)).toEqual({ line: '58200', amount: '0.00171', takeProfit: '59364' });
  });

  it('names each problem on its field, as the server refuses it', () => {
    expect(checkDip({ ...defaultDipValues, dip: '60' }, btc).dip?.message.id).toBeTruthy();
    expect(Object.keys(checkDip({ ...defaultDipValues, investment: '1' }, btc))).toEqual(['investment']);
    expect(checkDip(defaultDipValues, btc)).toEqual({});
    expect(dipPreview({ ...defaultDipValues, takeProfit: 'x' }, btc)).toBeNull();
  });
});
