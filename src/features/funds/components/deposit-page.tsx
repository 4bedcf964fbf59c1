import { useEffect, useState } from 'react';
import { Link } from '@tanstack/react-router';
import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import { Trans, useLingui } from '@lingui/react/macro';
import type { DepositInfo, DepositReport } from '../../../../contract/funds.ts';
import { useQuery } from '@tanstack/react-query';
import { describeError } from '../../../lib/lazy-api.ts';
import { useQr } from '../../../lib/use-qr.ts';
import { Page } from '../../../components/ui/page.tsx';
import { LoadState } from '../../../components/ui/load-state.tsx';
import { Field } from '../../../components/ui/field.tsx';
import * as ui from '../../../components/ui/ui.css.ts';
import { time, usdt } from '../../../shared/format.ts';
import { call, changed, failed, loading, write } from '../../../shared/query.ts';
import * as bots from '../../../shared/blocks.css.ts';
import { useWalletDetected } from '../../../lib/wallet/use-wallet-detected.ts';
import type { DepositStep } from '../../../lib/wallet/wallet-deposit.ts';
import { walletFailureText } from '../../../lib/wallet/wallet-failure.ts';
import { CopyLine, short } from './copy-line.tsx';
import { FaucetCard } from './faucet-card.tsx';
import { AMOUNT_RE } from '../../../../contract/rules.ts';
import * as css from './funds.css.ts';
import { livePoll } from '../../../shared/live/state.ts';

/** How often a reported deposit's confirmations are asked again. */
const FOLLOW_MS = 3_000;

const stepLabels: Record<DepositStep | 'report', MessageDescriptor> = {
  connect: msg`正在连接钱包…`,
  approve: msg`第 1 步：请在钱包中授权 USDT…`,
  deposit: msg`第 2 步：请在钱包中确认充值…`,
  report: msg`正在提交交易…`,
};

/**
 * /my/deposit: USDT on BNB Smart Chain. Pay from the wallet in this browser (approve + deposit with the
 * UID), or send USDT from the bound wallet to the contract; the credit comes after the confirmations.
 */
export function DepositPage() {
  // Followed every 5 s while a deposit waits for its confirmations; with the live stream up, its credit is an event.
  const info = useQuery({
    ...call('userDepositInfo', undefined, { show: false }),
    refetchInterval: livePoll((q) => (q.state.data?.recent.some((d) => d.status === 'submitted') ? 5000 : false)),
  });
  return (
    <Page title={<Trans>充值</Trans>}>
      <LoadState loading={loading(info)} failed={failed(info)} failedText={<Trans>充值信息加载失败。</Trans>} onRetry={() => void info.refetch()} />
      {info.data && !info.data.enabled ? (
        <section className={ui.card} data-testid="deposit-off">
          <p className={css.flush}>
            <Trans>本服务器暂未开通链上充值和提现。</Trans>
          </p>
        </section>
      ) : null}
      {info.data?.enabled ? <DepositBody info={info.data} /> : null}
    </Page>
  );
}

