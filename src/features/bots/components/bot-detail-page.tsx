import { useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { call, failed, keepPage, loading } from '../../../shared/query.ts';
import { Page } from '../../../components/ui/page.tsx';
import { OfflineBanner } from '../../../shared/offline-banner.tsx';
import { LoadState } from '../../../components/ui/load-state.tsx';
import * as ui from '../../../components/ui/ui.css.ts';
import { amount, num, percent, price, time, usdt } from '../../../shared/format.ts';
import { baseCoin, botTitle, orderReasonLabels, riskLabels, typeLabels } from '../labels.ts';
import { useExchangeNames } from '../../../shared/exchange-names.ts';
import { ActionList } from './action-list.tsx';
import { BotOperations } from './bot-operations.tsx';
import { Figure, Profit } from './figure.tsx';
import { Pager } from '../../../shared/pager.tsx';
import type { ChartEntry, ChartLine } from '../../../shared/price-chart.tsx';
import { BotPriceChart } from './bot-price-chart.tsx';
import { StatusBadge } from './status-badge.tsx';
import type { BotDetail } from '../../../../contract/bots.ts';
import * as css from '../../../shared/blocks.css.ts';
import * as styles from './bots.css.ts';
import * as customCss from './custom-form.css.ts';
import { GridLevelsList } from './grid-levels.tsx';
import { BotReturns } from './returns.tsx';
import { PnlPanel } from './pnl-panel.tsx';
import { BotSignals } from './bot-signals.tsx';
import { RankShareSwitch } from './rank-share-switch.tsx';
import { pauseText } from '../../../shared/refusal-words.ts';
import { copyParam } from '../bot-copy.ts';
import { explainStored } from '../custom-form.ts';
import { explainStoredStart } from '../dca-form.ts';
import { endAtPrice } from '../../../../contract/candles.ts';

const POSITIONS_PAGE = 10;

/** /strategy/detail/{id}: the bot's figures, its chart with entries and targets, its operations, positions, adds and recent actions. */
export function BotDetailPage({ id }: { id: string }) {
  const { t, i18n } = useLingui();
  const l = i18n.locale;
  const exchangeName = useExchangeNames();
  const [positionsPage, setPositionsPage] = useState(1);
  // A bot that trades is followed every 3 s; a stopped one no longer changes.
  const detail = useQuery({ ...call('userBotDetail', { id }), refetchInterval: (q) => (q.state.data && q.state.data.status !== 'stopped' ? 3000 : false) });
  const d = detail.data;
  // The coin the bot holds, named beside its amount.
  const base = d ? baseCoin(d.symbol) : '';
  const live = d !== undefined && d.status !== 'stopped' ? 3000 : false;
  // The candles need the pair, known once the detail arrives.
  const candles = useQuery({
    ...call('marketSymbols', { exchange: d?.exchange ?? '', symbol: d?.symbol ?? '', history: '1', timeframe: '1m' }, { show: false }),
    enabled: d !== undefined,
    refetchInterval: 15_000,
  });
  const adds = useQuery({ ...call('userPositionAdds', { id }, { show: false }), refetchInterval: live });
  const actions = useQuery({ ...call('userBotActions', { id, page: '1', page_size: '10' }), refetchInterval: live });
  const positions = useQuery({ ...call('userBotPositions', { id, page: String(positionsPage), page_size: String(POSITIONS_PAGE) }), ...keepPage, refetchInterval: live });

  // The chart's lines change with these prices (and the language), not with each refresh of the detail.
  const averagePrice = d?.averagePrice;
  const takeProfitPrice = d?.takeProfitPrice;
  const nextAddPrice = d?.nextAddPrice;
  // A DCA bot's adds are its safety orders.
  const dca = d?.type === 'dca';
  const stopLossPrice = d?.stopLossPrice;
  const trailingPrice = d?.trailing?.price;
  // Any bot type with a trailing stop (martin, grid, DCA, custom): its stop line follows the high.
  const trailingStop = (d?.params as { trailingStop?: boolean } | undefined)?.trailingStop === true;
  const lines = useMemo<ChartLine[]>(() => {
    const out: ChartLine[] = [];
    if (averagePrice) out.push({ kind: 'average', price: averagePrice, title: t`均价` });
    if (takeProfitPrice) out.push({ kind: 'takeProfit', price: takeProfitPrice, title: t`止盈` });
    if (nextAddPrice) out.push({ kind: 'nextAdd', price: nextAddPrice, title: dca ? t`安全单` : t`补仓` });
    if (stopLossPrice) out.push({ kind: 'stopLoss', price: stopLossPrice, title: trailingStop ? t`追踪止损` : t`止损` });
    if (trailingPrice) out.push({ kind: 'trailing', price: trailingPrice, title: t`追踪止盈` });
    return out;
  }, [averagePrice, takeProfitPrice, nextAddPrice, stopLossPrice, trailingPrice, trailingStop, dca, t]);
  const entries = useMemo<ChartEntry[]>(() => (adds.data ?? []).filter((o) => o.status === 'filled' && o.price).map((o) => ({ at: o.at, price: o.price!, side: o.side })), [adds.data]);
  // The chart ends at the bot's last price (read every 3 s, the candles every 15 s), the one shown above it.
  const lastPrice = d?.price;
  const pairHistory = candles.data?.[0]?.history;
  const history = useMemo(() => (pairHistory ? endAtPrice(pairHistory, lastPrice) : undefined), [pairHistory, lastPrice]);
  // A custom bot's rules in words: what it buys and sells on.
  const lang = i18n.locale === 'en' ? 'en' : 'zh';
  // A DCA bot's indicator start likewise: when it opens a deal.
  const rules = useMemo(() => (d?.type === 'custom' ? explainStored(d.params, lang) : d?.type === 'dca' ? explainStoredStart(d.params, lang) : null), [d?.type, d?.params, lang]);
  // Prices at the pair's tick and amounts at its step, once the market's rules are known.
  const tick = candles.data?.[0]?.tickSize ?? d?.close?.tickSize;
  const step = candles.data?.[0]?.stepSize ?? d?.close?.stepSize;

  return (
    <Page title={d ? botTitle(d.symbol, d.name, i18n) : <Trans>策略详情</Trans>}>
      <OfflineBanner />
      <LoadState loading={loading(detail)} failed={failed(detail)} failedText={<Trans>策略加载失败，可能已被删除。</Trans>} onRetry={() => void detail.refetch()} />
      {d ? (
        <>
          <section className={ui.card} data-testid="bot-summary" data-symbol={d.symbol}>
            <div className={css.botHead}>
              <span className={ui.muted}>
                {exchangeName(d.exchange)} · {i18n._(typeLabels[d.type])} · <Trans>第 {d.cycle} 轮</Trans>
                {d.ai ? (
                  <span data-testid="bot-ai">
                    {' · '}
                    <Trans>
                      AI {i18n._(riskLabels[d.ai.risk])}，参数调整于 {time(d.ai.tunedAt)}，空仓时会定期按最新行情重新调整
                    </Trans>
                  </span>
                ) : null}
              </span>
              <StatusBadge status={d.status} />
            </div>
            <div className={styles.grid2Spaced}>
              <div>
                <div className={ui.muted}>{d.grid ? <Trans>网格利润 (USDT)</Trans> : <Trans>已实现收益 (USDT)</Trans>}</div>
                <div className={css.big} data-testid="bot-profit">
                  <Profit value={d.profit} />
                </div>
              </div>
              <div>
                <div className={ui.muted}>
                  <Trans>浮动盈亏 (USDT)</Trans>
                </div>
                <div className={css.big}>
                  <Profit value={d.unrealized} />
                </div>
              </div>
            </div>
            <div className={css.figures}>
              <Figure label={<Trans>最新价</Trans>} testId="bot-price" kind="price">
                {price(d.price, l, tick)}
              </Figure>
              <Figure label={<Trans>持仓均价</Trans>} kind="price">
                {price(d.averagePrice, l, tick)}
              </Figure>
              <Figure label={<Trans>持仓 / 上限</Trans>} testId="bot-positions">
                {d.positions} / {d.maxPositions}
              </Figure>
              <Figure label={<Trans>止盈价</Trans>} kind="price">
                {price(d.takeProfitPrice, l, tick)}
              </Figure>
              <Figure label={d.grid ? <Trans>下一买入价</Trans> : dca ? <Trans>下一安全单价</Trans> : <Trans>下次补仓价</Trans>} kind="price">
                {price(d.nextAddPrice, l, tick)}
              </Figure>
              <Figure label={<Trans>已投入 / 投资 (USDT)</Trans>}>
                <span data-figure="quote">{usdt(d.invested, l)}</span> / <span data-figure="quote">{usdt(d.investment, l)}</span>
              </Figure>
              <Figure label={<Trans>今日收益 (USDT)</Trans>}>
                <Profit value={d.todayProfit} />
              </Figure>
              <Figure label={<Trans>持有数量 ({base})</Trans>} kind="amount">
                {amount(d.amount, l, step)}
              </Figure>
              <Figure label={<Trans>止损价</Trans>} kind="price">
                {price(d.stopLossPrice, l, tick)}
              </Figure>
              {d.trailing ? (
                <Figure label={<Trans>追踪止盈卖出价</Trans>} testId="bot-trailing" kind="price">
                  {price(d.trailing.price, l, tick)}
                </Figure>
              ) : null}
            </div>
            <BotReturns bot={d} usedRoi={d.type === 'grid' ? undefined : d.usedRoi} />
            {Number(d.dust) > 0 ? (
              <p className={ui.muted} data-testid="bot-dust">
                <Trans>
                  零头 {num(d.dust, l, 8)} {base}：手续费按币扣除、数量按交易所步长取整后剩下的币，不足一个步长暂时卖不出；它仍属于本策略，下一次卖出时一并卖出，收入计入那次收益。
                </Trans>
              </p>
            ) : null}
            {d.error ? (
              <p role="alert" className={css.errorLine} data-testid="bot-error">
                <Trans>引擎已暂停该策略：</Trans>
                {pauseText(d.error, i18n)}
              </p>
            ) : null}
            {d.pending ? (
              <p className={ui.muted} role="status">
                <Trans>订单处理中…</Trans>
              </p>
            ) : null}
          </section>
          {rules ? (
            <section className={ui.card} aria-labelledby="bot-rules-title" data-testid="bot-rules">
              <h2 id="bot-rules-title" className={css.sectionTitle}>
                <Trans>策略规则</Trans>
              </h2>
              <div className={customCss.explanation}>
                {rules.map((line) => (
                  <p key={line} className={customCss.explainLine}>
                    {line}
                  </p>
                ))}
              </div>
            </section>
          ) : null}
          <BotOperations bot={d} />
          {/* Clone: a new bot of the same type, pair, exchange and parameters (Pionex item 2). */}
          {d.type === 'martin' || d.type === 'grid' || d.type === 'dca' || d.type === 'custom' ? (
            <Link
              to={d.type === 'grid' ? '/strategy/grid/{-$id}' : d.type === 'dca' ? '/strategy/dca/{-$id}' : d.type === 'custom' ? '/strategy/custom/{-$id}' : '/strategy/martin/{-$id}'}
              params={{ id: undefined }}
              search={{ exchange: d.exchange, copy: copyParam({ symbol: d.symbol, params: d.params }) }}
              className={css.linkButton.secondary}
              data-testid="bot-clone"
            >
              <Trans>复制此策略</Trans>
            </Link>
          ) : null}
          {d.grid ? (
            <section className={ui.card} aria-label={t`网格`} data-testid="bot-grid">
              <h2 className={css.sectionTitle}>
                <Trans>网格（已完成 {d.grid.trades} 格）</Trans>
              </h2>
              <p className={css.mutedTight.top}>
                <Trans>
                  每格数量 {amount(d.grid.quantity, l, step)}，每格利润 {percent(d.grid.profit.minPct, l)} ~ {percent(d.grid.profit.maxPct, l)}
                </Trans>
              </p>
              <GridOutOfRange grid={d.grid} price={d.price} />
              <GridLevelsList levels={d.grid.levels} tick={tick} />
            </section>
          ) : null}
          <PnlPanel id={id} grid={d.type === 'grid'} now={{ realized: d.profit, unrealized: d.unrealized, total: d.totalProfit, roi: d.roi, apr: d.apr, runtime: d.runtime, startedAt: d.startedAt }} />
          {/* Signal bots: a DCA or custom bot's webhook and its last signals. */}
          {d.type === 'dca' || d.type === 'custom' ? <BotSignals id={id} live={live} /> : null}
          <RankShareSwitch id={id} />
          <BotPriceChart bot={d} history={history} failed={failed(candles)} lines={lines} entries={entries} tick={tick} />
          <section className={ui.card}>
            <h2 className={css.sectionTitle}>
              <Trans>本轮买入</Trans>
            </h2>
            {adds.data && adds.data.length === 0 ? (
              <p className={ui.muted}>
                <Trans>本轮还没有成交。</Trans>
              </p>
            ) : null}
            {adds.data && adds.data.length > 0 ? (
              <table className={css.table} data-testid="adds-table" data-symbol={d.symbol}>
                <thead>
                  <tr>
                    <th>
                      <Trans>类型</Trans>
                    </th>
                    <th>
                      <Trans>价格</Trans>
                    </th>
                    <th>
                      <Trans>数量</Trans>
                    </th>
                    <th>
                      <Trans>金额</Trans>
                    </th>
                    <th>
                      <Trans>时间</Trans>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {adds.data.map((o) => (
                    <tr key={o.clientOrderId}>
                      <td>
                        {i18n._(orderReasonLabels[o.reason])}
                        {o.status === 'rejected' ? ` ✕` : o.status === 'new' ? ' …' : ''}
                      </td>
                      <td data-figure="price">{price(o.price, l, tick)}</td>
                      <td data-figure="amount">{amount(o.amount, l, step)}</td>
                      <td data-figure="quote">{usdt(o.cost, l)}</td>
                      <td>{time(o.at).slice(6)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            ) : null}
          </section>
          <section className={ui.card}>
            <h2 className={css.sectionTitle}>
              <Trans>持仓记录</Trans>
            </h2>
            {failed(positions) ? <p role="alert" className={css.errorLine}>{t`加载失败。`}</p> : null}
            {positions.data && positions.data.list.length === 0 ? (
              <p className={ui.muted}>
                <Trans>还没有持仓。</Trans>
              </p>
            ) : null}
            {positions.data && positions.data.list.length > 0 ? (
              <table className={css.table} data-testid="positions-table" data-symbol={d.symbol}>
                <thead>
                  <tr>
                    <th>
                      <Trans>轮次</Trans>
                    </th>
                    <th>
                      <Trans>笔数</Trans>
                    </th>
                    <th>
                      <Trans>均价</Trans>
                    </th>
                    <th>
                      <Trans>平仓价</Trans>
                    </th>
                    <th>
                      <Trans>收益</Trans>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {positions.data.list.map((p) => (
                    <tr key={p.cycle} data-status={p.status}>
                      <td>
                        {p.cycle}
                        {p.status === 'open' ? ` (${t`持仓中`})` : ''}
                      </td>
                      <td>{p.entries}</td>
                      <td data-figure="price">{price(p.averagePrice, l, tick)}</td>
                      <td data-figure="price">{price(p.closePrice, l, tick)}</td>
                      <td>
                        <Profit value={p.profit} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            ) : null}
            {positions.data ? <Pager page={positionsPage} pageSize={POSITIONS_PAGE} total={positions.data.total} onPage={setPositionsPage} /> : null}
          </section>
          <section className={ui.card}>
            <div className={css.botHead}>
              <h2 className={css.sectionTitle}>
                <Trans>最近日志</Trans>
              </h2>
              <Link to="/strategy/logs" search={{ id }} className={ui.muted}>
                <Trans>全部</Trans> ›
              </Link>
            </div>
            {failed(actions) && !actions.data ? <p role="alert" className={css.errorLine}>{t`加载失败。`}</p> : null}
            {actions.data ? <ActionList actions={actions.data.list} symbolOf={() => d.symbol} typeOf={() => d.type} /> : null}
          </section>
        </>
      ) : null}
    </Page>
  );
}

/**
 * A grid whose price has left its range has nothing to do until the price comes back: said in words, not
 * left to a list of levels that looks like a stuck bot. Above the range it holds no coin (all sold);
 * below it, every buy level has filled.
 */
function GridOutOfRange({ grid, price }: { grid: NonNullable<BotDetail['grid']>; price: string }) {
  const levels = grid.levels;
  if (levels.length === 0) return null;
  const now = Number(price);
  const lower = Number(levels[0]!.price);
  const upper = Number(levels[levels.length - 1]!.price);
  if (now > upper)
    return (
      <p className={styles.stateNote} role="status" data-testid="grid-out-of-range">
        <Trans>价格高于网格上沿：持有的币已全部卖出，价格回到区间内才会再挂单。</Trans>
      </p>
    );
  if (now < lower)
    return (
      <p className={styles.stateNote} role="status" data-testid="grid-out-of-range">
        <Trans>价格低于网格下沿：买单已全部成交，价格回到区间内才会继续卖出。</Trans>
      </p>
    );
  return null;
}
