import type { MessageDescriptor } from '@lingui/core';
import { ACCOUNT_RE, PASSWORD_RE, REFERRER_MIN, REFERRER_RE } from '../../../contract/rules.ts';
import { clientMessages } from '../../lib/messages.ts';

export type Errors<K extends string> = Partial<Record<K, MessageDescriptor>>;

/** Login form checks (docs/product.md §5): account and password required. */
export function validateLogin(v: { account: string; password: string }): Errors<'account' | 'password'> {
  const e: Errors<'account' | 'password'> = {};
  if (!v.account.trim()) e.account = clientMessages['form.accountRequired'];
  if (!v.password) e.password = clientMessages['form.passwordRequired'];
  return e;
}

export interface RegisterValues {
  account: string;
  password: string;
  confirm: string;
  referrer: string;
  agreement: boolean;
}
type RegisterField = keyof RegisterValues;

/** Registration checks (docs/product.md §5), the same rules the server applies (contract/rules.ts). */
export function validateRegister(v: RegisterValues): Errors<RegisterField> {
  const e: Errors<RegisterField> = {};
  const account = v.account.trim();
  if (!account) e.account = clientMessages['form.accountRequired'];
  else if (!ACCOUNT_RE.test(account)) e.account = clientMessages['form.accountFormat'];
  if (!v.password) e.password = clientMessages['form.passwordRequired'];
  else if (!PASSWORD_RE.test(v.password)) e.password = clientMessages['form.passwordFormat'];
  if (!v.confirm) e.confirm = clientMessages['form.confirmRequired'];
  else if (v.confirm !== v.password) e.confirm = clientMessages['form.passwordsMismatch'];
  const referrer = v.referrer.trim();
  if (referrer && referrer.length < REFERRER_MIN) e.referrer = clientMessages['form.referrerMin'];
  else if (referrer && !REFERRER_RE.test(referrer)) e.referrer = clientMessages['form.referralInvalid'];
  if (!v.agreement) e.agreement = clientMessages['form.agreementRequired'];
  return e;
}
