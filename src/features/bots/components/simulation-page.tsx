import { useState } from 'react';
import { Link } from '@tanstack/react-router';
import { useQuery } from '@tanstack/react-query';
import { Trans, useLingui } from '@lingui/react/macro';
import type { AnswerOf } from '../../../../contract/calls.ts';
import type { ExchangeInfo } from '../../../../contract/market.ts';
import { api } from '../../../lib/api.ts';
import { ApiError, errorText } from '../../../lib/http.ts';
import { exchangesQuery, call, failed, loading, write } from '../../../shared/query.ts';
import { Page } from '../../../components/ui/page.tsx';
import { LoadState } from '../../../components/ui/load-state.tsx';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import * as ui from '../../../components/ui/ui.css.ts';
import { Code } from '../../../../contract/codes.ts';
import { amount, assetAmount, isStable, num, usdt } from '../../../shared/format.ts';
import { usePairRules } from '../../../shared/pair-rules.ts';
import { BotCard } from './bot-card.tsx';
import { useExchangeNames } from '../../../shared/exchange-names.ts';
import * as css from '../../../shared/blocks.css.ts';
import * as styles from './bots.css.ts';
import { botTypeList, botTypes } from '../../../shared/bot-types.ts';

/** A random key for the Paper exchange (it checks none): the simulated account opens in one tap. */
const paperKey = () => Array.from(crypto.getRandomValues(new Uint8Array(12)), (b) => b.toString(16).padStart(2, '0')).join('');

/**
 * /simulation (模拟): paper trading with a virtual balance per simulated account (Paper's simulated
 * market, or a live exchange's real prices, rules and fee) that the trader can reset, and the bots that
 * run on it: the same screens and engine as live trading. Exchanges without spot simulation say so.
 */
/** A coin balance above zero and below its pair's step: what a bot's trades left that no order can sell. */
const isDust = (total: string, step: string | undefined) => step !== undefined && Number(total) > 0 && Number(total) < Number(step);

export function SimulationPage() {
  const exchanges = useQuery(exchangesQuery);
  const [code, setCode] = useState('paper');
  const [notice, setNotice] = useState<ExchangeInfo | null>(null);
  const list = exchanges.data?.exchanges ?? [];
  const simulated = list.filter((e) => e.code === 'paper' || e.simulatedOf);
  const unsupported = list.filter((e) => e.code !== 'paper' && !e.simulatedOf && !e.simulation);
  const { t } = useLingui();
  const exchangeName = useExchangeNames();
  return (
    <Page title={<Trans>模拟</Trans>} root>
      <div className={css.chips} role="tablist" aria-label={t`模拟账户`}>
        {(simulated.length ? simulated : [{ code: 'paper', name: 'Paper' } as ExchangeInfo]).map((e) => (
          <button
            key={e.code}
            type="button"
            role="tab"
            aria-selected={e.code === code && !notice}
            className={css.chip}
            onClick={() => {
              setNotice(null);
              setCode(e.code);
            }}
            data-testid={`sim-exchange-${e.code}`}
          >
            {exchangeName(e.code)}
          </button>
        ))}
        {unsupported.map((e) => (
          <button key={e.code} type="button" role="tab" aria-selected={notice?.code === e.code} className={css.chip} onClick={() => setNotice(e)} data-testid={`sim-exchange-${e.code}`}>
            {e.name}
          </button>
        ))}
      </div>
      {notice ? (
        <section className={ui.card} role="status" data-testid="sim-exchange-note">
          <Trans>该交易所现货暂不支持模拟</Trans>
        </section>
      ) : (
        <SimulatedAccount key={code} exchange={simulated.find((e) => e.code === code) ?? ({ code: 'paper', name: 'Paper', id: 1 } as ExchangeInfo)} />
      )}
    </Page>
  );
}

