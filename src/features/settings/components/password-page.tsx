import { useState, type FormEvent } from 'react';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import type { PasswordType } from '../../../../contract/rules.ts';
import { errorText } from '../../../lib/http.ts';
import { useQuery } from '@tanstack/react-query';
import { Page } from '../../../components/ui/page.tsx';
import { LoadState } from '../../../components/ui/load-state.tsx';
import { Field } from '../../../components/ui/field.tsx';
import * as ui from '../../../components/ui/ui.css.ts';
import { walletFailureText } from '../../../lib/wallet/wallet-failure.ts';
import { useUserIndex } from '../use-user-index.ts';
import { validatePassword, type PasswordValues } from '../validate.ts';
import { OtpField, asksForOtp, cleanOtp, useOtpCheck } from '../../../shared/otp-field.tsx';
import { waitWords } from '../../../shared/wait-words.ts';
import { WithdrawLock } from '../../../shared/withdraw-lock.tsx';
import * as css from './security.css.ts';
import { call, failed as failedQuery, queryClient, write } from '../../../shared/query.ts';

/**
 * Login password change, and payment password set or change. Changing the login password asks for the
 * current one; a payment password asks for the current payment password, or the login password when
 * it is set for the first time. A wallet-only account (no login password) has no password to show:
 * its bound wallet signs the server's statement instead. With two-factor authentication on, a code
 * from the authenticator app too. Any change locks withdrawals for a while: the screen says until when.
 */
