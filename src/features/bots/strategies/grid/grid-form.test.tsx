import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { I18nProvider } from '@lingui/react';
import { i18n } from '@lingui/core';
import type { SymbolInfo } from '../../../../../contract/market.ts';
import { Field } from '../../../../components/ui/field.tsx';
import { checkGrid, defaultGridValues, gridMakerSaving, gridParamsFromValues, gridPreview, gridStopNote, gridTrailingNote, gridValuesFromParams, type GridValues } from './grid-form.ts';
import { useBotForm } from '../../use-bot-form.ts';

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
const defaults = defaultGridValues(btc.price, btc.tickSize);
const text = (p: { message: { message?: string } } | undefined) => p?.message.message;

describe('grid form checks', () => {
  it('accepts the defaults: 10 grids 10% either side of the price', () => {
    expect(defaults).toMatchObject({ lower: '45000', upper: '55000', grids: '10' });
    expect(checkGrid(defaults, btc)).toEqual({});
  });

  it('puts an upper price not above the lower on the upper price, about both prices', () => {
    const problems = checkGrid({ ...defaults, upper: '44000' }, btc);
    expect(Object.keys(problems)).toEqual(['upper']);
    expect(text(problems.upper)).toBe('最高价须高于最低价');
    expect(problems.upper?.fields).toEqual(['upper', 'lower']);
  });

  it('ties each cross-field problem to the fields it was checked against', () => {
    expect(checkGrid({ ...defaults, stopLoss: '46000' }, btc).stopLoss?.fields).toEqual(['stopLoss', 'lower']);
    expect(checkGrid({ ...defaults, takeProfit: '54000' }, btc).takeProfit?.fields).toEqual(['takeProfit', 'upper']);
    const tooSmall = checkGrid({ ...defaults, investment: '20' }, btc).investment;
    expect(text(tooSmall)).toContain('投资金额太少');
    expect(tooSmall?.fields).toEqual(['investment', 'lower', 'upper', 'grids']);
    // A count out of 2-150 is the count's own problem; an empty price only its own field's.
    expect(checkGrid({ ...defaults, grids: '151' }, btc).grids?.fields).toEqual(['grids']);
    expect(checkGrid({ ...defaults, lower: '' }, btc).lower).toMatchObject({ fields: ['lower'] });
  });
});

describe('the grid form’s trailing exits', () => {
  it('starts off, sends and reads back both fields', () => {
    expect(defaults).toMatchObject({ trailingDeviation: '', trailingStop: false });
    const sent = gridParamsFromValues({ ...defaults, takeProfit: '56000', trailingDeviation: ' 1.5 ', stopLoss: '44000', trailingStop: true });
    expect(sent).toMatchObject({ trailingDeviation: '1.5', trailingStop: true });
    expect(gridValuesFromParams(sent)).toMatchObject({ trailingDeviation: '1.5', trailingStop: true });
    // A bot saved before the trailing exits: both off.
    const { trailingDeviation: _d, trailingStop: _s, ...old } = sent;
    expect(gridValuesFromParams(old)).toMatchObject({ trailingDeviation: '', trailingStop: false });
  });

  it('asks for the price each one trails, said on that price, and keeps the deviation within 0.1-20 %', () => {
    const noTp = checkGrid({ ...defaults, trailingDeviation: '1' }, btc);
    expect(Object.keys(noTp)).toEqual(['takeProfit']);
    expect(text(noTp.takeProfit)).toBe('追踪止盈需要填写止盈价');
    expect(noTp.takeProfit?.fields).toEqual(['takeProfit', 'trailingDeviation']);
    const noStop = checkGrid({ ...defaults, trailingStop: true }, btc);
    expect(text(noStop.stopLoss)).toBe('追踪止损需要填写止损价');
    expect(text(checkGrid({ ...defaults, takeProfit: '56000', trailingDeviation: '21' }, btc).trailingDeviation)).toBe('回调幅度须在 0.1% 到 20% 之间');
    expect(checkGrid({ ...defaults, takeProfit: '56000', trailingDeviation: '1', stopLoss: '44000', trailingStop: true }, btc)).toEqual({});
  });

  it('shows the worst trailing sale, and warns when it can fall back to the upper price or below', () => {
    // floor(56000 x 0.99) = 55440: above the upper price 55000.
    expect(gridTrailingNote({ ...defaults, takeProfit: '56000', trailingDeviation: '1' }, btc.tickSize)).toEqual({ worst: '55440', warn: false });
    // floor(56000 x 0.98) = 54880: inside the range.
    expect(gridTrailingNote({ ...defaults, takeProfit: '56000', trailingDeviation: '2' }, btc.tickSize)).toEqual({ worst: '54880', warn: true });
    // Off, or not valid: the field's own error speaks.
    expect(gridTrailingNote(defaults, btc.tickSize)).toBeNull();
    expect(gridTrailingNote({ ...defaults, takeProfit: '56000', trailingDeviation: '25' }, btc.tickSize)).toBeNull();
    expect(gridTrailingNote({ ...defaults, trailingDeviation: '1' }, btc.tickSize)).toBeNull();
  });

  it('says how far under the high the trailing stop sells, from the price now', () => {
    // 1 - 44000 / 50000 = 12 %.
    expect(gridStopNote({ ...defaults, stopLoss: '44000', trailingStop: true }, btc.price)).toBe('12.00');
    expect(gridStopNote({ ...defaults, stopLoss: '44000' }, btc.price)).toBeNull();
    expect(gridStopNote({ ...defaults, stopLoss: '51000', trailingStop: true }, btc.price)).toBeNull();
  });

  it('says what resting the levels saves per 100 fills: the fee difference on one grid at the price now', () => {
    const paper = { ...btc, makerFeeRate: '0.0008' };
    const quantity = gridPreview(defaults, paper)!.quantity;
    // 10 grids of 1,000 USDT from 45,000 to 55,000: 0.00205 a grid; 100 x 0.00205 x 50,000 x (0.1 % - 0.08 %).
    expect(quantity).toBe('0.00205');
    expect(gridMakerSaving(quantity, paper)).toEqual({ maker: '0.08', taker: '0.1', per100: '2.05' });
    // No maker fee named, or none cheaper: nothing to say.
    expect(gridMakerSaving(quantity, btc)).toBeNull();
    expect(gridMakerSaving(quantity, { ...btc, makerFeeRate: '0.001' })).toBeNull();
  });
});

