import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { setupI18n, type I18n } from '@lingui/core';
import { compileMessage } from '@lingui/message-utils/compileMessage';
import { generateMessageId } from '@lingui/message-utils/generateMessageId';
import type { SymbolInfo } from '../../../../../contract/market.ts';
import { operandValues } from '../custom/custom-form.ts';
import { checkDca, dcaParamsFromValues, dcaPreview, dcaValuesFromParams, defaultDcaValues, explainStart, explainStoredStart, type DcaValues } from './dca-form.ts';

/** The bots catalog in zh (the source) and in en (its .po, compiled as the build does). */
function catalog(locale: 'zh' | 'en'): I18n {
  const text = readFileSync(join(process.cwd(), 'src/locales/bots', `${locale}.po`), 'utf8');
  const messages: Record<string, ReturnType<typeof compileMessage>> = {};
  for (const m of text.matchAll(/^msgid "((?:[^"\\]|\\.)*)"\nmsgstr "((?:[^"\\]|\\.)*)"$/gm)) {
    if (m[1]) messages[generateMessageId(JSON.parse(`"${m[1]}"`) as string)] = compileMessage(JSON.parse(`"${m[2]}"`) as string);
  }
  return setupI18n({ locale, messages: { [locale]: messages } });
}

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

  it('takes an indicator start in the custom bot’s format: its rule round trips, its problems under their paths in zh/en, its explanation', () => {
    const zh = catalog('zh');
    const en = catalog('en');
    const v: DcaValues = { ...example, start: 'indicator' };
    // The custom form's default condition: RSI(14, 1h) < 30.
    const p = dcaParamsFromValues(v);
    expect(p.start).toEqual({ kind: 'indicator', rule: { join: 'and', conditions: [{ left: { kind: 'rsi', period: 14, timeframe: '1h' }, op: '<', right: { kind: 'value', value: '30' } }] } });
    expect(dcaValuesFromParams(p, 480)).toEqual(v);
    expect(checkDca(v, btc)).toEqual({});
    expect(explainStart(v, 'zh')).toBe('开单：RSI(14, 1h) < 30');
    expect(explainStart(v, 'en')).toBe('Opens a deal when RSI(14, 1h) < 30');
    expect(explainStart(example, 'en')).toBeNull();
    // The detail page's words for the stored bot.
    expect(explainStoredStart(p, 'en')).toEqual(['Opens a deal when RSI(14, 1h) < 30']);
    expect(explainStoredStart(dcaParamsFromValues(example), 'zh')).toBeNull();
    // A broken condition: the custom bot's problem, under the condition card's field.
    const bad: DcaValues = { ...v, rule: { join: 'or', conditions: [{ ...v.rule.conditions[0]!, left: operandValues('rsi', { period: '0' }) }] } };
    const problems = checkDca(bad, btc);
    expect(Object.keys(problems)).toEqual(['start.rule.conditions.0.left.period']);
    const message = problems['start.rule.conditions.0.left.period']!.message;
    expect([zh._(message), en._(message)]).toEqual(['须在 2 到 500 之间', 'Must be between 2 and 500']);
    expect(explainStart(bad, 'en', Object.keys(problems))).toBeNull();
    // Another start keeps the rule typed, unused.
    expect(dcaParamsFromValues({ ...bad, start: 'now' }).start).toEqual({ kind: 'now' });
    expect(checkDca({ ...bad, start: 'now' }, btc)).toEqual({});
  });

  it('takes a trailing stop with a stop loss only', () => {
    const en = catalog('en');
    expect(dcaParamsFromValues({ ...example, trailingStop: true })).toMatchObject({ stopLoss: '15', trailingStop: true });
    expect(checkDca({ ...example, trailingStop: true }, btc)).toEqual({});
    const problems = checkDca({ ...example, stopLoss: '', trailingStop: true }, btc);
    expect(Object.keys(problems)).toEqual(['stopLoss']);
    expect(en._(problems.stopLoss!.message)).toBe('A trailing stop needs a stop loss percentage');
    expect(problems.stopLoss!.fields).toEqual(['stopLoss', 'trailingStop']);
  });
});
