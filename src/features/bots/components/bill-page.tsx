import { useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { assignInlineVars } from '@vanilla-extract/dynamic';
import { useQuery } from '@tanstack/react-query';
import { call, failed, keepPage, loading } from '../../../shared/query.ts';
import { Page } from '../../../components/ui/page.tsx';
import { OfflineBanner } from '../../../shared/offline-banner.tsx';
import { LoadState } from '../../../components/ui/load-state.tsx';
import * as ui from '../../../components/ui/ui.css.ts';
import { time } from '../../../shared/format.ts';
import { Profit } from './figure.tsx';
import { TotalPnl } from './total-pnl.tsx';
import { Pager } from '../../../shared/pager.tsx';
import { useTradingMode } from '../../../shared/use-trading-mode.ts';
import { useExchangeNames } from '../../../shared/exchange-names.ts';
import { ModeSwitch } from './mode-switch.tsx';
import { PnlPanel } from './pnl-panel.tsx';
import { botTitle } from '../labels.ts';
import * as css from '../../../shared/blocks.css.ts';
import * as styles from './bots.css.ts';

const PAGE_SIZE = 10;

/** /strategy/bill: realised profit today and in total, by day over 30 days, by bot and by pair, and every closed cycle. */
export function BillPage() {
  const { t, i18n } = useLingui();
  const exchangeName = useExchangeNames();
  const [page, setPage] = useState(1);
  const [by, setBy] = useState<'bot' | 'symbol'>('bot');
  const [mode, setMode] = useTradingMode();
  const q = mode ? { mode } : {};
  const bill = useQuery(call('userBill', q));
  const group = useQuery(call('userBillGroup', q));
  const logs = useQuery({ ...call('userBillLogs', { page: String(page), page_size: String(PAGE_SIZE), ...q }), ...keepPage });
  const days = group.data?.byDay ?? [];
  const peak = Math.max(1e-9, ...days.map((d) => Math.abs(Number(d.profit))));

  return (
    <Page title={<Trans>收益账单</Trans>}>
      <OfflineBanner />
      <ModeSwitch mode={mode} onChange={setMode} />
      <section className={`${ui.card} ${css.grid2}`} aria-busy={!bill.data}>
        <div>
          <div className={ui.muted}>
            <Trans>今日收益 (USDT)</Trans>
          </div>
          <div className={css.big} data-testid="bill-today">
            <Profit value={bill.data?.today ?? null} />
          </div>
        </div>
        <div>
          <div className={ui.muted}>
            <Trans>已实现收益 (USDT)</Trans>
          </div>
          <div className={css.big} data-testid="bill-total">
            <Profit value={bill.data?.total ?? null} />
          </div>
        </div>
        <TotalPnl bill={bill.data} testId="bill-total-pnl" />
      </section>
      <PnlPanel mode={mode} />
      <LoadState
        loading={false}
        failed={failed(bill) || failed(group)}
        failedText={<Trans>账单加载失败。</Trans>}
        onRetry={() => {
          void bill.refetch();
          void group.refetch();
        }}
      />
      {group.data ? (
        <section className={ui.card}>
          <h2 className={css.sectionTitle}>
            <Trans>近 30 天每日收益</Trans>
          </h2>
          <div className={css.bar} role="img" aria-label={t`近 30 天每日收益`}>
            {days.map((d) => {
              const v = Number(d.profit);
              return (
                <div
                  key={d.day}
                  className={styles.barCol[v > 0 ? 'up' : v < 0 ? 'down' : 'flat']}
                  title={`${d.day}: ${d.profit}`}
                  style={assignInlineVars({ [styles.barHeight]: `${Math.max(2, (Math.abs(v) / peak) * 100)}%` })}
                />
              );
            })}
          </div>
          <div className={css.row}>
            <span className={css.figureLabel}>{days[0]?.day}</span>
            <span className={css.figureLabel}>{days.at(-1)?.day}</span>
          </div>
          <fieldset className={styles.chipsSpaced}>
            <button type="button" className={css.chip} aria-pressed={by === 'bot'} onClick={() => setBy('bot')}>
              <Trans>按策略</Trans>
            </button>
            <button type="button" className={css.chip} aria-pressed={by === 'symbol'} onClick={() => setBy('symbol')}>
              <Trans>按交易对</Trans>
            </button>
          </fieldset>
          {(by === 'bot' ? group.data.byBot : group.data.bySymbol).length === 0 ? (
            <p className={ui.muted}>
              <Trans>还没有已完成的轮次。</Trans>
            </p>
          ) : null}
          {by === 'bot'
            ? group.data.byBot.map((g) => (
                <div key={g.botId} className={css.row}>
                  <span>{botTitle(g.symbol, g.botName, i18n)}</span>
                  <Profit value={g.profit} />
                </div>
              ))
            : group.data.bySymbol.map((g) => (
                <div key={g.symbol} className={css.row}>
                  <span>{g.symbol}</span>
                  <Profit value={g.profit} />
                </div>
              ))}
        </section>
      ) : null}
      <section className={ui.card}>
        <h2 className={css.sectionTitle}>
          <Trans>收益明细</Trans>
        </h2>
        <LoadState loading={loading(logs)} failed={failed(logs)} failedText={<Trans>加载失败。</Trans>} onRetry={() => void logs.refetch()} />
        {logs.data && logs.data.list.length === 0 ? (
          <p className={ui.muted}>
            <Trans>策略完成一轮止盈或止损后，收益会出现在这里。</Trans>
          </p>
        ) : null}
        {logs.data?.list.map((b) => (
          <div key={b.id} className={css.logItem}>
            <div className={css.rowTight}>
              <span>
                {botTitle(b.symbol, b.botName, i18n)} · <Trans>第 {b.cycle} 轮</Trans>
              </span>
              <Profit value={b.profit} />
            </div>
            <div className={css.figureLabel}>
              {exchangeName(b.exchange)} · {time(b.closedAt)}
            </div>
          </div>
        ))}
        {logs.data ? <Pager page={page} pageSize={PAGE_SIZE} total={logs.data.total} onPage={setPage} /> : null}
      </section>
    </Page>
  );
}