export function PasswordPage({ type }: { type: PasswordType }) {
  const { t, i18n } = useLingui();
  const navigate = useNavigate();
  const { index, failed, reload } = useUserIndex();
  const security = useQuery(call('userSecurity', undefined, { show: false }));
  const checkOtp = useOtpCheck();
  const [values, setValues] = useState<PasswordValues>({ old: '', password: '', confirm: '' });
  const [otp, setOtp] = useState('');
  const [needsOtp, setNeedsOtp] = useState(false);
  const [errors, setErrors] = useState<ReturnType<typeof validatePassword> & { otp?: string }>({});
  const [failure, setFailure] = useState('');
  const [busy, setBusy] = useState(false);
  const [signing, setSigning] = useState(false);
  const [done, setDone] = useState<{ until: string | null; changed: boolean; locks: boolean; read: boolean } | null>(null);

  const profile = index?.profile;
  const s = security.data;
  const paymentSet = s?.paymentPasswordSet ?? profile?.paymentPasswordSet ?? false;
  const walletProof = s?.walletProofNeeded ?? false;
  const otpShown = (s?.twoFactor ?? false) || needsOtp;
  const oldLabel = walletProof ? null : type === 'login' ? t`当前登录密码` : paymentSet ? t`当前支付密码` : profile?.loginPasswordSet ? t`登录密码（验证身份）` : null;
  const loginSet = s?.loginPasswordSet ?? profile?.loginPasswordSet ?? true;
  const title = type === 'login' ? loginSet ? <Trans>登录密码</Trans> : <Trans>设置登录密码</Trans> : paymentSet ? <Trans>修改支付密码</Trans> : <Trans>设置支付密码</Trans>;
  const digits = type === 'payment' ? { inputMode: 'numeric' as const, maxLength: 6, pattern: '[0-9]*' } : {};
  const wallet = s?.wallet ?? '';
  const walletShort = `${wallet.slice(0, 6)}…${wallet.slice(-4)}`;
  // A login password, or a payment password that replaces one, locks withdrawals; the first payment password opens them.
  const locks = type === 'login' || paymentSet;
  const wait = s ? waitWords(s.withdrawLockMs, i18n) : null;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found: typeof errors = validatePassword(type, values, oldLabel !== null);
    const otpProblem = otpShown ? checkOtp(otp) : undefined;
    if (otpProblem) found.otp = otpProblem;
    setErrors(found);
    setFailure('');
    if (Object.keys(found).length > 0 || busy) return;
    setBusy(true);
    try {
      let signature: `0x${string}` | undefined;
      if (walletProof) {
        setSigning(true);
        try {
          const { walletPasswordProof } = await import('../../../lib/wallet/wallet-login.ts');
          signature = await walletPasswordProof(wallet);
        } catch (error) {
          setFailure(await walletFailureText(error, i18n));
          return;
        } finally {
          setSigning(false);
        }
      }
      await write('userPassword', {
        type,
        password: values.password,
        confirm: values.confirm,
        ...(oldLabel !== null ? { old: values.old } : {}),
        ...(signature ? { signature } : {}),
        ...(otpShown ? { otp: cleanOtp(otp) } : {}),
      });
      // A change locked withdrawals: say until when (the server's time), or for how long when it cannot be read.
      const after = await queryClient.fetchQuery(call('userSecurity', undefined, { show: false })).catch(() => null);
      setDone({ until: after?.withdrawLockedUntil ?? null, changed: type === 'login' ? loginSet : paymentSet, locks, read: after !== null });
    } catch (e) {
      if (asksForOtp(e)) setNeedsOtp(true);
      setFailure(errorText(e));
    } finally {
      setBusy(false);
    }
  };
  const set = (key: keyof PasswordValues) => (e: { target: { value: string } }) => setValues((v) => ({ ...v, [key]: e.target.value }));
  const err = (key: keyof PasswordValues) => (errors[key] ? i18n._(errors[key]) : undefined);
  const oldIsPayment = type === 'payment' && paymentSet;
  const loaded = index && s;

  if (done) {
    return (
      <Page title={title}>
        <section className={ui.card} data-testid="password-done">
          <p className={css.done} role="status">
            {type === 'login' ? done.changed ? <Trans>登录密码已修改。</Trans> : <Trans>登录密码已设置。</Trans> : done.changed ? <Trans>支付密码已修改。</Trans> : <Trans>支付密码已设置。</Trans>}
          </p>
          {done.until ? null : done.locks && !done.read && wait ? (
            <p className={css.text}>
              <Trans>为保护资金，接下来 {wait} 内不能提现。</Trans>
            </p>
          ) : !done.locks ? (
            <p className={css.text} data-testid="password-no-lock">
              <Trans>首次设置支付密码不会锁定提现，现在就可以提现。</Trans>
            </p>
          ) : null}
          {type === 'login' ? (
            <p className={css.small}>
              <Trans>其他设备上的登录已失效。</Trans>
            </p>
          ) : null}
        </section>
        {done.until && s ? <WithdrawLock until={done.until} lockMs={s.withdrawLockMs} showOpen={false} link /> : null}
        <button type="button" className={ui.button.primary} onClick={() => void navigate({ to: '/my', replace: true })}>
          <Trans>完成</Trans>
        </button>
      </Page>
    );
  }

  return (
    <Page title={title}>
      <LoadState
        loading={!loaded && !failed && !failedQuery(security)}
        failed={failed || failedQuery(security)}
        failedText={<Trans>资料加载失败。</Trans>}
        onRetry={() => {
          reload();
          void security.refetch();
        }}
      />
      {loaded ? (
        <form className={ui.card} onSubmit={submit} noValidate>
          {walletProof ? (
            <p className={css.text} data-testid="password-wallet-note">
              <Trans>
                本账户用钱包登录，没有登录密码。提交时会请绑定的钱包 <span className={css.mono13}>{walletShort}</span> 签名一条确认消息，以证明是你本人；签名不花费任何手续费。
              </Trans>
            </p>
          ) : null}
          {oldLabel !== null ? (
            <Field label={oldLabel} name="old" type="password" autoComplete="current-password" value={values.old} onChange={set('old')} error={err('old')} {...(oldIsPayment ? digits : {})} />
          ) : null}
          <Field
            label={type === 'login' ? t`新登录密码` : t`新支付密码（6 位数字）`}
            name="password"
            type="password"
            autoComplete="new-password"
            value={values.password}
            onChange={set('password')}
            error={err('password')}
            {...digits}
          />
          <Field label={t`确认新密码`} name="confirm" type="password" autoComplete="new-password" value={values.confirm} onChange={set('confirm')} error={err('confirm')} {...digits} />
          {otpShown ? <OtpField value={otp} onChange={setOtp} error={errors.otp} testId="password-otp" /> : null}
          {type === 'login' && loginSet ? (
            <p className={ui.muted}>
              <Trans>修改后，其他设备上的登录将失效。</Trans>
            </p>
          ) : null}
          {locks && wait ? (
            <p className={ui.muted}>
              <Trans>为保护资金，修改密码后 {wait} 内不能提现。</Trans>
            </p>
          ) : null}
          {failure ? (
            <div role="alert" className={ui.formError} data-testid="password-failure">
              {failure}
            </div>
          ) : null}
          <button type="submit" className={ui.button.primary} disabled={busy} data-testid="password-submit">
            {signing ? <Trans>请在钱包中确认…</Trans> : busy ? <Trans>提交中…</Trans> : walletProof ? <Trans>用钱包签名并确认</Trans> : <Trans>确认</Trans>}
          </button>
        </form>
      ) : null}
    </Page>
  );
}

const route = getRouteApi('/_authed/my/password/$type');

/** The /my/password/{type} screen; a new type gets a fresh form. */
export function PasswordRoute() {
  const { type } = route.useParams();
  return <PasswordPage key={type} type={type} />;
}
