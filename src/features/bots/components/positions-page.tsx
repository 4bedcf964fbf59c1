import { useState } from 'react';
import { Link } from '@tanstack/react-router';
import { useQuery } from '@tanstack/react-query';
import { Trans, useLingui } from '@lingui/react/macro';
import { call, failed, keepPage, loading } from '../../../shared/query.ts';
import { Page } from '../../../components/ui/page.tsx';
import { OfflineBanner } from '../../../shared/offline-banner.tsx';
import { LoadState } from '../../../components/ui/load-state.tsx';
import * as ui from '../../../components/ui/ui.css.ts';
import { amount, price, usdt } from '../../../shared/format.ts';
import { Figure, Profit } from './figure.tsx';
import { Pager } from '../../../shared/pager.tsx';
import { StatusBadge } from './status-badge.tsx';
import { botTitle } from '../labels.ts';
import { usePairRules } from '../../../shared/pair-rules.ts';
import type { OpenPosition } from '../../../../contract/returns.ts';
import * as css from '../../../shared/blocks.css.ts';
import { livePoll, PRICED_WHILE_UP_MS } from '../../../shared/live/state.ts';

const PAGE_SIZE = 10;

/** /my/positions: every open position across the trader's bots, valued at the price now. */
export function PositionsPage() {
  const [page, setPage] = useState(1);
  const positions = useQuery({ ...call('userPositions', { page: String(page), page_size: String(PAGE_SIZE) }), ...keepPage, refetchInterval: livePoll(5000, { whileUp: PRICED_WHILE_UP_MS }) });
  return (
    <Page title={<Trans>我的持仓</Trans>}>
      <OfflineBanner />
      <LoadState loading={loading(positions)} failed={failed(positions)} failedText={<Trans>持仓加载失败。</Trans>} onRetry={() => void positions.refetch()} />
      {positions.data && positions.data.list.length === 0 ? (
        <section className={ui.card}>
          <p className={ui.muted}>
            <Trans>当前没有持仓。</Trans>
          </p>
        </section>
      ) : null}
      <ul className={css.plainList} data-testid="open-positions">
        {positions.data?.list.map((p) => (
          <PositionCard key={p.botId} position={p} />
        ))}
      </ul>
      {positions.data ? <Pager page={page} pageSize={PAGE_SIZE} total={positions.data.total} onPage={setPage} /> : null}
    </Page>
  );
}

/** An open position, its prices at its pair's tick and its amount at the step. */
function PositionCard({ position: p }: { position: OpenPosition }) {
  const { i18n } = useLingui();
  const l = i18n.locale;
  const market = usePairRules(p.exchange).get(p.symbol);
  return (
    <li className={css.botCardSingle} data-symbol={p.symbol}>
      <Link to="/strategy/detail/$id" params={{ id: p.botId }} className={css.botLink}>
        <div className={css.botHead}>
          <span className={css.botTitle}>{botTitle(p.symbol, p.botName, i18n)}</span>
          <StatusBadge status={p.status} />
        </div>
        <div className={css.figures}>
          <Figure label={<Trans>浮动盈亏</Trans>}>
            <Profit value={p.unrealized} />
          </Figure>
          <Figure label={<Trans>持仓均价</Trans>} kind={market ? 'price' : undefined}>
            {price(p.averagePrice, l, market?.tickSize)}
          </Figure>
          <Figure label={<Trans>最新价</Trans>} kind={market ? 'price' : undefined}>
            {price(p.price, l, market?.tickSize)}
          </Figure>
          <Figure label={<Trans>数量</Trans>} kind={market ? 'amount' : undefined}>
            {amount(p.amount, l, market?.stepSize)}
          </Figure>
          <Figure label={<Trans>成本</Trans>} kind="quote">
            {usdt(p.cost, l)}
          </Figure>
          <Figure label={<Trans>笔数</Trans>}>{p.entries}</Figure>
        </div>
      </Link>
    </li>
  );
}
