import type { ReactNode } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Field } from '../components/ui/field.tsx';
import { Code } from '../../contract/codes.ts';

/** 6 digits from the authenticator app. */
export const TOTP_RE = /^\d{6}$/;
/** A recovery code as shown once ("K7Q2-MX9D"), with or without its dash, any case. */
export const RECOVERY_RE = /^[2-9A-HJKMNP-Za-hjkmnp-z]{4}-?[2-9A-HJKMNP-Za-hjkmnp-z]{4}$/;

/** Whether the answer asks for a second factor the screen did not know it needed (TwoFactorRequired). */
export const asksForOtp = (error: unknown) => (error as { code?: number } | null)?.code === Code.TwoFactorRequired;

/** The value to send: digits as typed, a recovery code upper-cased. */
export const cleanOtp = (value: string) => value.trim().toUpperCase();

/**
 * The two-factor code of a sensitive action (withdrawal, exchange keys, passwords, turning 2FA off):
 * 6 digits from the authenticator app, or, with `recovery`, one of the recovery codes.
 */
export function OtpField({
  value,
  onChange,
  error,
  recovery = true,
  testId,
  label,
}: {
  value: string;
  onChange: (value: string) => void;
  error?: string | undefined;
  recovery?: boolean;
  testId?: string;
  label?: ReactNode;
}) {
  const { t } = useLingui();
  return (
    <Field
      label={label ?? <Trans>两步验证码</Trans>}
      name="otp"
      inputMode={recovery ? 'text' : 'numeric'}
      autoComplete="one-time-code"
      autoCapitalize="characters"
      spellCheck={false}
      maxLength={recovery ? 9 : 6}
      placeholder={recovery ? t`6 位动态码或恢复码` : t`6 位动态码`}
      value={value}
      onChange={(e) => onChange(recovery ? e.target.value.replace(/\s/g, '') : e.target.value.replace(/\D/g, ''))}
      error={error}
      data-testid={testId}
    />
  );
}

/** The problem with a typed code, or undefined when it can be sent. */
export function useOtpCheck(): (value: string, recovery?: boolean) => string | undefined {
  const { t } = useLingui();
  return (value, recovery = true) => {
    const v = value.trim();
    if (!v) return t`请输入两步验证码`;
    if (TOTP_RE.test(v) || (recovery && RECOVERY_RE.test(v))) return undefined;
    return recovery ? t`请输入 6 位动态码，或 8 位恢复码（如 K7Q2-MX9D）` : t`请输入 6 位数字动态码`;
  };
}
