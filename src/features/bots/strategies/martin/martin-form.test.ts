import { describe, expect, it } from 'vitest';
import type { SymbolInfo } from '../../../../../contract/market.ts';
import { checkMartin, defaultMartinValues, levelTable, paramsFromValues, trailingNote, valuesFromParams } from './martin-form.ts';
import { shownProblems } from '../../form-problems.ts';

const btc: SymbolInfo = {
  symbol: 'BTC/USDT',
  price: '50000',
  change24h: '0',
  exchange: 'paper',
  tickSize: '0.01',
  stepSize: '0.00001',
  minAmount: '0.00001',
  minCost: '5',
  feeRate: '0.001',
};
const ids = (o: object) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, (v as { message: { id: string } }).message.id]));

describe('martin form', () => {
  it('accepts the defaults and plans five levels at the price now', () => {
    expect(checkMartin(defaultMartinValues, btc)).toEqual({});
    const table = levelTable(defaultMartinValues, btc)!;
    expect(table.rows.map((r) => r.price)).toEqual(['50000', '49000', '48020', '47059.6', '46118.4']);
    expect(table.rows.map((r) => r.quote)).toEqual(['20', '40', '80', '160', '320']);
    // 20 USDT at 50000 is 0.0004 BTC (floored to the step), which costs exactly 20.
    expect(table.rows[0]).toMatchObject({ amount: '0.0004', total: '20', average: '50000', takeProfit: '50750' });
    // 40/49000 floors to 0.00081 BTC (39.69 USDT spent); the average is spent over held: 59.69 / 0.00121.
    expect(table.rows[1]).toMatchObject({ amount: '0.00081', total: '60', average: '49330.58' });
    expect(table.total).toBe('620');
  });

  it('previews the take profit the engine uses: rounded up to a multiple of the tick, not to its decimals', () => {
    // A tick of 0.05: 50000 x 1.015 = 50750 and, after the add, 49330.57851.. x 1.015 = 50070.5371..: the
    // engine waits at 50070.55 (the next multiple of 0.05 up); rounding to 2 decimals showed 50070.54.
    const table = levelTable(defaultMartinValues, { ...btc, tickSize: '0.05' })!;
    expect(table.rows.slice(0, 2).map((r) => r.takeProfit)).toEqual(['50750', '50070.55']);
  });

  it('names each problem of docs/product.md §5 on its field', () => {
    expect(ids(checkMartin({ ...defaultMartinValues, takeProfit: '' }, btc))).toEqual({ takeProfit: expect.stringMatching(/./) });
    const tooSmall = checkMartin({ ...defaultMartinValues, investment: '100' }, btc);
    expect(Object.keys(tooSmall)).toEqual(['investment']);
    expect(tooSmall.investment?.message.message).toContain('投资金额无效');
    expect(checkMartin({ ...defaultMartinValues, maxPositions: '31' }, btc).maxPositions?.message.message).toContain('1-30');
    expect(checkMartin({ ...defaultMartinValues, maxPositions: '2.5' }, btc).maxPositions?.message.message).toContain('1-30');
    expect(checkMartin({ ...defaultMartinValues, multiplier: '11' }, btc).multiplier?.message.message).toContain('1-10');
    expect(checkMartin({ ...defaultMartinValues, firstOrder: '4' }, btc).firstOrder?.message.message).toContain('最小下单量');
    expect(checkMartin({ ...defaultMartinValues, firstOrder: 'abc' }, btc).firstOrder?.message.message).toContain('有效的数字');
    expect(checkMartin({ ...defaultMartinValues, multiplier: '11' }, btc).multiplier?.fields).toEqual(['multiplier']);
    expect(levelTable({ ...defaultMartinValues, multiplier: 'x' }, btc)).toBeNull();
  });

  it('shows an investment too small for the cycle once the multiplier that grew the cycle is left, not when an unrelated field is', () => {
    // 20 + 60 + 180 + 540 + 1620 = 2420 USDT for five levels at 3x: more than the 1000 invested.
    const problems = checkMartin({ ...defaultMartinValues, multiplier: '3' }, btc);
    expect(Object.keys(shownProblems(problems, new Set(['multiplier'] as const), false))).toEqual(['investment']);
    expect(Object.keys(shownProblems(problems, new Set(['takeProfit'] as const), false))).toEqual([]);
  });

  it('checks the trailing fields: the deviation 0.1-20 %, a trailing stop needs a stop loss', () => {
    expect(checkMartin({ ...defaultMartinValues, trailingDeviation: '0.5' }, btc)).toEqual({});
    expect(checkMartin({ ...defaultMartinValues, trailingDeviation: '21' }, btc).trailingDeviation?.message.message).toContain('0.1% 到 20%');
    expect(checkMartin({ ...defaultMartinValues, trailingStop: true }, btc).stopLoss?.message.message).toContain('追踪止损需要');
    expect(checkMartin({ ...defaultMartinValues, trailingStop: true, stopLoss: '3' }, btc)).toEqual({});
    const sent = paramsFromValues({ ...defaultMartinValues, trailingDeviation: ' 0.5 ', trailingStop: true });
    expect(sent).toMatchObject({ trailingDeviation: '0.5', trailingStop: true });
    expect(valuesFromParams(sent)).toMatchObject({ trailingDeviation: '0.5', trailingStop: true });
    // A bot saved before trailing existed reads back with both off.
    expect(valuesFromParams({ ...sent, trailingDeviation: undefined, trailingStop: undefined })).toMatchObject({ trailingDeviation: '', trailingStop: false });
  });

  it('shows the worst trailing sale and warns when the deviation is not smaller than the take profit', () => {
    expect(trailingNote(defaultMartinValues)).toBeNull();
    // (1.015 x 0.995 - 1) x 100 = 0.9925 -> +0.99 % over the average.
    expect(trailingNote({ ...defaultMartinValues, trailingDeviation: '0.5' })).toEqual({ worst: '+0.99', warn: false });
    expect(trailingNote({ ...defaultMartinValues, trailingDeviation: '1.5' })).toEqual({ worst: '-0.02', warn: true });
    expect(trailingNote({ ...defaultMartinValues, trailingDeviation: '2' })).toMatchObject({ warn: true });
    // Below the take profit but past t / (1 + t): the worst sale is still a loss.
    expect(trailingNote({ ...defaultMartinValues, trailingDeviation: '1.49' })).toMatchObject({ warn: true });
    // Out of its bounds the field's own error speaks.
    expect(trailingNote({ ...defaultMartinValues, trailingDeviation: '25' })).toBeNull();
  });

  it('sends trimmed strings and an integer max positions', () => {
    expect(paramsFromValues({ ...defaultMartinValues, investment: ' 1000 ', maxPositions: '5' })).toMatchObject({ investment: '1000', maxPositions: 5, stopLoss: '' });
  });
});
