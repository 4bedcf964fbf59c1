import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link, useNavigate } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { errorText } from '../../../lib/http.ts';
import { Page } from '../../../components/ui/page.tsx';
import { LoadState } from '../../../components/ui/load-state.tsx';
import { Field } from '../../../components/ui/field.tsx';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import * as ui from '../../../components/ui/ui.css.ts';
import { useExchanges } from '../use-exchanges.ts';
import { validateKeys, type KeyValues } from '../validate.ts';
import { useCopy } from '../../../lib/use-copy.ts';
import { useQuery } from '@tanstack/react-query';
import { call, write } from '../../../shared/query.ts';
import { isSimulatedCode } from '../../../../contract/rules.ts';
import { OtpField, asksForOtp, cleanOtp, useOtpCheck } from '../../../shared/otp-field.tsx';
import { exchangeLabel } from '../../../shared/exchange-names.ts';
import * as blocks from '../../../shared/blocks.css.ts';
import { whitelistIps } from '../server-ips.ts';
import * as css from './exchanges.css.ts';

/**
 * /bind/{exchange}: the IPs to whitelist (or, while the operator has set no public one, why none is
 * shown), trade-only advice, the key form (verified by the exchange on the server before it is saved),
 * and for a bound exchange its masked key and an unbind; once keys are bound, the next step: a bot on
 * that exchange. With two-factor authentication on, a live exchange's keys need a code from the
 * authenticator app too. Each refusal shows once, where it happened (the calls are screen-handled).
 */
