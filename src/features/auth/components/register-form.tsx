import { useEffect, useState, type FormEvent } from 'react';
import { Link, useNavigate } from '@tanstack/react-router';
import { atom, useAtom, useSetAtom } from 'jotai';
import { Trans, useLingui } from '@lingui/react/macro';
import { describeError } from '../../../lib/lazy-api.ts';
import { loadAuthCalls } from '../load-challenge.ts';
import { registerLoadingAtom, signInAtom } from '../../../state/session.ts';
import { Field } from '../../../components/ui/field.tsx';
import * as ui from '../../../components/ui/ui.css.ts';
import { validateRegister, type Errors, type RegisterValues } from '../validate.ts';
import { AuthHeader } from './auth-header.tsx';
import { PasswordField } from './password-input.tsx';
import { WalletEntry } from '../../../lib/wallet/components/wallet-entry.tsx';
import * as css from './auth.css.ts';

type TextField = Exclude<keyof RegisterValues, 'agreement'>;

/** What was typed before the agreement or the privacy policy was opened: the form comes back with it, once. */
const draftAtom = atom<RegisterValues | null>(null);

/**
 * Registration (docs/product.md §5), optionally through a referral link that fills in the referrer. Every
 * registration carries a solved proof-of-work challenge (安全验证中… while the phone solves it).
 */
export function RegisterForm({ referrer = '' }: { referrer?: string }) {
  const { t, i18n } = useLingui();
  const navigate = useNavigate();
  const signIn = useSetAtom(signInAtom);
  const [loading, setLoading] = useAtom(registerLoadingAtom);
  const [draft, setDraft] = useAtom(draftAtom);
  const [values, setValues] = useState<RegisterValues>(() => (draft ? { ...draft, referrer: referrer || draft.referrer } : { account: '', password: '', confirm: '', referrer, agreement: false }));
  const [errors, setErrors] = useState<Errors<keyof RegisterValues>>({});
  const [failure, setFailure] = useState('');
  const [checking, setChecking] = useState(false);
  useEffect(() => setDraft(null), [setDraft]);
  const keepDraft = () => setDraft(values);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = validateRegister(values);
    setErrors(found);
    setFailure('');
    if (Object.keys(found).length > 0 || loading) return;
    setLoading(true);
    try {
      const { api, solvedChallenge } = await loadAuthCalls();
      const challenge = await solvedChallenge(setChecking);
      const data = await api.loginRegister({
        account: values.account.trim(),
        password: values.password,
        confirm: values.confirm,
        referrer: values.referrer.trim(),
        agreement: true,
        challenge,
      });
      signIn(data, 'password');
      await navigate({ to: '/', replace: true });
    } catch (error) {
      setFailure(await describeError(error));
    } finally {
      setLoading(false);
    }
  };

  const set = (key: TextField) => (e: { target: { value: string } }) => setValues((v) => ({ ...v, [key]: e.target.value }));
  // A field is checked when the trader leaves it (a filled one, or one touched and left empty after typing),
  // so a mistake shows where it was made, not only after the submit; a fixed one clears as it is typed.
  const blur = (key: TextField) => () => {
    if (values[key] === '' && !errors[key]) return;
    const found = validateRegister(values);
    setErrors((e) => {
      const next = { ...e };
      if (found[key]) next[key] = found[key];
      else delete next[key];
      // The confirmation follows the password it must match.
      if (key === 'password' && values.confirm !== '') {
        if (found.confirm) next.confirm = found.confirm;
        else delete next.confirm;
      }
      return next;
    });
  };
  const err = (key: keyof RegisterValues) => (errors[key] ? i18n._(errors[key]) : undefined);

  return (
    <main className={css.screen}>
      <AuthHeader />
      {/* Touching the form fetches the client and the challenge's solver, so the submit waits for neither. */}
      <form className={ui.card} onSubmit={submit} onFocus={() => void loadAuthCalls().catch(() => undefined)} noValidate aria-label={t`注册`}>
        <Field
          label={<Trans>账号</Trans>}
          name="account"
          autoComplete="username"
          autoCapitalize="none"
          value={values.account}
          onChange={set('account')}
          onBlur={blur('account')}
          error={err('account')}
          placeholder={t`4-64 位字母或数字`}
        />
        <PasswordField
          label={<Trans>密码</Trans>}
          name="password"
          autoComplete="new-password"
          value={values.password}
          onChange={set('password')}
          onBlur={blur('password')}
          error={err('password')}
          placeholder={t`至少 8 位字母和数字`}
        />
        <PasswordField
          label={<Trans>确认密码</Trans>}
          name="confirm"
          autoComplete="new-password"
          value={values.confirm}
          onChange={set('confirm')}
          onBlur={blur('confirm')}
          error={err('confirm')}
          placeholder={t`请再次输入密码`}
        />
        <Field
          label={<Trans>邀请码（选填）</Trans>}
          name="referrer"
          autoCapitalize="none"
          value={values.referrer}
          onChange={set('referrer')}
          onBlur={blur('referrer')}
          error={err('referrer')}
          placeholder={t`邀请人 UID`}
        />
        <label className={css.agreement}>
          <input
            type="checkbox"
            name="agreement"
            className={css.checkbox}
            checked={values.agreement}
            onChange={(e) => setValues((v) => ({ ...v, agreement: e.target.checked }))}
            aria-invalid={errors.agreement ? true : undefined}
          />
          <span>
            <Trans>
              我已阅读并同意《
              <Link to="/legal/$doc" params={{ doc: 'agreement' }} className={css.docLink} onClick={keepDraft}>
                用户协议
              </Link>
              》和《
              <Link to="/legal/$doc" params={{ doc: 'privacy' }} className={css.docLink} onClick={keepDraft}>
                隐私政策
              </Link>
              》，并了解量化交易存在亏损风险。
            </Trans>
          </span>
        </label>
        {errors.agreement ? (
          <p role="alert" className={ui.fieldError}>
            {err('agreement')}
          </p>
        ) : null}
        {failure ? (
          <div role="alert" className={ui.formError}>
            {failure}
          </div>
        ) : null}
        <button type="submit" className={ui.button.primary} disabled={loading}>
          {checking ? <Trans>安全验证中…</Trans> : loading ? <Trans>注册中…</Trans> : <Trans>注册</Trans>}
        </button>
      </form>
      {/* A first wallet login creates the account, with the referrer typed above (or from the link). */}
      <WalletEntry referrer={values.referrer.trim() || undefined} />
      <p className={css.switchLine}>
        <Trans>已有账号？</Trans>{' '}
        <Link to="/login">
          <Trans>去登录</Trans>
        </Link>
      </p>
    </main>
  );
}