/** The grid form's price fields as the create screen wires them: the real checks, form state and fields. */
function PriceFields({ initial }: { initial: GridValues }) {
  const [values, setValues] = useState(initial);
  const form = useBotForm(checkGrid(values, btc));
  const field = (name: 'lower' | 'upper' | 'investment', label: string) => (
    <Field label={label} name={name} value={values[name]} onChange={(e) => setValues((v) => ({ ...v, [name]: e.target.value }))} onBlur={form.blur(name)} error={form.err(name)} />
  );
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        void form.save(false, async () => undefined);
      }}
    >
      {field('lower', '最低价')}
      {field('upper', '最高价')}
      {field('investment', '投资金额')}
      <button type="submit">创建策略</button>
    </form>
  );
}
const renderForm = (initial: GridValues) =>
  render(
    <I18nProvider i18n={i18n}>
      <PriceFields initial={initial} />
    </I18nProvider>,
  );
const input = (label: string) => screen.getByLabelText(label);
const alerts = () => screen.queryAllByRole('alert').map((a) => a.textContent);

describe('the grid form shows a field error when the field is left', () => {
  afterEach(cleanup);

  it('shows the upper price below the lower as soon as the upper field is left, before any submit', () => {
    renderForm(defaults);
    fireEvent.focus(input('最高价'));
    fireEvent.change(input('最高价'), { target: { value: '40000' } });
    expect(alerts()).toEqual([]); // not while typing
    fireEvent.blur(input('最高价'));
    expect(alerts()).toEqual(['最高价须高于最低价']);
    expect(input('最高价').getAttribute('aria-invalid')).toBe('true');
    fireEvent.change(input('最高价'), { target: { value: '60000' } });
    expect(alerts()).toEqual([]);
  });

  it('shows it too when the lower price is raised above the upper and left', () => {
    renderForm(defaults);
    fireEvent.change(input('最低价'), { target: { value: '56000' } });
    fireEvent.blur(input('最低价'));
    expect(alerts()).toEqual(['最高价须高于最低价']);
  });

  it("keeps an unvisited field's error hidden until the form is sent", () => {
    renderForm({ ...defaults, investment: '' });
    fireEvent.blur(input('最高价'));
    expect(alerts()).toEqual([]);
    fireEvent.click(screen.getByRole('button', { name: '创建策略' }));
    expect(alerts()).toEqual(['必填']);
  });
});
