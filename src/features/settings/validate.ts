import { i18n, type MessageDescriptor } from '@lingui/core';
import { PASSWORD_RE, PAYMENT_PASSWORD_RE, profileFieldOk, type PasswordType, type SetInfoField } from '../../../contract/rules.ts';
import { clientMessages } from '../../lib/messages.ts';

const fieldMessages: Record<SetInfoField, MessageDescriptor> = {
  nickname: clientMessages['form.nicknameInvalid'],
  email: clientMessages['form.emailInvalid'],
  mobile: clientMessages['form.mobileInvalid'],
  avatar: clientMessages['form.avatarInvalid'],
  referrer: clientMessages['form.referrerMin'],
};

/** The translated problem with a profile value, or null when it is fine (same rules as the server). */
export function profileFieldError(field: SetInfoField, value: string): string | null {
  return profileFieldOk[field](value.trim()) ? null : i18n._(fieldMessages[field]);
}

export interface PasswordValues {
  old: string;
  password: string;
  confirm: string;
}

/**
 * Password form checks (docs/product.md §5): a login password follows the account rules; a payment password is
 * exactly 6 digits; the confirmation must match. `needsOld`: the current password is asked for.
 */
export function validatePassword(type: PasswordType, v: PasswordValues, needsOld: boolean): Partial<Record<keyof PasswordValues, MessageDescriptor>> {
  const e: Partial<Record<keyof PasswordValues, MessageDescriptor>> = {};
  if (needsOld && !v.old) e.old = clientMessages['form.oldPasswordRequired'];
  const rule = type === 'login' ? PASSWORD_RE : PAYMENT_PASSWORD_RE;
  if (!v.password) e.password = clientMessages['form.passwordRequired'];
  else if (!rule.test(v.password)) e.password = type === 'login' ? clientMessages['form.passwordFormat'] : clientMessages['form.paymentPasswordFormat'];
  if (!v.confirm) e.confirm = clientMessages['form.confirmRequired'];
  else if (v.confirm !== v.password) e.confirm = type === 'login' ? clientMessages['form.passwordsMismatch'] : clientMessages['form.paymentPasswordMismatch'];
  return e;
}
