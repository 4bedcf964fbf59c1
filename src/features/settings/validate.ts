import { i18n, type MessageDescriptor } from '@lingui/core';
import {
  AVATAR_MAX, EMAIL_RE, MOBILE_RE, NICKNAME_MAX, PASSWORD_RE, PAYMENT_PASSWORD_RE, type PasswordType, type SetInfoField,
} from '../../../contract/rules.ts';
import { clientMessages } from '../../lib/messages.ts';

const fieldRules: Record<SetInfoField, (v: string) => MessageDescriptor | null> = {
  nickname: (v) => (v.length >= 1 && v.length <= NICKNAME_MAX ? null : clientMessages['form.nicknameInvalid']),
  email: (v) => (v === '' || EMAIL_RE.test(v) ? null : clientMessages['form.emailInvalid']),
  mobile: (v) => (v === '' || MOBILE_RE.test(v) ? null : clientMessages['form.mobileInvalid']),
  avatar: (v) => (v === '' || (v.length <= AVATAR_MAX && /^(https:\/\/\S+|\/\S*)$/.test(v)) ? null : clientMessages['form.avatarInvalid']),
};

/** The translated problem with a profile value, or null when it is fine (same rules as the server). */
export function profileFieldError(field: SetInfoField, value: string): string | null {
  const problem = fieldRules[field](value.trim());
  return problem ? i18n._(problem) : null;
}

export interface PasswordValues {
  old: string;
  password: string;
  confirm: string;
}

/**
 * Password form checks (spec §5): a login password follows the account rules; a payment password is
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
