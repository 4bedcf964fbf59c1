import { describe, expect, it } from 'vitest';
import { closeQuery, estimateClose } from './close-estimate.ts';

// A martin bot holding 0.002 BTC bought at 50,000 (0.00199 to sell after the fee), priced at 51,000, on Paper's rules.
const detail = {
  price: '51000',
  fills: [{ price: '50000', amount: '0.002' }],
  close: { carry: '0', carryCost: '0', tickSize: '0.01', stepSize: '0.00001', minAmount: '0.00001', minCost: '5', feeRate: '0.001' },
};

describe('the close confirmation’s estimate (partial close)', () => {
  it('estimates 50 % with the engine’s maths: 0.00099 sold, 0.88996045 USDT, 0.001 left, and sends the share', () => {
    const half = estimateClose(detail, 'percent', '50');
    expect(half?.ok && [half.all, half.amount.toFixed(), half.close.profit.toFixed(), half.rest.toFixed()]).toEqual([false, '0.00099', '0.88996045', '0.001']);
    expect(closeQuery('percent', '50', half)).toEqual({ share: '50' });
    const amount = estimateClose(detail, 'base', '0.001');
    expect(amount?.ok && amount.share).toBe('50.25');
    expect(closeQuery('base', '0.001', amount)).toEqual({ baseAmount: '0.001' });
  });

  it('sends nothing more for the whole position (the full close as before), and says what stops the others', () => {
    const all = estimateClose(detail, 'percent', '100');
    expect(all?.ok && all.all).toBe(true);
    expect(closeQuery('percent', '100', all)).toEqual({});
    expect(estimateClose(detail, 'percent', '0')).toMatchObject({ ok: false, problem: 'share' });
    expect(estimateClose(detail, 'percent', 'abc')).toMatchObject({ ok: false, problem: 'format' });
    expect(estimateClose(detail, 'base', '0.003')).toMatchObject({ ok: false, problem: 'aboveHeld' });
    expect(estimateClose(detail, 'percent', '99')).toMatchObject({ ok: false, problem: 'restBelowMinimum' });
    expect(estimateClose({ ...detail, close: undefined }, 'percent', '50')).toBeNull(); // a grid bot: no partial close
  });
});
