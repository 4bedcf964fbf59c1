import { useState, type FormEvent } from 'react';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import type { PasswordType } from '../../../../contract/rules.ts';
import { api } from '../../../lib/api.ts';
import { errorText } from '../../../lib/http.ts';
import { Page } from '../../../components/ui/page.tsx';
import { LoadState } from '../../../components/ui/load-state.tsx';
import { Field } from '../../../components/ui/field.tsx';
import * as ui from '../../../components/ui/ui.css.ts';
import { useUserIndex } from '../use-user-index.ts';
import { validatePassword, type PasswordValues } from '../validate.ts';

/**
 * Login password change, and payment password set or change. Changing the login password asks for the
 * current one; a payment password asks for the current payment password, or the login password when
 * it is set for the first time.
 */
export function PasswordPage({ type }: { type: PasswordType }) {
  const { t, i18n } = useLingui();
  const navigate = useNavigate();
  const { index, failed, reload } = useUserIndex();
  const [values, setValues] = useState<PasswordValues>({ old: '', password: '', confirm: '' });
  const [errors, setErrors] = useState<ReturnType<typeof validatePassword>>({});
  const [failure, setFailure] = useState('');
  const [busy, setBusy] = useState(false);

  const profile = index?.profile;
  const paymentSet = profile?.paymentPasswordSet ?? false;
  const oldLabel =
    type === 'login' ? t`当前登录密码` : paymentSet ? t`当前支付密码` : profile?.loginPasswordSet ? t`登录密码（验证身份）` : null;
  const title = type === 'login' ? <Trans>登录密码</Trans> : paymentSet ? <Trans>修改支付密码</Trans> : <Trans>设置支付密码</Trans>;
  const digits = type === 'payment' ? { inputMode: 'numeric' as const, maxLength: 6, pattern: '[0-9]*' } : {};

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = validatePassword(type, values, oldLabel !== null);
    setErrors(found);
    setFailure('');
    if (Object.keys(found).length > 0 || busy) return;
    setBusy(true);
    try {
      await api.userPassword({ type, password: values.password, confirm: values.confirm, ...(oldLabel !== null ? { old: values.old } : {}) });
      await navigate({ to: '/my', replace: true });
    } catch (e) {
      setFailure(errorText(e));
    } finally {
      setBusy(false);
    }
  };
  const set = (key: keyof PasswordValues) => (e: { target: { value: string } }) => setValues((v) => ({ ...v, [key]: e.target.value }));
  const err = (key: keyof PasswordValues) => (errors[key] ? i18n._(errors[key]) : undefined);
  const oldIsPayment = type === 'payment' && paymentSet;

  return (
    <Page title={title}>
      <LoadState loading={!index && !failed} failed={failed} failedText={<Trans>资料加载失败。</Trans>} onRetry={reload} />
      {index ? (
        <form className={ui.card} onSubmit={submit} noValidate>
          {oldLabel !== null ? (
            <Field label={oldLabel} name="old" type="password" autoComplete="current-password" value={values.old} onChange={set('old')} error={err('old')} {...(oldIsPayment ? digits : {})} />
          ) : null}
          <Field label={type === 'login' ? t`新登录密码` : t`新支付密码（6 位数字）`} name="password" type="password" autoComplete="new-password" value={values.password} onChange={set('password')} error={err('password')} {...digits} />
          <Field label={t`确认新密码`} name="confirm" type="password" autoComplete="new-password" value={values.confirm} onChange={set('confirm')} error={err('confirm')} {...digits} />
          {type === 'login' ? <p className={ui.muted}><Trans>修改后，其他设备上的登录将失效。</Trans></p> : null}
          {failure ? <div role="alert" className={ui.formError}>{failure}</div> : null}
          <button type="submit" className={ui.button.primary} disabled={busy}>{busy ? <Trans>提交中…</Trans> : <Trans>确认</Trans>}</button>
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
