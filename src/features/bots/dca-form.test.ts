import { describe, expect, it } from 'vitest';
import type { SymbolInfo } from '../../../contract/schemas.ts';
import { checkDca, dcaParamsFromValues, dcaPreview, dcaValuesFromParams, defaultDcaValues, type DcaValues } from './dca-form.ts';

const btc: SymbolInfo = { symbol: 'BTC/USDT', price: '60000', change24h: '0', exchange: 'paper', tickSize: '0.01', stepSize: '0.00001', minAmount: '0.00001', minCost: '5', feeRate: '0.001' };
/** strategy/dca/README.md's worked example as the form's values. */
const example: DcaValues = {
  ...defaultDcaValues(480),
  investment: '320',
  maxSafetyOrders: '4',
  deviation: '1.5',
  stepScale: '1.5',
  volumeScale: '2',
  stopLoss: '15',
};

describe('DCA form', () => {
  it('accepts the defaults', () => {
    expect(checkDca(defaultDcaValues(0), btc)).toEqual({});
  });

  it('shows the worked example: every order, the average and take profit after each, the funds and the stop', () => {
    const p = dcaPreview(example, btc)!;
    expect(p.rows.map((r) => [r.deviation, r.price, r.quote, r.average, r.takeProfit])).toEqual([
      ['0', '60000', '20', '60000', '60900'],
      ['1.5', '59100', '20', '59550', '60443.25'],
      ['3.75', '57750', '40', '58630', '59509.45'],
      ['7.125', '55725', '80', '57135.7', '57992.74'],
      ['12.1875', '52687.5', '160', '54815.9', '55638.14'],
    ]);
    expect([p.funds, p.stop]).toEqual(['320', '51000']);
  });

  it('names the fields a problem is about', () => {
    const ids = (v: DcaValues) => Object.fromEntries(Object.entries(checkDca(v, btc)).map(([k, x]) => [k, x!.fields]));
    expect(ids({ ...example, investment: '300' })).toEqual({ investment: ['investment', 'baseOrder', 'safetyOrder', 'maxSafetyOrders', 'volumeScale'] });
    expect(Object.keys(checkDca({ ...example, stopLoss: '10' }, btc))).toEqual(['stopLoss']);
    expect(Object.keys(checkDca({ ...example, maxSafetyOrders: 'x' }, btc))).toEqual(['maxSafetyOrders']);
    expect(Object.keys(checkDca({ ...example, start: 'day', time: '' }, btc))).toEqual(['start']);
    expect(dcaPreview({ ...example, investment: '300' }, btc)).toBeNull();
  });

  it('keeps a schedule, its offset and the cooldown (minutes in the form, seconds stored) through a round trip', () => {
    const v: DcaValues = { ...example, cooldown: '15', start: 'week', weekday: '5', time: '08:30' };
    const p = dcaParamsFromValues(v);
    expect(p).toMatchObject({ cooldown: 900, start: { kind: 'schedule', every: 'week', weekday: 5, time: '08:30', utcOffset: 480 } });
    expect(dcaValuesFromParams(p, 0)).toEqual(v);
    expect(dcaParamsFromValues({ ...v, start: 'now' }).start).toEqual({ kind: 'now' });
  });
});