/** One simulated account: open it in one tap, its virtual balances, a reset, and its bots. */
function SimulatedAccount({ exchange }: { exchange: ExchangeInfo }) {
  const { t, i18n } = useLingui();
  const l = i18n.locale;
  const code = exchange.code;
  const exchangeName = useExchangeNames();
  const account = useQuery({
    queryKey: ['userAsset', { exchange: code }, 'opened'] as const,
    queryFn: () =>
      api.userAsset({ exchange: code }, { show: false }).then(
        (a) => ({ bound: true as const, balances: a.balances }),
        (e: unknown) => {
          if (e instanceof ApiError && e.code === Code.ApiNotBound) return { bound: false as const, balances: [] }; // no simulated account yet
          throw e;
        },
      ),
  });
  const bots = useQuery(call('userBotList', { exchange: code, page: '1', page_size: '20' }));
  // Each coin's balance at its pair's step.
  const pairs = usePairRules(account.data?.bound ? code : undefined);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState('');

  const open = async () => {
    setBusy(true);
    setFailure('');
    try {
      await write('exchangesBind', { exchangeId: exchange.id, apiKey: paperKey(), secretKey: paperKey() });
    } catch (e) {
      setFailure(errorText(e));
    } finally {
      setBusy(false);
    }
  };
  // Coins too small to sell by an order (a stopped bot's dust) into USDT, as Binance's "convert small balances".
  const [swept, setSwept] = useState<AnswerOf<'paperSweepDust'> | null>(null);
  const sweep = async () => {
    setBusy(true);
    setFailure('');
    try {
      setSwept(await write('paperSweepDust', { exchange: code }, { show: false }));
    } catch (e) {
      setFailure(errorText(e));
    } finally {
      setBusy(false);
    }
  };
  const reset = async () => {
    setBusy(true);
    setFailure('');
    try {
      await write('paperReset', { exchange: code }, { show: false });
      setConfirming(false);
    } catch (e) {
      setConfirming(false);
      setFailure(errorText(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <LoadState loading={loading(account)} failed={failed(account)} failedText={<Trans>模拟账户加载失败。</Trans>} onRetry={() => void account.refetch()} />
      <section className={ui.card} data-testid="sim-account">
        <div className={css.botHead}>
          <strong>
            <Trans>模拟账户</Trans>
          </strong>
          <span className={ui.muted}>
            {exchangeName(code)} · {exchange.simulatedOf ? <Trans>虚拟资金，实时行情</Trans> : <Trans>虚拟资金，模拟行情</Trans>}
          </span>
        </div>
        {account.data && !account.data.bound ? (
          <>
            <p className={ui.muted}>
              {exchange.simulatedOf ? (
                <Trans>用虚拟的 10,000 USDT 按该交易所的实时价格、规则和手续费成交，和实盘完全相同的策略与引擎。</Trans>
              ) : (
                <Trans>用虚拟的 10,000 USDT 跑和实盘完全相同的策略与引擎，零风险验证参数。</Trans>
              )}
            </p>
            <button type="button" className={ui.button.primary} disabled={busy} onClick={() => void open()} data-testid="sim-open">
              <Trans>开通模拟账户</Trans>
            </button>
          </>
        ) : null}
        {account.data?.bound ? (
          <>
            <ul className={styles.simBalances} data-testid="sim-balances">
              {account.data.balances.map((b) => (
                <li key={b.currency} className={css.row} data-symbol={`${b.currency}/USDT`}>
                  <span>{b.currency}</span>
                  {isStable(b.currency) ? (
                    <strong data-figure="quote">{usdt(b.total, l)}</strong>
                  ) : isDust(b.total, pairs.get(`${b.currency}/USDT`)?.stepSize) ? (
                    // Below the step, the step's decimals would show 0: the dust is shown whole, and said to be dust.
                    <strong data-testid="sim-dust">
                      {num(b.total, l, 12)} <span className={ui.muted}>{t`零头`}</span>
                    </strong>
                  ) : pairs.has(`${b.currency}/USDT`) ? (
                    <strong data-figure="amount">{amount(b.total, l, pairs.get(`${b.currency}/USDT`)?.stepSize)}</strong>
                  ) : (
                    <strong>{assetAmount(b.total, b.currency, l)}</strong>
                  )}
                </li>
              ))}
            </ul>
            <div className={css.actions}>
              <button type="button" className={ui.button.secondary} disabled={busy} onClick={() => void sweep()} data-testid="sim-sweep">
                <Trans>零头换成 USDT</Trans>
              </button>
              <button type="button" className={ui.button.secondary} disabled={busy} onClick={() => setConfirming(true)} data-testid="sim-reset">
                <Trans>重置模拟资金</Trans>
              </button>
            </div>
            {swept ? (
              <p className={ui.muted} role="status" data-testid="sim-swept">
                {swept.swept.length > 0 ? (
                  <Trans>
                    已将 {swept.swept.map((s) => `${s.currency} ${s.amount}${s.from.length > 0 ? ` (${s.from.join(', ')})` : ''}`).join('、')} 按当前价换成 {usdt(swept.total, l)} USDT（已扣手续费）。
                  </Trans>
                ) : (
                  <Trans>没有可换的零头：只有不足最小下单量、且不属于运行中或持仓中策略的币才会换成 USDT。</Trans>
                )}
              </p>
            ) : null}
          </>
        ) : null}
        {failure ? (
          <div role="alert" className={ui.formError} data-testid="sim-failure">
            {failure}
          </div>
        ) : null}
      </section>

      <section className={ui.card} aria-label={t`模拟策略`}>
        <div className={css.botHead}>
          <strong>
            <Trans>模拟策略</Trans>
          </strong>
        </div>
        <div className={styles.simActions}>
          {/* Every bot type the PWA offers (src/shared/bot-types.ts), in the screens' order. */}
          {botTypeList.map((type) => (
            <Link key={type} to="/strategy/$type/{-$id}" params={{ type }} search={{ exchange: code }} className={css.smallLink}>
              {i18n._(botTypes[type].name)}
            </Link>
          ))}
          <Link to="/strategy/ai/{-$id}" params={{}} className={css.smallLink}>
            AI
          </Link>
        </div>
        {bots.data && bots.data.list.length === 0 ? (
          <p className={ui.muted}>
            <Trans>还没有模拟策略。创建时选择该模拟账户即可。</Trans>
          </p>
        ) : null}
        <ul className={css.plainList} data-testid="sim-bots">
          {bots.data?.list.map((b) => (
            <BotCard key={b.id} bot={b} exchangeName={exchangeName(code)} selecting={false} selected={false} onSelect={() => undefined} />
          ))}
        </ul>
      </section>

      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={<Trans>重置模拟资金</Trans>}
        description={<Trans>模拟账户将恢复为 10,000 USDT，持有的模拟币种会被清空。需要先停止该账户的所有模拟策略。</Trans>}
        confirmLabel={<Trans>重置</Trans>}
        busy={busy}
        onConfirm={() => void reset()}
      />
    </>
  );
}
