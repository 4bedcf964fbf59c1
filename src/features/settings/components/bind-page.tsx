import { useState, type FormEvent } from 'react';
import { useAtom } from 'jotai';
import { Trans, useLingui } from '@lingui/react/macro';
import type { Profile } from '../../../../contract/account.ts';
import { errorText } from '../../../lib/http.ts';
import { useQuery } from '@tanstack/react-query';
import { call, changed, failed, loading, write } from '../../../shared/query.ts';
import { userAtom } from '../../../state/session.ts';
import { Page } from '../../../components/ui/page.tsx';
import { LoadState } from '../../../components/ui/load-state.tsx';
import { Field } from '../../../components/ui/field.tsx';
import * as ui from '../../../components/ui/ui.css.ts';
import * as css from './settings.css.ts';
import { useWalletDetected } from '../../../lib/wallet/use-wallet-detected.ts';
import { walletFailureText } from '../../../lib/wallet/wallet-failure.ts';
import { profileFieldError } from '../validate.ts';

export type BindType = 'wallet' | 'email' | 'mobile';

/** /my/bind/{wallet|email|mobile}: bind a wallet by signature (once), or set the email or mobile with its checks. */
export function BindAccountPage({ type }: { type: BindType }) {
  const { t } = useLingui();
  const titles: Record<BindType, string> = { wallet: t`绑定钱包`, email: t`绑定邮箱`, mobile: t`绑定手机` };
  const profile = useQuery(call('authProfile'));
  return (
    <Page title={titles[type]}>
      <LoadState loading={loading(profile)} failed={failed(profile)} failedText={<Trans>加载失败。</Trans>} onRetry={() => void profile.refetch()} />
      {profile.data ? type === 'wallet' ? <WalletBind profile={profile.data} /> : <ContactBind type={type} profile={profile.data} /> : null}
    </Page>
  );
}

function WalletBind({ profile }: { profile: Profile }) {
  const { i18n } = useLingui();
  const [user, setUser] = useAtom(userAtom);
  const [address, setAddress] = useState(profile.address);
  const wallet = useWalletDetected();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState('');

  const bind = async () => {
    setBusy(true);
    setFailure('');
    try {
      const { walletBind } = await import('../../../lib/wallet/wallet-login.ts');
      const bound = await walletBind();
      changed('userBind');
      setAddress(bound.address);
      if (user) setUser({ ...user, address: bound.address });
    } catch (error) {
      setFailure(await walletFailureText(error, i18n));
    } finally {
      setBusy(false);
    }
  };

  if (address) {
    return (
      <section className={ui.card} data-testid="wallet-bound">
        <p>
          <Trans>已绑定钱包</Trans>
        </p>
        <p className={css.address}>{address}</p>
        <p className={ui.muted}>
          <Trans>每个账户只能绑定一个钱包，绑定后可用该钱包直接登录。</Trans>
        </p>
      </section>
    );
  }
  return (
    <section className={ui.card}>
      <p className={ui.muted}>
        <Trans>在 BNB Smart Chain 上用钱包签名一条登录消息即可绑定；不花费任何手续费。绑定后可用该钱包直接登录本账户。</Trans>
      </p>
      {wallet === false ? (
        <div role="alert" className={ui.formError}>
          <Trans>未检测到钱包插件，请先安装</Trans>
        </div>
      ) : null}
      {failure ? (
        <div role="alert" className={ui.formError} data-testid="wallet-failure">
          {failure}
        </div>
      ) : null}
      <button type="button" className={ui.button.primary} disabled={!wallet || busy} onClick={() => void bind()} data-testid="wallet-bind">
        {busy ? <Trans>请在钱包中确认…</Trans> : <Trans>连接钱包并签名</Trans>}
      </button>
    </section>
  );
}

function ContactBind({ type, profile }: { type: 'email' | 'mobile'; profile: Profile }) {
  const { t } = useLingui();
  const [user, setUser] = useAtom(userAtom);
  const [value, setValue] = useState(profile[type]);
  const [error, setError] = useState('');
  const [saved, setSaved] = useState(false);
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const problem = value.trim() === '' ? t`请输入内容` : profileFieldError(type, value.trim());
    setError(problem ?? '');
    setSaved(false);
    if (problem || busy) return;
    setBusy(true);
    try {
      const next = await write('userSetInfo', { field: type, value: value.trim() });
      if (user) setUser({ ...user, mobile: next.mobile });
      setSaved(true);
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className={ui.card} onSubmit={submit} noValidate>
      <Field
        label={type === 'email' ? <Trans>邮箱</Trans> : <Trans>手机号</Trans>}
        name={type}
        type={type === 'email' ? 'email' : 'tel'}
        inputMode={type === 'email' ? 'email' : 'tel'}
        autoComplete={type === 'email' ? 'email' : 'tel'}
        value={value}
        onChange={(e) => setValue(e.target.value)}
        error={error || undefined}
      />
      {saved ? (
        <p role="status" className={ui.muted} data-testid="bind-saved">
          <Trans>已保存</Trans>
        </p>
      ) : null}
      <button type="submit" className={ui.button.primary} disabled={busy}>
        <Trans>保存</Trans>
      </button>
    </form>
  );
}
