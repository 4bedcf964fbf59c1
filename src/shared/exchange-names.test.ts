import { afterEach, describe, expect, it } from 'vitest';
import { i18n } from '@lingui/core';
import { exchangeLabel } from './exchange-names.ts';

// The server's catalog: its names are Chinese for the simulated accounts whatever the UI language.
const exchanges = [
  { code: 'paper', name: 'Paper' },
  { code: 'binance', name: 'Binance' },
  { code: 'okx', name: 'OKX' },
  { code: 'binancesim', name: 'Binance 模拟', simulatedOf: 'binance' },
  { code: 'okxsim', name: 'OKX 模拟', simulatedOf: 'okx' },
];
const names = (codes: string[], list = exchanges) => codes.map((c) => exchangeLabel(i18n, c, list));

/** No English in the zh UI and no Chinese in the en UI for exchange names. */
describe('exchange names in the UI language', () => {
  afterEach(() => i18n.activate('zh'));

  it('says 模拟盘 for Paper and 模拟 after a simulated account’s exchange in zh', () => {
    i18n.activate('zh');
    expect(names(['paper', 'binance', 'binancesim', 'okxsim'])).toEqual(['模拟盘', 'Binance', 'Binance 模拟', 'OKX 模拟']);
  });

  it('says Paper and (simulated) in en, never 模拟', () => {
    i18n.activate('en');
    expect(names(['paper', 'binance', 'binancesim', 'okxsim'])).toEqual(['Paper', 'Binance', 'Binance (simulated)', 'OKX (simulated)']);
  });

  it('names a code before the exchange list has loaded: Paper and simulated accounts still in the UI language', () => {
    i18n.activate('en');
    expect(names(['paper', 'bybitsim', 'gate'], [])).toEqual(['Paper', 'bybit (simulated)', 'gate']);
    expect(exchangeLabel(i18n, 'paper', undefined)).toBe('Paper');
  });
});