function DepositBody({ info }: { info: DepositInfo }) {
  const { t, i18n } = useLingui();
  const l = i18n.locale;
  const qr = useQr(info.contract);
  const hasWallet = useWalletDetected() === true;
  const [amount, setAmount] = useState('');
  const [amountError, setAmountError] = useState('');
  const [step, setStep] = useState<DepositStep | 'report' | null>(null);
  const [failure, setFailure] = useState('');
  const [reported, setReported] = useState<DepositReport | null>(null);
  // A reported deposit is followed until it is credited: the same report, asked again
  // every 3 s (it is idempotent), so 确认数 counts up and turns into 已到账 without a reload.
  const following = useQuery({
    ...call('userDeposit', { network: 'BSC', txHash: reported?.txHash ?? '' }, { show: false }),
    enabled: reported?.status === 'submitted',
    refetchInterval: (q) => ((q.state.data ?? reported)?.status === 'submitted' ? FOLLOW_MS : false),
  });
  const report = reported && following.data?.txHash === reported.txHash ? following.data : reported;
  const credited = report?.status === 'credited';
  useEffect(() => {
    if (credited) changed('userDeposit'); // the history and the balances show the credit too
  }, [credited]);
  const [hash, setHash] = useState('');
  const [hashError, setHashError] = useState('');

  const submitHash = async (txHash: string) => {
    setStep('report');
    try {
      setReported(await write('userDeposit', { network: 'BSC', txHash }, { show: false }));
    } finally {
      setStep(null);
    }
  };

  const payFromWallet = async () => {
    setFailure('');
    if (!AMOUNT_RE.test(amount) || Number(amount) <= 0) return setAmountError(t`请输入有效金额`);
    if (Number(amount) < Number(info.minimum)) return setAmountError(t`最小充值 ${info.minimum} USDT`);
    setAmountError('');
    try {
      const { walletDeposit } = await import('../../../lib/wallet/wallet-deposit.ts');
      const txHash = await walletDeposit(info, amount, setStep);
      await submitHash(txHash);
      setAmount('');
    } catch (error) {
      setFailure(await walletFailureText(error, i18n));
    } finally {
      setStep(null);
    }
  };

  const reportHash = async () => {
    if (!/^0x[0-9a-fA-F]{64}$/.test(hash.trim())) return setHashError(t`交易哈希应为 0x 开头的 66 位字符`);
    setHashError('');
    try {
      await submitHash(hash.trim());
      setHash('');
    } catch (error) {
      setHashError(await describeError(error));
    }
  };

  return (
    <>
      <section className={ui.card}>
        <div className={bots.rowTight}>
          <strong>USDT</strong>
          <span className={ui.muted}>BSC (BEP20) · Chain {info.chainId}</span>
        </div>
        <div className={css.grid2Spaced.top}>
          <div>
            <div className={bots.figureLabel}>
              <Trans>最小充值</Trans>
            </div>
            <div className={bots.figureValue} data-testid="deposit-minimum">
              {usdt(info.minimum, l)} USDT
            </div>
          </div>
          <div>
            <div className={bots.figureLabel}>
              <Trans>到账确认</Trans>
            </div>
            <div className={bots.figureValue}>
              <Trans>{info.confirmations} 个区块</Trans>
            </div>
          </div>
        </div>
      </section>

      {info.faucet ? <FaucetCard bound={info.wallet} hasWallet={hasWallet} /> : null}

      <section className={ui.card} aria-labelledby="pay-wallet">
        <h2 id="pay-wallet" className={bots.sectionTitle}>
          <Trans>用钱包充值</Trans>
        </h2>
        {hasWallet ? (
          <>
            <div className={css.inputRow}>
              <Field
                label={<Trans>金额 (USDT)</Trans>}
                inputMode="decimal"
                autoComplete="off"
                value={amount}
                onChange={(e) => setAmount(e.target.value.trim())}
                error={amountError || undefined}
                data-testid="deposit-amount"
              />
              <button type="button" className={css.button.primary} disabled={step !== null} onClick={() => void payFromWallet()} data-testid="deposit-pay">
                <Trans>充值</Trans>
              </button>
            </div>
            {step ? (
              <p className={css.step} role="status">
                {i18n._(stepLabels[step])}
              </p>
            ) : null}
            {failure ? (
              <div role="alert" className={ui.formError} data-testid="deposit-failure">
                {failure}
              </div>
            ) : null}
            <p className={css.note}>
              <Trans>钱包会先请求授权 USDT，再调用充值合约并带上你的 UID，到账无需填写任何信息。</Trans>
            </p>
          </>
        ) : (
          <p className={css.note}>
            <Trans>在钱包 App（MetaMask、TokenPocket、Trust、OKX、Binance Web3）中打开本页即可一键充值；或用下方地址转账。</Trans>
          </p>
        )}
      </section>

      <section className={ui.card} aria-labelledby="pay-transfer">
        <h2 id="pay-transfer" className={bots.sectionTitle}>
          <Trans>转账充值</Trans>
        </h2>
        {qr ? <img src={qr} width={168} height={168} alt={t`充值地址二维码`} className={css.qr} data-testid="deposit-qr" /> : <div className={css.qrPlaceholder} aria-busy="true" />}
        <CopyLine label={<Trans>充值地址（BSC 充值合约）</Trans>} value={info.contract} testId="deposit-address" />
        <CopyLine label={<Trans>你的 UID（合约充值时的 memo）</Trans>} value={info.memo} testId="deposit-memo" />
        <p className={css.note}>
          {info.wallet ? (
            <Trans>只有从已绑定的钱包 {short(info.wallet)} 直接转入的 USDT 会自动到账。请只转 BSC 链上的 USDT，其他币种或网络将无法找回。</Trans>
          ) : (
            <Trans>
              直接转账前请先
              <Link to="/my/bind/$type" params={{ type: 'wallet' }}>
                绑定钱包
              </Link>
              ：只有从已绑定钱包转入的 USDT 才能自动到账。
            </Trans>
          )}
        </p>
      </section>

      <section className={ui.card} aria-labelledby="report-hash">
        <h2 id="report-hash" className={bots.sectionTitle}>
          <Trans>已转账？提交交易哈希</Trans>
        </h2>
        <div className={css.inputRow}>
          <Field
            label={<Trans>交易哈希</Trans>}
            autoComplete="off"
            spellCheck={false}
            value={hash}
            onChange={(e) => setHash(e.target.value)}
            error={hashError || undefined}
            placeholder="0x…"
            data-testid="deposit-hash"
          />
          <button type="button" className={css.button.secondary} disabled={step !== null} onClick={() => void reportHash()}>
            <Trans>提交</Trans>
          </button>
        </div>
        {report ? (
          <p className={css.step} role="status" data-testid="deposit-report">
            {report.status === 'credited' ? (
              <Trans>已到账。</Trans>
            ) : (
              <Trans>
                已提交，确认数 {Math.min(report.confirmations, report.required)}/{report.required}，达到后自动到账。
              </Trans>
            )}
          </p>
        ) : null}
      </section>

      <section className={ui.card} aria-labelledby="deposit-history">
        <h2 id="deposit-history" className={bots.sectionTitle}>
          <Trans>充值记录</Trans>
        </h2>
        {info.recent.length === 0 ? (
          <p className={ui.muted}>
            <Trans>暂无充值记录。</Trans>
          </p>
        ) : null}
        <ul className={bots.plainList} data-testid="deposit-list">
          {info.recent.map((d) => (
            <li key={`${d.txHash}-${d.status}`} className={bots.logItem}>
              <div className={bots.rowTight}>
                <strong>{d.amount ? `${usdt(d.amount, l)} USDT` : '—'}</strong>
                <span className={d.status === 'credited' ? bots.badge.running : bots.badge.paused}>{d.status === 'credited' ? <Trans>已到账</Trans> : <Trans>确认中</Trans>}</span>
              </div>
              <div className={bots.rowTight}>
                <span className={`${bots.figureLabel} ${css.mono}`}>{short(d.txHash)}</span>
                <span className={bots.figureLabel}>{time(d.createdAt)}</span>
              </div>
            </li>
          ))}
        </ul>
        <Link to="/my/asset/$type" params={{ type: 'balance' }} className={ui.linkButton}>
          <Trans>查看余额明细</Trans>
        </Link>
      </section>
    </>
  );
}
