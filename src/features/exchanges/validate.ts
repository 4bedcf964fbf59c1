import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';

export interface KeyValues {
  apiKey: string;
  secretKey: string;
  passphrase: string;
}

const messages = {
  apiKey: msg`请输入 API Key`,
  secretKey: msg`请输入 Secret Key`,
  passphrase: msg`请输入 Passphrase`,
};

/** docs/product.md §5: API Key and Secret Key required; the passphrase only where the exchange needs one. */
export function validateKeys(v: KeyValues, needsPassphrase: boolean): Partial<Record<keyof KeyValues, MessageDescriptor>> {
  const e: Partial<Record<keyof KeyValues, MessageDescriptor>> = {};
  if (!v.apiKey.trim()) e.apiKey = messages.apiKey;
  if (!v.secretKey.trim()) e.secretKey = messages.secretKey;
  if (needsPassphrase && !v.passphrase.trim()) e.passphrase = messages.passphrase;
  return e;
}
