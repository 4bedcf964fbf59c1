import { useRef, useState } from 'react';
import { Link } from '@tanstack/react-router';
import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import { Trans, useLingui } from '@lingui/react/macro';
import Decimal from 'decimal.js';
import type { WithdrawInfo, WithdrawalRecord } from '../../../../contract/funds.ts';
import { useQuery } from '@tanstack/react-query';
import { describeError } from '../../../lib/lazy-api.ts';
import { Page } from '../../../components/ui/page.tsx';
import { LoadState } from '../../../components/ui/load-state.tsx';
import { Field } from '../../../components/ui/field.tsx';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import * as ui from '../../../components/ui/ui.css.ts';
import { dateTime, time, usdt } from '../../../shared/format.ts';
import { call, failed, loading, write } from '../../../shared/query.ts';
import * as bots from '../../../shared/blocks.css.ts';
import { short } from './copy-line.tsx';
import { AMOUNT_RE } from '../../../../contract/rules.ts';
import { Code } from '../../../../contract/codes.ts';
import { OtpField, asksForOtp, cleanOtp, useOtpCheck } from '../../../shared/otp-field.tsx';
import { waitWords } from '../../../shared/wait-words.ts';
import { WithdrawLock } from '../../../shared/withdraw-lock.tsx';
import * as css from './funds.css.ts';
import { livePoll } from '../../../shared/live/state.ts';

const statusLabels: Record<WithdrawalRecord['status'], MessageDescriptor> = {
  pending: msg`处理中`,
  signed: msg`处理中`,
  sent: msg`已发送`,
  confirmed: msg`已完成`,
  failed: msg`失败，已退回`,
};
const statusBadge = (s: WithdrawalRecord['status']) => (s === 'confirmed' ? bots.badge.running : s === 'failed' ? bots.badge.stopped : bots.badge.paused);

const ADDRESS_RE = /^0x[0-9a-fA-F]{40}$/;

/** The time a WithdrawalLocked message names ("2026-11-24 13:55 UTC"), in the trader's own time, or ''. */
function usableAtText(message: string, locale: string): string {
  const m = /(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}) UTC/.exec(message);
  return m ? dateTime(`${m[1]}T${m[2]}:00Z`, locale) : '';
}

