import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from '@tanstack/react-router';
import { useAtom, useSetAtom } from 'jotai';
import { Trans, useLingui } from '@lingui/react/macro';
import { describeError } from '../../../lib/lazy-api.ts';
import { loadAuthCalls } from '../load-challenge.ts';
import { loginLoadingAtom, signInAtom } from '../../../state/session.ts';
import { Field } from '../../../components/ui/field.tsx';
import * as ui from '../../../components/ui/ui.css.ts';
import { validateLogin, type Errors } from '../validate.ts';
import { AuthHeader } from './auth-header.tsx';
import { PasswordField } from './password-input.tsx';
import { WalletEntry } from '../../../lib/wallet/components/wallet-entry.tsx';
import * as css from './auth.css.ts';

/**
 * Account and password login (docs/product.md §4): on success the user is kept and the app opens at home. After
 * failed logins the server may ask for a proof of work (ChallengeRequired): it is solved (安全验证中…)
 * and the login sent once more.
 */
export function LoginForm() {
  const { t, i18n } = useLingui();
  const navigate = useNavigate();
  const signIn = useSetAtom(signInAtom);
  const [loading, setLoading] = useAtom(loginLoadingAtom);
  const [values, setValues] = useState({ account: '', password: '' });
  const [errors, setErrors] = useState<Errors<'account' | 'password'>>({});
  const [failure, setFailure] = useState('');
  const [checking, setChecking] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = validateLogin(values);
    setErrors(found);
    setFailure('');
    if (Object.keys(found).length > 0 || loading) return;
    setLoading(true);
    try {
      const { loginAccount } = await loadAuthCalls();
      const data = await loginAccount({ account: values.account.trim(), password: values.password }, setChecking);
      signIn(data, 'password');
      await navigate({ to: '/', replace: true });
    } catch (error) {
      setFailure(await describeError(error));
    } finally {
      setLoading(false);
    }
  };

  const set = (key: 'account' | 'password') => (e: { target: { value: string } }) => setValues((v) => ({ ...v, [key]: e.target.value }));
  const err = (key: 'account' | 'password') => (errors[key] ? i18n._(errors[key]) : undefined);

  return (
    <main className={css.screen}>
      <AuthHeader />
      <form className={ui.card} onSubmit={submit} onFocus={() => void loadAuthCalls().catch(() => undefined)} noValidate aria-label={t`登录`}>
        <Field
          label={<Trans>账号</Trans>}
          name="account"
          autoComplete="username"
          autoCapitalize="none"
          value={values.account}
          onChange={set('account')}
          error={err('account')}
          placeholder={t`请输入账号`}
        />
        <PasswordField
          label={<Trans>密码</Trans>}
          name="password"
          autoComplete="current-password"
          value={values.password}
          onChange={set('password')}
          error={err('password')}
          placeholder={t`请输入密码`}
        />
        {failure ? (
          <div role="alert" className={ui.formError}>
            {failure}
          </div>
        ) : null}
        <button type="submit" className={ui.button.primary} disabled={loading}>
          {checking ? <Trans>安全验证中…</Trans> : loading ? <Trans>登录中…</Trans> : <Trans>登录</Trans>}
        </button>
      </form>
      <WalletEntry />
      <p className={css.switchLine}>
        <Trans>还没有账号？</Trans>{' '}
        <Link to="/register/{-$referrer}">
          <Trans>立即注册</Trans>
        </Link>
      </p>
    </main>
  );
}
