import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { setupI18n, type I18n } from '@lingui/core';
import { compileMessage } from '@lingui/message-utils/compileMessage';
import { generateMessageId } from '@lingui/message-utils/generateMessageId';
import {
  checkCustom,
  customParamsFromValues,
  customTrailingNote,
  customValuesFromParams,
  defaultCustomValues,
  explainLines,
  explainStored,
  newCondition,
  operandValues,
  strategyParams,
  type CustomValues,
} from './custom-form.ts';

/** The bots catalog in zh (the source) and in en (its .po, compiled as the build does). */
function catalog(locale: 'zh' | 'en'): I18n {
  const text = readFileSync(join(process.cwd(), 'src/locales/bots', `${locale}.po`), 'utf8');
  const messages: Record<string, ReturnType<typeof compileMessage>> = {};
  for (const m of text.matchAll(/^msgid "((?:[^"\\]|\\.)*)"\nmsgstr "((?:[^"\\]|\\.)*)"$/gm)) {
    if (m[1]) messages[generateMessageId(JSON.parse(`"${m[1]}"`) as string)] = compileMessage(JSON.parse(`"${m[2]}"`) as string);
  }
  return setupI18n({ locale, messages: { [locale]: messages } });
}
const zh = catalog('zh');
const en = catalog('en');
/** Each field's problem in zh and en. */
const said = (v: CustomValues, minCost = '5') => {
  const problems = checkCustom(v, { minCost });
  return Object.fromEntries(Object.entries(problems).map(([field, p]) => [field, [zh._(p!.message), en._(p!.message)]]));
};

/** RSI(14, 1h) < 30 and price > EMA(200, 1h): the example. */
const example: CustomValues = {
  ...defaultCustomValues,
  entry: {
    join: 'and',
    conditions: [newCondition(), { left: operandValues('price'), op: '>', right: operandValues('ema', { period: '200' }) }],
  },
  exit: { join: 'or', conditions: [{ left: operandValues('macd', { line: 'histogram' }), op: 'crossesBelow', right: operandValues('value', { value: '0' }) }] },
  takeProfit: '3',
};