/** A fresh idempotency key (the same request sent twice never withdraws twice). */
function newRequestId(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * /my/withdraw: USDT to a BSC address, with the payment password (and the 2FA code when it is on); the
 * history follows each one to the chain. After a change of the account's security, withdrawals wait:
 * the banner says until when and the form cannot be sent.
 */
export function WithdrawPage() {
  // Followed every 5 s while a withdrawal is on its way to the chain; with the live stream up, each step is an event.
  const info = useQuery({
    ...call('userWithdrawInfo', undefined, { show: false }),
    refetchInterval: livePoll((q) => (q.state.data?.recent.some((w) => w.status !== 'confirmed' && w.status !== 'failed') ? 5000 : false)),
  });
  const reload = () => void info.refetch();
  return (
    <Page title={<Trans>提现</Trans>}>
      <LoadState loading={loading(info)} failed={failed(info)} failedText={<Trans>提现信息加载失败。</Trans>} onRetry={reload} />
      {info.data && !info.data.enabled ? (
        <section className={ui.card} data-testid="withdraw-off">
          <p className={css.flush}>
            <Trans>本服务器暂未开通链上充值和提现。</Trans>
          </p>
        </section>
      ) : null}
      {info.data?.enabled && info.data.lockedUntil ? <WithdrawLock until={info.data.lockedUntil} lockMs={info.data.lockMs} onExpire={reload} link showOpen={false} /> : null}
      {info.data?.enabled ? <WithdrawForm info={info.data} onDone={reload} /> : null}
      {info.data?.enabled ? <History list={info.data.recent} /> : null}
    </Page>
  );
}

function WithdrawForm({ info, onDone }: { info: WithdrawInfo; onDone: () => void }) {
  const { t, i18n } = useLingui();
  const l = i18n.locale;
  const [address, setAddress] = useState('');
  const [amount, setAmount] = useState('');
  const [password, setPassword] = useState('');
  const [otp, setOtp] = useState('');
  const [needsOtp, setNeedsOtp] = useState(false);
  const checkOtp = useOtpCheck();
  const [errors, setErrors] = useState<{ address?: string; amount?: string; password?: string; otp?: string; form?: string; newAddress?: string }>({});
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<WithdrawalRecord | null>(null);
  // The line under the button follows the record in the history (polled until final).
  const latest = done ? (info.recent.find((w) => w.id === done.id) ?? done) : null;
  // One key per (address, amount): a retry after a lost answer reuses it; a new withdrawal gets a new one.
  const request = useRef({ for: '', id: '' });
  const requestId = () => {
    const key = `${address}|${amount}`;
    if (request.current.for !== key) request.current = { for: key, id: newRequestId() };
    return request.current.id;
  };
  const valid = AMOUNT_RE.test(amount) && Number(amount) > 0;
  const otpShown = info.twoFactor || needsOtp;
  const locked = info.lockedUntil !== null;
  const wait = waitWords(info.lockMs, i18n);
  const received = valid ? Decimal.max(0, new Decimal(amount).minus(info.fee)).toFixed() : '0';

  const check = () => {
    const next: typeof errors = {};
    if (!ADDRESS_RE.test(address)) next.address = t`请输入 0x 开头的 BSC 地址`;
    if (!valid) next.amount = t`请输入有效金额`;
    else if (new Decimal(amount).lt(info.minimum)) next.amount = t`最小提现 ${info.minimum} USDT`;
    else if (new Decimal(amount).gt(info.balance)) next.amount = t`余额不足`;
    if (!/^\d{6}$/.test(password)) next.password = t`支付密码为 6 位数字`;
    const otpProblem = otpShown ? checkOtp(otp) : undefined;
    if (otpProblem) next.otp = otpProblem;
    setErrors(next);
    return Object.keys(next).length === 0;
  };

  const submit = async () => {
    setBusy(true);
    try {
      const r = await write('userWithdraw', { network: 'BSC', address, amount, payPassword: password, requestId: requestId(), ...(otpShown ? { otp: cleanOtp(otp) } : {}) }, { show: false });
      setDone(r);
      setConfirming(false);
      setAmount('');
      setPassword('');
      setOtp('');
      request.current = { for: '', id: '' };
    } catch (error) {
      setConfirming(false);
      if (asksForOtp(error)) setNeedsOtp(true);
      // Not the account's lock (the form is closed then): the first request to an address records it, and it waits.
      const newAddress = (error as { code?: number }).code === Code.WithdrawalLocked && !info.lockedUntil;
      const form = await describeError(error);
      setErrors({ form, ...(newAddress ? { newAddress: usableAtText(form, l) } : {}) });
      if (newAddress) onDone();
    } finally {
      setBusy(false);
    }
  };

  if (!info.paymentPasswordSet) {
    return (
      <section className={ui.card} data-testid="withdraw-no-password">
        <p className={css.flushTop}>
          <Trans>提现需要支付密码，请先设置。</Trans>
        </p>
        <Link to="/my/password/$type" params={{ type: 'payment' }} className={bots.linkButton.primary}>
          <Trans>设置支付密码</Trans>
        </Link>
      </section>
    );
  }

  const usable = errors.newAddress;
  return (
    <form
      className={ui.card}
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        setDone(null);
        if (check()) setConfirming(true);
      }}
    >
      <div className={css.balanceRow}>
        <span className={ui.muted}>
          <Trans>可用余额</Trans>
        </span>
        <strong data-testid="withdraw-balance">{usdt(info.balance, l)} USDT</strong>
      </div>
      <Field
        label={<Trans>提现地址 (BSC / BEP20)</Trans>}
        autoComplete="off"
        spellCheck={false}
        placeholder="0x…"
        value={address}
        onChange={(e) => setAddress(e.target.value.trim())}
        error={errors.address}
        data-testid="withdraw-address"
      />
      <p className={css.fieldNote} data-testid="withdraw-address-note">
        <Trans>为保护资金，第一次向一个新地址提现时，该地址需要等待 {wait} 才能收款；之后向它提现不再等待。</Trans>
      </p>
      <div className={css.inputRow}>
        <Field
          label={<Trans>金额 (USDT)</Trans>}
          inputMode="decimal"
          autoComplete="off"
          value={amount}
          onChange={(e) => setAmount(e.target.value.trim())}
          error={errors.amount}
          data-testid="withdraw-amount"
        />
        <button type="button" className={css.allButton} onClick={() => setAmount(new Decimal(info.balance).toDecimalPlaces(8, Decimal.ROUND_DOWN).toFixed())}>
          <Trans>全部</Trans>
        </button>
      </div>
      <Field
        label={<Trans>支付密码</Trans>}
        type="password"
        inputMode="numeric"
        autoComplete="off"
        maxLength={6}
        value={password}
        onChange={(e) => setPassword(e.target.value.replace(/\D/g, ''))}
        error={errors.password}
        data-testid="withdraw-password"
      />
      {otpShown ? <OtpField value={otp} onChange={setOtp} error={errors.otp} testId="withdraw-otp" /> : null}
      <div className={css.grid2Spaced.bottom}>
        <div>
          <div className={bots.figureLabel}>
            <Trans>手续费</Trans>
          </div>
          <div className={bots.figureValue}>{usdt(info.fee, l)} USDT</div>
        </div>
        <div>
          <div className={bots.figureLabel}>
            <Trans>实际到账</Trans>
          </div>
          <div className={bots.figureValue} data-testid="withdraw-received">
            {usdt(received, l)} USDT
          </div>
        </div>
      </div>
      <p className={css.noteTight.md}>
        <Trans>最小提现 {info.minimum} USDT。请确认地址是 BSC 链上的地址，转错网络的资产无法找回。</Trans>
      </p>
      {errors.form ? (
        <div role="alert" className={ui.formError}>
          <span data-testid="withdraw-error">{errors.form}</span>
          {errors.newAddress !== undefined ? (
            <p className={css.errorNote} data-testid="withdraw-new-address">
              {usable ? (
                <Trans>
                  这是一个新地址，已为你记录。新地址第一次提现需要等待 {wait}：{usable} 之后再提交即可。
                </Trans>
              ) : (
                <Trans>这是一个新地址，已为你记录。新地址第一次提现需要等待 {wait}，到上面的时间后再提交即可。</Trans>
              )}
            </p>
          ) : null}
        </div>
      ) : null}
      {latest ? (
        <p className={css.step} role="status" data-testid="withdraw-done" data-status={latest.status}>
          {latest.status === 'confirmed' ? (
            <Trans>提现已完成，到账 {usdt(latest.received, l)} USDT。</Trans>
          ) : latest.status === 'failed' ? (
            <Trans>提现未能发出，{usdt(latest.amount, l)} USDT 已退回余额。</Trans>
          ) : (
            <Trans>提现已提交，正在处理。</Trans>
          )}
        </p>
      ) : null}
      <button type="submit" className={ui.button.primary} disabled={busy || locked} data-testid="withdraw-submit">
        {locked ? <Trans>提现已锁定</Trans> : <Trans>提现</Trans>}
      </button>
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={<Trans>确认提现</Trans>}
        description={
          <Trans>
            提现 {amount} USDT 到 {short(address)}，扣除手续费 {info.fee} USDT 后到账 {received} USDT。提交后无法撤回。
          </Trans>
        }
        confirmLabel={busy ? <Trans>提交中…</Trans> : <Trans>确认提现</Trans>}
        busy={busy}
        onConfirm={() => void submit()}
      />
    </form>
  );
}

