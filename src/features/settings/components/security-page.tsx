import { useState, type FormEvent } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import type { SecurityInfo } from '../../../../contract/account.ts';
import { Code } from '../../../../contract/codes.ts';
import { errorText } from '../../../lib/http.ts';
import { useQuery } from '@tanstack/react-query';
import { useCopy } from '../../../lib/use-copy.ts';
import { useQr } from '../../../lib/use-qr.ts';
import { Page } from '../../../components/ui/page.tsx';
import { LoadState } from '../../../components/ui/load-state.tsx';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import * as ui from '../../../components/ui/ui.css.ts';
import { MenuRow } from './menu-row.tsx';
import { SessionsCard } from './sessions-card.tsx';
import { OtpField, cleanOtp, useOtpCheck } from '../../../shared/otp-field.tsx';
import { waitWords } from '../../../shared/wait-words.ts';
import { WithdrawLock } from '../../../shared/withdraw-lock.tsx';
import * as css from './security.css.ts';
import { call, failed, loading, write } from '../../../shared/query.ts';

type Flow = { step: 'idle' } | { step: 'setup'; secret: string; uri: string } | { step: 'codes'; codes: string[] } | { step: 'disable' };

/** "JBSW Y3DP EHPK 3PXP": a base32 secret in groups of four, easier to type into an app. */
const grouped = (secret: string) => secret.replace(/(.{4})(?=.)/g, '$1 ');

/**
 * /my/security: two-factor authentication (set up with a QR code, confirmed with a first code, then
 * the recovery codes shown once; turned off with a code or a recovery code), the signed-in devices
 * (sessions-card.tsx), whether withdrawals are locked after a change and why, and the ways to the
 * password screens.
 */
export function SecurityPage() {
  const { t } = useLingui();
  const info = useQuery(call('userSecurity', undefined, { show: false }));
  const reload = () => void info.refetch();
  const s = info.data;
  return (
    <Page title={<Trans>账户安全</Trans>}>
      <LoadState loading={loading(info)} failed={failed(info)} failedText={<Trans>安全信息加载失败。</Trans>} onRetry={reload} />
      {s ? (
        <>
          <WithdrawLock until={s.withdrawLockedUntil} lockMs={s.withdrawLockMs} onExpire={reload} />
          <TwoFactorCard info={s} onChange={reload} />
          <SessionsCard />
          <ul className={ui.list} aria-label={t`密码`}>
            <MenuRow to="/my/password/$type" params={{ type: 'login' }} label={<Trans>登录密码</Trans>} value={s.loginPasswordSet ? t`已设置` : t`未设置`} />
            <MenuRow to="/my/password/$type" params={{ type: 'payment' }} label={<Trans>支付密码</Trans>} value={s.paymentPasswordSet ? t`已设置` : t`未设置`} />
          </ul>
          <section className={ui.card} aria-labelledby="security-tips">
            <h2 id="security-tips" className={css.title}>
              <Trans>如何保护账户</Trans>
            </h2>
            <ul className={css.tips}>
              <li>
                <Trans>登录密码和支付密码不要与其他网站相同，也不要告诉任何人（包括客服）。</Trans>
              </li>
              <li>
                <Trans>收到“新设备登录”或“安全设置已变更”通知，而不是你本人操作时，请立即修改登录密码。</Trans>
              </li>
              <li>
                <Trans>交易所 API 只开启读取和交易权限，不要开启提现权限。</Trans>
              </li>
            </ul>
          </section>
        </>
      ) : null}
    </Page>
  );
}

