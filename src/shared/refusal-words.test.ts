import { describe, expect, it } from 'vitest';
import { setupI18n } from '@lingui/core';
import { pauseText, refusalText } from './refusal-words.ts';

// No catalog loaded: Lingui shows the source (zh) texts, with their values in place.
const zh = setupI18n({ locale: 'zh', messages: { zh: {} } });

/** An exchange's refusal in the trader's words, never the raw English of Paper or an exchange. */
describe('refusal words', () => {
  it('words each known kind of refusal, and quotes the exchange only when the kind is unknown', () => {
    expect(refusalText('insufficient balance', zh)).toBe('账户余额不足');
    expect(refusalText('amount too small', zh)).toBe('订单金额低于交易所的最小下单额');
    expect(refusalText('api-key: binance {"code":-2015,"msg":"Invalid API-key"}', zh)).toBe('API 密钥被交易所拒绝');
    expect(refusalText('binance {"code":-1121,"msg":"Invalid symbol."}', zh)).toBe('交易所不支持该交易对或已暂停交易');
    expect(refusalText('gate something unexpected', zh)).toBe('交易所拒绝：gate something unexpected');
  });

  it('says a bot paused for fuel as such', () => {
    expect(pauseText('fuel', zh)).toBe('燃料已用完');
    expect(pauseText('insufficient balance', zh)).toBe('账户余额不足');
  });
});
