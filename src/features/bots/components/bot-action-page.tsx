import { useState } from 'react';
import { useNavigate } from '@tanstack/react-router';
import { useQuery } from '@tanstack/react-query';
import { Trans, useLingui } from '@lingui/react/macro';
import { errorText } from '../../../lib/http.ts';
import { showToast } from '../../../lib/toast.ts';
import { call, failed, loading, write } from '../../../shared/query.ts';
import { Page } from '../../../components/ui/page.tsx';
import { OfflineBanner } from '../../../shared/offline-banner.tsx';
import { LoadState } from '../../../components/ui/load-state.tsx';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import * as ui from '../../../components/ui/ui.css.ts';
import { amount as baseAmount, price, usdt } from '../../../shared/format.ts';
import { Figure, Profit } from './figure.tsx';
import { StatusBadge } from './status-badge.tsx';
import { baseCoin, botTitle } from '../labels.ts';
import * as css from '../../../shared/blocks.css.ts';
import { Field } from '../../../components/ui/field.tsx';
import { AMOUNT_RE } from '../../../../contract/rules.ts';
import { closeQuery, estimateClose, type CloseUnit } from '../close-estimate.ts';
import { ClosePart } from './close-part.tsx';
import { strategies } from '../strategies/index.ts';
import { livePoll, PRICED_WHILE_UP_MS } from '../../../shared/live/state.ts';

/**
 * /strategy/action/{id}: a manual add at the market (the next level's amount, or one typed) or a manual
 * close of all or part of the position (25 / 50 / 75 / 100 %, a share or a base amount), each
 * confirmed first; the close's confirmation estimates the sale with the engine's maths.
 */