describe('custom bot form', () => {
  it('accepts the defaults and the example, as the server takes them', () => {
    expect(checkCustom(defaultCustomValues, { minCost: '5' })).toEqual({});
    expect(checkCustom(example, { minCost: '5' })).toEqual({});
    const p = customParamsFromValues(example);
    expect(p.entry.conditions[1]).toEqual({ left: { kind: 'price' }, op: '>', right: { kind: 'ema', period: 200, timeframe: '1h' } });
    expect(p.exit?.join).toBe('or');
    // A stored bot's parameters give the same values back.
    expect(customValuesFromParams(strategyParams(example))).toEqual(example);
  });

  it('explains the rules in plain zh and en', () => {
    expect(explainLines(strategyParams(example), 'zh')).toEqual({
      entry: '买入：RSI(14, 1h) < 30 且 价格 > EMA(200, 1h)',
      exit: '卖出：MACD 柱(12, 26, 9, 1h) 下穿 0',
      exits: '平仓：止盈 3%，止损 5%',
    });
    expect(explainLines(strategyParams(example), 'en')).toEqual({
      entry: 'Buys when RSI(14, 1h) < 30 and price > EMA(200, 1h)',
      exit: 'Sells when MACD histogram(12, 26, 9, 1h) crosses below 0',
      exits: 'Closes with take profit at +3%, stop loss at -5%',
    });
    const bands: CustomValues = {
      ...example,
      entry: { join: 'or', conditions: [{ left: operandValues('price'), op: 'crossesAbove', right: operandValues('bb', { band: 'upper', period: '20', timeframe: '4h' }) }] },
      exitOn: false,
      stopLoss: '',
    };
    expect(explainStored(strategyParams(bands), 'zh')).toEqual(['买入：价格 上穿 布林上轨(20, 2, 4h)', '平仓：止盈 3%']);
    expect(explainStored(strategyParams(bands), 'en')).toEqual(['Buys when price crosses above BB upper(20, 2, 4h)', 'Closes with take profit at +3%']);
    // A stored bot without a sell rule (null) and the change over a window.
    const change = {
      ...strategyParams(bands),
      entry: { join: 'and', conditions: [{ left: { kind: 'change', period: 5, timeframe: '15m' }, op: '<', right: { kind: 'value', value: '-2' } }] },
      exit: null,
    };
    expect(explainStored(change, 'zh')?.[0]).toBe('买入：涨跌幅%(5, 15m) < -2');
    expect(explainStored({ firstOrder: '10' }, 'en')).toBeNull();
  });

  it('leaves out the explanation of a rule with a problem', () => {
    const bad = { ...example, entry: { ...example.entry, conditions: [{ ...newCondition(), left: operandValues('rsi', { period: '' }) }] } };
    const lines = explainLines(strategyParams(bad), 'en', Object.keys(checkCustom(bad)));
    expect(lines.entry).toBeNull();
    expect(lines.exit).toBe('Sells when MACD histogram(12, 26, 9, 1h) crosses below 0');
  });

  it("says each problem under its field in zh and en, never the field's path", () => {
    const cond = (over: Partial<CustomValues['entry']['conditions'][number]>) => ({ ...newCondition(), ...over });
    const bad: CustomValues = {
      ...example,
      investment: '50',
      quote: '80',
      entry: {
        join: 'and',
        conditions: [
          cond({ left: operandValues('rsi', { period: '1' }) }),
          cond({ left: operandValues('value', { value: '3' }), right: operandValues('value', { value: '4' }) }),
          cond({ left: operandValues('macd', { fast: '30', slow: '26' }), right: operandValues('sma', { period: '2.5' }) }),
          cond({ left: operandValues('price'), right: operandValues('price') }),
          cond({ left: operandValues('bb', { deviation: '20' }), right: operandValues('value', { value: 'x' }) }),
        ],
      },
      takeProfit: '0',
    };
    expect(said(bad)).toEqual({
      'size.quote': ['每次买入金额不能超过投资金额', 'A buy cannot spend more than the investment'],
      'entry.conditions.0.left.period': ['须在 2 到 500 之间', 'Must be between 2 and 500'],
      'entry.conditions.1': ['数值与数值比较永不变化：至少一侧须为价格或指标', 'A number against a number never changes: make one side the price or an indicator'],
      'entry.conditions.2.left.fast': ['快线周期须小于慢线周期', 'The fast period must be less than the slow period'],
      'entry.conditions.2.right.period': ['请输入整数', 'Enter a whole number'],
      'entry.conditions.3.right': ['两侧相同：请换一个指标或数值', 'Both sides are the same: pick another indicator or number'],
      'entry.conditions.4.left.deviation': ['须在 0.1 到 10 之间', 'Must be between 0.1 and 10'],
      'entry.conditions.4.right.value': ['请输入数字', 'Enter a number'],
      takeProfit: ['须在 0.1% 到 1000% 之间', 'Must be between 0.1% and 1000%'],
    });
    // A share of the investment below the market's minimum order, and no way out.
    const small: CustomValues = { ...defaultCustomValues, sizeKind: 'share', percent: '0.5', exitOn: false, stopLoss: '' };
    expect(said(small)).toEqual({
      'size.percent': ['每次买入金额低于交易所最小下单额 5 USDT', "A buy is below the exchange's minimum order of 5 USDT"],
      exit: ['请设置止盈、止损或卖出规则（至少一项）', 'Set a take profit, a stop loss or a sell rule (at least one)'],
    });
    // Empty fields are required.
    expect(said({ ...defaultCustomValues, investment: '', quote: '' })).toEqual({ investment: ['必填', 'Required'], 'size.quote': ['必填', 'Required'] });
  });

  it('takes a trailing take profit and a trailing stop as martin and DCA do: checked, noted, explained, sent and read back', () => {
    const trailing: CustomValues = { ...example, trailingDeviation: '0.5', trailingStop: true };
    expect(checkCustom(trailing, { minCost: '5' })).toEqual({});
    expect(customParamsFromValues(trailing)).toMatchObject({ takeProfit: '3', trailingDeviation: '0.5', stopLoss: '5', trailingStop: true });
    // Off: '' and false as the form sends them, left out as the server stores them.
    expect(customParamsFromValues(example)).toMatchObject({ trailingDeviation: '', trailingStop: false });
    expect(strategyParams(example)).not.toHaveProperty('trailingDeviation');
    expect(strategyParams(example)).not.toHaveProperty('trailingStop');
    expect(customValuesFromParams(strategyParams(trailing))).toEqual(trailing);
    expect(customValuesFromParams(strategyParams(example))).toEqual(example);
    // The worst sale (1.03 x 0.995 - 1 = +2.485 %) and the warning once the deviation reaches the take profit.
    expect(customTrailingNote(trailing)).toEqual({ worst: '+2.48', warn: false });
    expect(customTrailingNote({ ...trailing, trailingDeviation: '3' })).toMatchObject({ warn: true });
    expect(customTrailingNote({ ...trailing, takeProfit: '' })).toBeNull();
    expect(customTrailingNote(example)).toBeNull();
    expect(explainLines(strategyParams(trailing), 'zh').exits).toBe('平仓：止盈 3%（追踪回调 0.5%），追踪止损 5%');
    expect(explainLines(strategyParams(trailing), 'en').exits).toBe('Closes with take profit at +3% (trailing 0.5%), trailing stop loss at -5%');
    // Each needs the percentage it trails (said under that field), the deviation 0.1-20 % (martin's words).
    expect(said({ ...trailing, takeProfit: '', stopLoss: '' })).toEqual({
      takeProfit: ['追踪止盈需要填写止盈比例', 'A trailing take profit needs a take profit %'],
      stopLoss: ['追踪止损需要填写止损比例', 'A trailing stop needs a stop loss %'],
    });
    expect(said({ ...trailing, trailingDeviation: '25' })).toEqual({ trailingDeviation: ['回调幅度须在 0.1% 到 20% 之间', 'Trailing deviation must be between 0.1% and 20%'] });
  });
});
