import { useState } from 'react';
import * as Dialog from '@radix-ui/react-dialog';
import { Link } from '@tanstack/react-router';
import { useQuery } from '@tanstack/react-query';
import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import { Trans, useLingui } from '@lingui/react/macro';
import Decimal from 'decimal.js';
import type { ChangePair } from '../../../../contract/funds.ts';
import { errorText } from '../../../lib/http.ts';
import { describeError } from '../../../lib/lazy-api.ts';
import { Field } from '../../../components/ui/field.tsx';
import * as dialog from '../../../components/ui/dialog.css.ts';
import * as ui from '../../../components/ui/ui.css.ts';
import { platformAmount } from '../../../shared/format.ts';
import { call, write } from '../../../shared/query.ts';
import * as bots from '../../../shared/blocks.css.ts';
import { AMOUNT_RE } from '../../../../contract/rules.ts';
import * as css from './funds.css.ts';

export const assetLabels: Record<ChangePair['from'], MessageDescriptor> = { usdt: msg`USDT`, fuel: msg`燃料`, points: msg`积分`, rewards: msg`奖励` };

/** Converts between the balances (USDT to fuel, points to fuel, rewards to USDT) at the server's rates. */
/** What the conversion changes (balances, their logs) is fetched again by `write`. */
export function ChangeDialog({ open, onOpenChange, from }: { open: boolean; onOpenChange: (open: boolean) => void; from: ChangePair['from'] }) {
  const { t, i18n } = useLingui();
  const l = i18n.locale;
  const infoQuery = useQuery({ ...call('userChangeInfo', undefined, { show: false }), enabled: open });
  const info = infoQuery.data;
  const [chosen, setPair] = useState<number | null>(null);
  const [amount, setAmount] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState('');
  // Each opening starts clean, on the pair of the balance it was opened from.
  const openedFrom = open ? from : null;
  const [shownFrom, setShownFrom] = useState(openedFrom);
  if (openedFrom !== shownFrom) {
    setShownFrom(openedFrom);
    if (openedFrom !== null) {
      setPair(null);
      setError('');
      setDone('');
    }
  }
  const pair = chosen ?? Math.max(0, info?.pairs.findIndex((x) => x.from === from) ?? 0);
  const p = info?.pairs[pair];
  const shownError = error || (infoQuery.isError ? errorText(infoQuery.error) : '');
  const valid = AMOUNT_RE.test(amount) && Number(amount) > 0;
  const received = p && valid ? new Decimal(amount).times(p.rate).toDecimalPlaces(8, Decimal.ROUND_DOWN).toFixed() : '0';
  const name = (a: ChangePair['from']) => i18n._(assetLabels[a]);

  const submit = async () => {
    if (!p) return;
    if (!valid) return setError(t`请输入有效金额`);
    if (new Decimal(amount).gt(info!.balances[p.from])) return setError(t`余额不足`);
    if (!/^\d{6}$/.test(password)) return setError(t`支付密码为 6 位数字`);
    setBusy(true);
    setError('');
    try {
      const r = await write('userChange', { from: p.from, to: p.to, amount, payPassword: password }, { show: false });
      setDone(t`已兑换 ${platformAmount(r.received, r.to, l)} ${name(r.to)}`);
      setAmount('');
      setPassword('');
    } catch (e) {
      setError(await describeError(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className={dialog.overlay} />
        <Dialog.Content className={dialog.content} aria-describedby={undefined}>
          <Dialog.Title className={dialog.title}>
            <Trans>兑换</Trans>
          </Dialog.Title>
          {!info && !shownError ? (
            <p className={ui.muted} aria-busy="true">
              <Trans>加载中…</Trans>
            </p>
          ) : null}
          {info && !info.paymentPasswordSet ? (
            <p>
              <Trans>
                兑换需要支付密码，请先
                <Link to="/my/password/$type" params={{ type: 'payment' }}>
                  设置支付密码
                </Link>
                。
              </Trans>
            </p>
          ) : null}
          {info?.paymentPasswordSet ? (
            <form
              noValidate
              onSubmit={(e) => {
                e.preventDefault();
                void submit();
              }}
            >
              <div className={ui.field}>
                <label className={ui.label} htmlFor="change-pair">
                  <Trans>兑换方向</Trans>
                </label>
                <select id="change-pair" className={bots.select} value={pair} onChange={(e) => setPair(Number(e.target.value))} data-testid="change-pair">
                  {info.pairs.map((x, i) => (
                    <option key={`${x.from}:${x.to}`} value={i}>{`${name(x.from)} → ${name(x.to)} (1 : ${x.rate})`}</option>
                  ))}
                </select>
              </div>
              {p ? (
                <p className={css.noteTight.sm}>
                  <Trans>
                    可用 {platformAmount(info.balances[p.from], p.from, l)} {name(p.from)}
                  </Trans>
                </p>
              ) : null}
              <Field label={<Trans>数量</Trans>} inputMode="decimal" autoComplete="off" value={amount} onChange={(e) => setAmount(e.target.value.trim())} data-testid="change-amount" />
              <Field
                label={<Trans>支付密码</Trans>}
                type="password"
                inputMode="numeric"
                maxLength={6}
                autoComplete="off"
                value={password}
                onChange={(e) => setPassword(e.target.value.replace(/\D/g, ''))}
                data-testid="change-password"
              />
              {p ? (
                <p className={css.noteTight.md}>
                  <Trans>
                    将得到 {platformAmount(received, p.to, l)} {name(p.to)}
                  </Trans>
                </p>
              ) : null}
              {error ? (
                <div role="alert" className={ui.formError} data-testid="change-error">
                  {error}
                </div>
              ) : null}
              {done ? (
                <p className={css.step} role="status" data-testid="change-done">
                  {done}
                </p>
              ) : null}
              <div className={dialog.actions}>
                <Dialog.Close asChild>
                  <button type="button" className={ui.button.secondary}>
                    <Trans>关闭</Trans>
                  </button>
                </Dialog.Close>
                <button type="submit" className={ui.button.primary} disabled={busy} data-testid="change-submit">
                  <Trans>兑换</Trans>
                </button>
              </div>
            </form>
          ) : null}
          {!info && shownError ? (
            <div role="alert" className={ui.formError}>
              {shownError}
            </div>
          ) : null}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