export function BotActionPage({ id }: { id: string }) {
  const { t, i18n } = useLingui();
  const l = i18n.locale;
  const navigate = useNavigate();
  const detail = useQuery({ ...call('userBotDetail', { id }), refetchInterval: livePoll(3000, { whileUp: PRICED_WHILE_UP_MS }) });
  const [asking, setAsking] = useState<'add' | 'close' | null>(null);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState('');
  // A manual add spends the next level's amount, or the amount the trader types.
  const [amount, setAmount] = useState('');
  // The part a close sells: 100 % (the whole position) unless the trader picks or types another.
  const [closeBy, setCloseBy] = useState<{ unit: CloseUnit; text: string }>({ unit: 'percent', text: '100' });
  const d = detail.data;
  const estimate = d ? estimateClose(d, closeBy.unit, closeBy.text) : null;
  // The coin the bot holds, named beside its amount.
  const base = d ? baseCoin(d.symbol) : '';
  const typed = amount.trim();
  const amountOk = typed === '' || (AMOUNT_RE.test(typed) && Number(typed) > 0);
  const nextQuote = d ? (typed !== '' && amountOk ? typed : (d.levels[d.positions]?.quote ?? null)) : null;
  // What the account has free in the pair's quote currency: an add beyond it is said before the confirmation, not refused after it.
  const quote = d ? (d.symbol.split('/')[1] ?? 'USDT') : 'USDT';
  const assets = useQuery({ ...call('userAsset', { exchange: d?.exchange ?? '' }, { show: false }), enabled: d !== undefined });
  const free = assets.data ? (assets.data.balances.find((b) => b.currency === quote)?.free ?? '0') : null;
  const short = free !== null && nextQuote !== null && Number(nextQuote) > Number(free);
  const canAdd = d !== undefined && d.status !== 'stopped' && d.positions < d.maxPositions && !d.pending;
  const canClose = d !== undefined && d.status !== 'stopped' && d.positions > 0 && !d.pending;

  const run = async (action: 'add' | 'close') => {
    setAsking(null);
    setBusy(true);
    setFailure('');
    try {
      const part = action === 'close' ? closeQuery(closeBy.unit, closeBy.text, estimate) : {};
      await write('userBotOperation', { id, action, ...(action === 'add' && typed !== '' ? { amount: typed } : {}), ...part });
      showToast('success', action === 'add' ? t`手动补仓已提交` : t`手动平仓已提交`);
      await navigate({ to: '/strategy/detail/$id', params: { id }, replace: true });
    } catch (e) {
      setFailure(errorText(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Page title={<Trans>手动操作</Trans>}>
      <OfflineBanner />
      <LoadState loading={loading(detail)} failed={failed(detail)} failedText={<Trans>策略加载失败。</Trans>} onRetry={() => void detail.refetch()} />
      {d ? (
        <>
          <section className={ui.card}>
            <div className={css.botHead}>
              <strong>{botTitle(d.symbol, d.name, i18n)}</strong>
              <StatusBadge status={d.status} />
            </div>
            <div className={css.figures}>
              <Figure label={<Trans>最新价</Trans>}>{price(d.price, l, d.close?.tickSize)}</Figure>
              <Figure label={<Trans>持仓均价</Trans>}>{price(d.averagePrice, l, d.close?.tickSize)}</Figure>
              <Figure label={<Trans>持仓 / 上限</Trans>}>
                {d.positions} / {d.maxPositions}
              </Figure>
              <Figure label={<Trans>持有数量 ({base})</Trans>}>{baseAmount(d.amount, l, d.close?.stepSize)}</Figure>
              <Figure label={<Trans>浮动盈亏 (USDT)</Trans>}>
                <Profit value={d.unrealized} />
              </Figure>
              <Figure label={<Trans>下一笔金额 (USDT)</Trans>}>{usdt(nextQuote, l)}</Figure>
            </div>
          </section>
          {d.status === 'stopped' ? (
            <div role="alert" className={ui.formError}>
              <Trans>已停止的策略不能补仓或平仓，请先启动。</Trans>
            </div>
          ) : null}
          {d.pending ? (
            <p className={ui.muted} role="status">
              <Trans>有订单正在处理，请稍后再试。</Trans>
            </p>
          ) : null}
          {failure ? (
            <div role="alert" className={ui.formError} data-testid="action-failure">
              {failure}
            </div>
          ) : null}
          {!strategies[d.type].manualTrading ? (
            // A grid's coins wait on its sell levels, each bought at its own level: there is no one position to add to or sell a share of.
            <p className={ui.muted} role="note" data-testid="manual-grid">
              <Trans>网格策略没有手动补仓和平仓：它的币挂在各个卖出档位上，由网格按档位卖出。停止策略可结束交易。</Trans>
            </p>
          ) : (
            <>
              <section className={ui.card}>
                <h2 className={css.sectionTitle}>
                  <Trans>手动补仓</Trans>
                </h2>
                <p className={ui.muted}>
                  <Trans>以市价立即买入，计入本轮持仓，均价和止盈价随之更新。</Trans>
                </p>
                <Field
                  label={<Trans>补仓金额（USDT，留空为下一层金额）</Trans>}
                  inputMode="decimal"
                  value={amount}
                  placeholder={usdt(d.levels[d.positions]?.quote ?? null, l)}
                  onChange={(e) => setAmount(e.target.value)}
                  error={!amountOk ? t`请输入大于 0 的金额` : short ? t`超过可用余额 ${usdt(free, l)} ${quote}` : undefined}
                  data-testid="manual-add-amount"
                />
                <button type="button" className={ui.button.primary} disabled={!canAdd || busy || !amountOk || short} onClick={() => setAsking('add')} data-testid="manual-add">
                  <Trans>补仓 {usdt(nextQuote, l)} USDT</Trans>
                </button>
              </section>
              <section className={ui.card}>
                <h2 className={css.sectionTitle}>
                  <Trans>手动平仓</Trans>
                </h2>
                <p className={ui.muted}>
                  <Trans>以市价卖出本轮持仓的全部或一部分。全部卖出时结束本轮，开启循环时将开始下一轮；部分卖出时策略继续运行，剩余持仓均价不变，止盈价随之保持。</Trans>
                </p>
                <button
                  type="button"
                  className={ui.button.danger}
                  disabled={!canClose || busy}
                  onClick={() => {
                    setCloseBy({ unit: 'percent', text: '100' });
                    setAsking('close');
                  }}
                  data-testid="manual-close"
                >
                  <Trans>平仓（全部或部分）</Trans>
                </button>
              </section>
              <ConfirmDialog
                open={asking !== null}
                onOpenChange={(open) => !open && setAsking(null)}
                title={asking === 'add' ? <Trans>确认补仓</Trans> : <Trans>确认平仓</Trans>}
                description={
                  asking === 'add' ? (
                    <Trans>
                      以市价买入约 {usdt(nextQuote, l)} USDT 的 {d.symbol}（当前价 {price(d.price, l, d.close?.tickSize)}）。
                    </Trans>
                  ) : (
                    <Trans>
                      持有 {baseAmount(d.amount, l, d.close?.stepSize)} {base}，当前价 {price(d.price, l, d.close?.tickSize)}。选择卖出多少，按市价成交。
                    </Trans>
                  )
                }
                confirmLabel={asking === 'add' ? <Trans>补仓</Trans> : <Trans>平仓</Trans>}
                busy={busy}
                confirmDisabled={asking === 'close' && !estimate?.ok}
                onConfirm={() => asking && void run(asking)}
              >
                {asking === 'close' ? <ClosePart base={base} unit={closeBy.unit} text={closeBy.text} estimate={estimate} onChange={(unit, text) => setCloseBy({ unit, text })} /> : null}
              </ConfirmDialog>
            </>
          )}
        </>
      ) : null}
    </Page>
  );
}
