import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import type { BotDetail, BotOrder } from '../../../../contract/bots.ts';
import * as ui from '../../../components/ui/ui.css.ts';
import * as css from '../../../shared/blocks.css.ts';
import { amount, price, time, usdt } from '../../../shared/format.ts';
import { Pager } from '../../../shared/pager.tsx';
import { call, failed, keepPage } from '../../../shared/query.ts';
import { orderReasonLabels } from '../labels.ts';
import { ActionList } from './action-list.tsx';
import { Profit } from './figure.tsx';
import { livePoll } from '../../../shared/live/state.ts';

const POSITIONS_PAGE = 10;

/**
 * The detail's records: this cycle's buys, the positions cycle by cycle (paged), and the last log lines.
 * Its queries start with the detail's, not after it: the sections show once the bot is known.
 */
export function BotPositions({
  id,
  bot: d,
  adds,
  live,
  tick,
  step,
}: {
  id: string;
  bot: BotDetail | undefined;
  adds: BotOrder[] | undefined;
  live: number | false;
  tick: string | undefined;
  step: string | undefined;
}) {
  const { t, i18n } = useLingui();
  const l = i18n.locale;
  const [positionsPage, setPositionsPage] = useState(1);
  const actions = useQuery({ ...call('userBotActions', { id, page: '1', page_size: '10' }), refetchInterval: livePoll(live) });
  const positions = useQuery({ ...call('userBotPositions', { id, page: String(positionsPage), page_size: String(POSITIONS_PAGE) }), ...keepPage, refetchInterval: livePoll(live) });
  if (!d) return null;
  return (
    <>
      <section className={ui.card}>
        <h2 className={css.sectionTitle}>
          <Trans>本轮买入</Trans>
        </h2>
        {adds && adds.length === 0 ? (
          <p className={ui.muted}>
            <Trans>本轮还没有成交。</Trans>
          </p>
        ) : null}
        {adds && adds.length > 0 ? (
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
              {adds.map((o) => (
                <tr key={o.clientOrderId}>
                  <td>
                    {i18n._(orderReasonLabels[o.reason])}
                    {o.status === 'filled' ? '' : o.status === 'rejected' || o.status === 'cancelled' || o.status === 'expired' ? ` ✕` : ' …'}
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
  );
}
