import type { I18n } from '@lingui/core';
import { describeError } from '../lazy-api.ts';
import { loadArea } from '../i18n.ts';
import type { WalletError } from './wallet-errors.ts';

/**
 * The text to show for a failed wallet flow: the wallet message of docs/product.md §8 for a wallet's refusal (its
 * texts are a catalog of their own, fetched only now), else what the server or network said.
 */
export async function walletFailureText(error: unknown, i18n: I18n): Promise<string> {
  const problem = (error as Partial<WalletError>)?.problem;
  if (!problem) return describeError(error);
  const [{ walletMessages }] = await Promise.all([import('./wallet-errors.ts'), loadArea('wallet')]);
  return i18n._(walletMessages[problem]);
}
