import { describe, expect, it } from 'vitest';
import { i18n } from '@lingui/core';
import { validateKeys } from './validate.ts';

const texts = (e: object) => Object.fromEntries(Object.entries(e).map(([k, d]) => [k, i18n._(d)]));

describe('API key form checks', () => {
  it('requires key and secret, and the passphrase only where needed', () => {
    expect(texts(validateKeys({ apiKey: ' ', secretKey: '', passphrase: '' }, false))).toEqual({ apiKey: '请输入 API Key', secretKey: '请输入 Secret Key' });
    expect(texts(validateKeys({ apiKey: 'k', secretKey: 's', passphrase: '' }, true))).toEqual({ passphrase: '请输入 Passphrase' });
    expect(validateKeys({ apiKey: 'k', secretKey: 's', passphrase: '' }, false)).toEqual({});
  });
});