export function BindPage({ code }: { code: string }) {
  const { t, i18n } = useLingui();
  const navigate = useNavigate();
  const { data, failed, reload } = useExchanges();
  const [values, setValues] = useState<KeyValues>({ apiKey: '', secretKey: '', passphrase: '' });
  const [errors, setErrors] = useState<ReturnType<typeof validateKeys>>({});
  const [failure, setFailure] = useState('');
  const [unbindFailure, setUnbindFailure] = useState('');
  const [bound, setBound] = useState(false);
  const next = useRef<HTMLElement>(null);
  const [busy, setBusy] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const { copied, copy } = useCopy();
  // Only whether 2FA is on; when this cannot be read, the server's TwoFactorRequired shows the field.
  const security = useQuery(call('userSecurity', undefined, { show: false }));
  const checkOtp = useOtpCheck();
  const [otp, setOtp] = useState('');
  const [otpError, setOtpError] = useState<string>();
  const [needsOtp, setNeedsOtp] = useState(false);

  const exchange = data?.exchanges.find((e) => e.code === code);
  const binding = exchange ? data?.bindings.find((b) => b.exchangeId === exchange.id) : undefined;
  const otpShown = exchange !== undefined && !isSimulatedCode(exchange.code) && ((security.data?.twoFactor ?? false) || needsOtp);
  const name = exchange ? exchangeLabel(i18n, exchange.code, data?.exchanges) : '';
  const ips = data ? whitelistIps(data.ips) : [];

  // The next step appears above the form the trader just sent: brought into view.
  useEffect(() => {
    if (bound) next.current?.scrollIntoView?.({ block: 'nearest', behavior: 'smooth' });
  }, [bound]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!exchange) return;
    const found = validateKeys(values, exchange.passphrase);
    const otpProblem = otpShown ? checkOtp(otp) : undefined;
    setErrors(found);
    setOtpError(otpProblem);
    setFailure('');
    setUnbindFailure('');
    if (Object.keys(found).length > 0 || otpProblem || busy) return;
    setBusy(true);
    try {
      await write('exchangesBind', {
        exchangeId: exchange.id,
        apiKey: values.apiKey.trim(),
        secretKey: values.secretKey.trim(),
        ...(exchange.passphrase ? { passphrase: values.passphrase.trim() } : {}),
        ...(otpShown ? { otp: cleanOtp(otp) } : {}),
      });
      setValues({ apiKey: '', secretKey: '', passphrase: '' });
      setOtp('');
      setBound(true);
    } catch (e) {
      if (asksForOtp(e)) setNeedsOtp(true);
      setFailure(errorText(e));
    } finally {
      setBusy(false);
    }
  };

  const unbind = async () => {
    if (!binding) return;
    setBusy(true);
    setUnbindFailure('');
    try {
      await write('exchangesUnbind', { id: binding.id });
      setConfirming(false);
      await navigate({ to: '/bind' });
    } catch (e) {
      setUnbindFailure(errorText(e));
      setConfirming(false);
    } finally {
      setBusy(false);
    }
  };

  const set = (key: keyof KeyValues) => (e: { target: { value: string } }) => setValues((v) => ({ ...v, [key]: e.target.value }));
  const err = (key: keyof KeyValues) => (errors[key] ? i18n._(errors[key]) : undefined);

  return (
    <Page title={exchange ? t`绑定 ${name}` : <Trans>绑定 API</Trans>}>
      <LoadState loading={!data && !failed} failed={failed} failedText={<Trans>加载失败。</Trans>} onRetry={reload} />
      {data && !exchange ? (
        <div className={ui.card}>
          <p>
            <Trans>不支持该交易所。</Trans>
          </p>
          <Link to="/bind">
            <Trans>查看支持的交易所</Trans>
          </Link>
        </div>
      ) : null}
      {exchange ? (
        <>
          {!isSimulatedCode(exchange.code) ? (
            <section className={ui.card} aria-label={t`IP 白名单`} data-testid="ip-card">
              {ips.length > 0 ? (
                <>
                  <h2 className={css.sectionTitle}>
                    <Trans>将以下 IP 加入 API 白名单</Trans>
                  </h2>
                  {ips.map((ip) => (
                    <div key={ip} className={css.ipRow}>
                      <span data-testid="server-ip">{ip}</span>
                      <button type="button" className={css.copy} onClick={() => void copy(ip)}>
                        {copied === ip ? t`已复制` : t`复制`}
                      </button>
                    </div>
                  ))}
                </>
              ) : (
                <div data-testid="ips-unconfigured">
                  <h2 className={css.sectionTitle}>
                    <Trans>服务器出口 IP 未配置</Trans>
                  </h2>
                  <p className={css.note}>
                    <Trans>
                      运营方尚未配置服务器的公网出口 IP（SERVER_IPS），这里没有可加入白名单的地址。请不要按本页设置 IP 白名单：若白名单中没有服务器真实的出口 IP，交易所会拒绝服务器的所有请求。
                    </Trans>
                  </p>
                  <p className={css.note}>
                    <Trans>不限 IP 的密钥一旦泄露，任何人都能在任何地方使用它，因此切勿开启提现权限，并定期更换密钥。运营方配置出口 IP 后，这里会列出它们，届时再加入白名单即可。</Trans>
                  </p>
                </div>
              )}
              <ul className={css.advice}>
                <li>
                  <Trans>只开启"读取"和"现货交易"权限，切勿开启提现权限。</Trans>
                </li>
                <li>
                  <Trans>密钥提交前会先向交易所验证，服务器加密保存，不会再显示 Secret Key。</Trans>
                </li>
              </ul>
            </section>
          ) : (
            <section className={ui.card}>
              <p className={css.plain}>
                {exchange.simulatedOf ? (
                  <Trans>模拟账户使用该交易所的实时行情和虚拟资金，不连接你的真实账户，也无需设置 IP 白名单。任意填写 8 位以上的字母或数字作为密钥即可。</Trans>
                ) : (
                  <Trans>模拟盘使用模拟行情和虚拟资金，不连接任何真实交易所。任意填写 8 位以上的字母或数字作为密钥即可。</Trans>
                )}
              </p>
            </section>
          )}
          {binding ? (
            <section className={ui.card} data-testid="binding">
              <p className={css.firstLine}>
                <Trans>已绑定</Trans>: <strong>{binding.apiKey}</strong>
              </p>
              <p className={ui.muted}>
                <Trans>重新提交密钥将覆盖当前绑定。</Trans>
              </p>
              {unbindFailure ? (
                <div role="alert" className={ui.formError}>
                  {unbindFailure}
                </div>
              ) : null}
              <button type="button" className={ui.button.danger} onClick={() => setConfirming(true)}>
                <Trans>解除绑定</Trans>
              </button>
            </section>
          ) : null}
          {bound ? (
            <section className={ui.card} ref={next} data-testid="bind-next" aria-labelledby="bind-next-title">
              <h2 id="bind-next-title" className={css.sectionTitle}>
                <Trans>绑定成功，下一步：创建策略</Trans>
              </h2>
              <p className={css.note}>
                <Trans>策略会用 {name} 账户的资金自动交易。创建时可以先回测，确认参数后再启动。</Trans>
              </p>
              <Link to="/strategy/$type/{-$id}" params={{ type: 'martin' }} search={{ exchange: exchange.code }} className={blocks.linkButton.primary} data-testid="bind-next-martin">
                <Trans>创建马丁格尔策略</Trans>
              </Link>
              <Link to="/strategy/$type/{-$id}" params={{ type: 'grid' }} search={{ exchange: exchange.code }} className={css.nextSecondary}>
                <Trans>创建网格策略</Trans>
              </Link>
            </section>
          ) : null}
          <form className={ui.card} onSubmit={submit} noValidate>
            <Field label="API Key" name="apiKey" autoCapitalize="none" autoComplete="off" value={values.apiKey} onChange={set('apiKey')} error={err('apiKey')} />
            <Field label="Secret Key" name="secretKey" type="password" autoComplete="off" value={values.secretKey} onChange={set('secretKey')} error={err('secretKey')} />
            {exchange.passphrase ? (
              <Field label="Passphrase" name="passphrase" type="password" autoComplete="off" value={values.passphrase} onChange={set('passphrase')} error={err('passphrase')} />
            ) : null}
            {otpShown ? <OtpField value={otp} onChange={setOtp} error={otpError} testId="bind-otp" /> : null}
            {failure ? (
              <div role="alert" className={ui.formError}>
                {failure}
              </div>
            ) : null}
            <button type="submit" className={ui.button.primary} disabled={busy}>
              {busy ? <Trans>验证中…</Trans> : binding ? <Trans>更新密钥</Trans> : <Trans>绑定</Trans>}
            </button>
          </form>
          <ConfirmDialog
            open={confirming}
            onOpenChange={setConfirming}
            title={<Trans>解除绑定</Trans>}
            description={<Trans>解除后，使用该交易所的策略将无法下单。确定解除吗？</Trans>}
            confirmLabel={<Trans>解除</Trans>}
            busy={busy}
            onConfirm={() => void unbind()}
          />
        </>
      ) : null}
    </Page>
  );
}