function TwoFactorCard({ info, onChange }: { info: SecurityInfo; onChange: () => void }) {
  const { t, i18n } = useLingui();
  const wait = waitWords(info.withdrawLockMs, i18n);
  const [flow, setFlow] = useState<Flow>({ step: 'idle' });
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState('');
  const on = info.twoFactor;
  const left = info.recoveryCodesLeft;
  const go = (next: Flow) => {
    setFailure('');
    setFlow(next);
  };

  const start = async () => {
    setBusy(true);
    setFailure('');
    try {
      const { secret, uri } = await write('userTwoFactorSetup', {}, { show: false });
      go({ step: 'setup', secret, uri });
    } catch (error) {
      // Turned on meanwhile (another tab): show what is true now.
      if ((error as { code?: number }).code === Code.TwoFactorAlreadyEnabled) onChange();
      setFailure(errorText(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className={ui.card} aria-labelledby="twofa-title" data-testid="twofa">
      <div className={css.head}>
        <h2 id="twofa-title" className={css.title}>
          <Trans>两步验证（2FA）</Trans>
        </h2>
        <span className={on ? css.badge.on : css.badge.off} data-testid="twofa-status">
          {on ? t`已开启` : t`未开启`}
        </span>
      </div>
      {flow.step === 'setup' ? (
        <SetupSteps
          secret={flow.secret}
          uri={flow.uri}
          onCancel={() => go({ step: 'idle' })}
          onDone={(codes) => {
            go({ step: 'codes', codes });
            onChange();
          }}
        />
      ) : flow.step === 'codes' ? (
        <RecoveryCodes codes={flow.codes} onSaved={() => go({ step: 'idle' })} />
      ) : flow.step === 'disable' ? (
        <DisableForm
          wait={wait}
          onCancel={() => go({ step: 'idle' })}
          onDone={() => {
            go({ step: 'idle' });
            onChange();
          }}
        />
      ) : on ? (
        <>
          <p className={css.text}>
            <Trans>已开启。提现、绑定实盘交易所 API、修改密码时，需要输入身份验证器 App 中的 6 位动态码。</Trans>
          </p>
          <p className={css.small} data-testid="recovery-left">
            <Trans>剩余恢复码：{left} 个。每个恢复码可在手机丢失时代替动态码使用一次。</Trans>
          </p>
          {info.recoveryCodesLeft <= 2 ? (
            <p className={css.warning}>
              <Trans>恢复码快用完了：关闭后重新开启两步验证，可得到 8 个新的恢复码。</Trans>
            </p>
          ) : null}
          <button type="button" className={ui.button.danger} onClick={() => go({ step: 'disable' })} data-testid="twofa-disable">
            <Trans>关闭两步验证</Trans>
          </button>
        </>
      ) : (
        <>
          <p className={css.text}>
            <Trans>
              开启后，提现、绑定实盘交易所 API、修改密码时，除了密码还要输入身份验证器 App（如 Google Authenticator、Microsoft Authenticator）中每 30 秒更新的 6
              位动态码。即使密码泄露，别人也无法转走资金。
            </Trans>
          </p>
          <p className={css.small}>
            <Trans>开启两步验证不会锁定提现；关闭后提现将锁定 {wait}。</Trans>
          </p>
          {failure ? (
            <div role="alert" className={ui.formError}>
              {failure}
            </div>
          ) : null}
          <button type="button" className={ui.button.primary} disabled={busy} onClick={() => void start()} data-testid="twofa-start">
            {busy ? <Trans>请稍候…</Trans> : <Trans>开启两步验证</Trans>}
          </button>
        </>
      )}
    </section>
  );
}

function SetupSteps({ secret, uri, onCancel, onDone }: { secret: string; uri: string; onCancel: () => void; onDone: (codes: string[]) => void }) {
  const { t } = useLingui();
  const qr = useQr(uri);
  const { copied, copy } = useCopy();
  const check = useOtpCheck();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const problem = check(code, false);
    setError(problem);
    if (problem || busy) return;
    setBusy(true);
    try {
      const { recoveryCodes } = await write('userTwoFactorEnable', { code }, { show: false });
      onDone(recoveryCodes);
    } catch (e) {
      setError(errorText(e));
      setBusy(false);
    }
  };

  return (
    <form onSubmit={submit} noValidate data-testid="twofa-setup">
      <h3 className={css.stepTitle}>
        <Trans>1. 用身份验证器 App 扫描二维码</Trans>
      </h3>
      <div className={css.qrBox}>{qr ? <img src={qr} className={css.qr} alt={t`两步验证二维码`} data-testid="twofa-qr" /> : <div className={css.qrWait} aria-busy="true" />}</div>
      <p className={css.small}>
        <Trans>无法扫码时，在 App 中选择“输入设置密钥”，填入下面的密钥（基于时间）：</Trans>
      </p>
      <div className={css.secretRow}>
        <span className={css.secret} data-testid="twofa-secret">
          {grouped(secret)}
        </span>
        <button type="button" className={css.copyButton} onClick={() => void copy(secret)}>
          {copied === secret ? t`已复制` : t`复制`}
        </button>
      </div>
      <h3 className={css.stepTitle}>
        <Trans>2. 输入 App 中显示的 6 位动态码</Trans>
      </h3>
      <OtpField value={code} onChange={setCode} error={error} recovery={false} label={<Trans>动态码</Trans>} testId="twofa-code" />
      <div className={css.actions}>
        <button type="button" className={ui.button.secondary} onClick={onCancel}>
          <Trans>取消</Trans>
        </button>
        <button type="submit" className={ui.button.primary} disabled={busy} data-testid="twofa-enable">
          {busy ? <Trans>验证中…</Trans> : <Trans>确认开启</Trans>}
        </button>
      </div>
    </form>
  );
}

function RecoveryCodes({ codes, onSaved }: { codes: string[]; onSaved: () => void }) {
  const { copied, copy } = useCopy();
  const all = codes.join('\n');
  return (
    <div data-testid="recovery">
      <p className={css.done} role="status">
        <Trans>两步验证已开启。</Trans>
      </p>
      <p className={css.warning} role="alert">
        <Trans>请立即保存这 8 个恢复码：它们只显示这一次，离开后无法再查看。手机丢失或无法使用身份验证器时，每个恢复码可代替动态码使用一次。</Trans>
      </p>
      <ol className={css.codes} data-testid="recovery-codes">
        {codes.map((c) => (
          <li key={c}>{c}</li>
        ))}
      </ol>
      <div className={css.stack}>
        <button type="button" className={ui.button.secondary} onClick={() => void copy(all)} data-testid="recovery-copy">
          {copied === all ? <Trans>已复制全部</Trans> : <Trans>复制全部</Trans>}
        </button>
        <button type="button" className={ui.button.primary} onClick={onSaved} data-testid="recovery-saved">
          <Trans>我已保存恢复码</Trans>
        </button>
      </div>
    </div>
  );
}

function DisableForm({ wait, onCancel, onDone }: { wait: string; onCancel: () => void; onDone: () => void }) {
  const check = useOtpCheck();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string>();
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);

  const ask = (event: FormEvent) => {
    event.preventDefault();
    const problem = check(code);
    setError(problem);
    if (!problem) setConfirming(true);
  };
  const disable = async () => {
    setBusy(true);
    try {
      await write('userTwoFactorDisable', { code: cleanOtp(code) }, { show: false });
      setConfirming(false);
      onDone();
    } catch (e) {
      setConfirming(false);
      setError(errorText(e));
      setBusy(false);
    }
  };

  return (
    <form onSubmit={ask} noValidate data-testid="twofa-disable-form">
      <p className={css.text}>
        <Trans>输入身份验证器中的 6 位动态码；手机不在身边时，可以输入一个恢复码。</Trans>
      </p>
      <OtpField value={code} onChange={setCode} error={error} testId="twofa-disable-code" />
      <div className={css.actions}>
        <button type="button" className={ui.button.secondary} onClick={onCancel}>
          <Trans>取消</Trans>
        </button>
        <button type="submit" className={ui.button.primary} data-testid="twofa-disable-submit">
          <Trans>关闭</Trans>
        </button>
      </div>
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={<Trans>关闭两步验证？</Trans>}
        description={<Trans>关闭后，提现、绑定交易所 API 和修改密码将只需要密码，账户更容易被盗。为保护资金，关闭后 {wait} 内不能提现。</Trans>}
        confirmLabel={busy ? <Trans>关闭中…</Trans> : <Trans>确认关闭</Trans>}
        busy={busy}
        onConfirm={() => void disable()}
      />
    </form>
  );
}