function History({ list }: { list: WithdrawalRecord[] }) {
  const { i18n } = useLingui();
  const l = i18n.locale;
  return (
    <section className={ui.card} aria-labelledby="withdraw-history">
      <h2 id="withdraw-history" className={bots.sectionTitle}>
        <Trans>提现记录</Trans>
      </h2>
      {list.length === 0 ? (
        <p className={ui.muted}>
          <Trans>暂无提现记录。</Trans>
        </p>
      ) : null}
      <ul className={bots.plainList} data-testid="withdraw-list">
        {list.map((w) => (
          <li key={w.id} className={bots.logItem} data-status={w.status}>
            <div className={bots.rowTight}>
              <strong>{usdt(w.amount, l)} USDT</strong>
              <span className={statusBadge(w.status)}>{i18n._(statusLabels[w.status])}</span>
            </div>
            <div className={bots.rowTight}>
              <span className={`${bots.figureLabel} ${css.mono}`}>→ {short(w.address)}</span>
              <span className={bots.figureLabel}>{time(w.createdAt)}</span>
            </div>
            {w.txHash ? <div className={`${bots.figureLabel} ${css.mono}`}>Tx {short(w.txHash)}</div> : null}
          </li>
        ))}
      </ul>
      <Link to="/my/asset/$type" params={{ type: 'balance' }} className={ui.linkButton}>
        <Trans>查看余额明细</Trans>
      </Link>
    </section>
  );
}
