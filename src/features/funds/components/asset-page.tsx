import { useState } from 'react';
import { getRouteApi, Link } from '@tanstack/react-router';
import { useQuery } from '@tanstack/react-query';
import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import { Trans, useLingui } from '@lingui/react/macro';
import type { AccountLog } from '../../../../contract/funds.ts';
import { Page } from '../../../components/ui/page.tsx';
import { LoadState } from '../../../components/ui/load-state.tsx';
import * as ui from '../../../components/ui/ui.css.ts';
import { platformAmount, time, trend } from '../../../shared/format.ts';
import { Pager } from '../../../shared/pager.tsx';
import { call, failed, keepPage, loading } from '../../../shared/query.ts';
import * as css from '../../../shared/blocks.css.ts';
import * as funds from './funds.css.ts';
import { ChangeDialog } from './change-dialog.tsx';
import { PortfolioCard } from '../../../shared/portfolio.tsx';

const route = getRouteApi('/_authed/my/asset/$type');
const PAGE_SIZE = 20;

/** The screen's types (docs/product.md §2: balance, fuel, points, rewards) and the ledger's assets. */
const types = { balance: 'usdt', fuel: 'fuel', points: 'points', rewards: 'rewards' } as const;
type AssetType = keyof typeof types;
const typeLabels: Record<AssetType, MessageDescriptor> = { balance: msg`余额 (USDT)`, fuel: msg`燃料`, points: msg`积分`, rewards: msg`奖励` };
const reasonLabels: Record<AccountLog['reason'], MessageDescriptor> = {
  welcome: msg`新用户赠送`,
  profit_fee: msg`盈利手续费`,
  deposit: msg`充值`,
  withdraw: msg`提现`,
  refund: msg`退回`,
  change: msg`兑换`,
  reward: msg`推荐奖励`,
  adjust: msg`调整`,
};

/** /my/asset/{balance|fuel|points|rewards}: the four balances, and the chosen one's log (20 a page); the balance tab also shows the equity across accounts. */
export function AssetRoute() {
  const { type } = route.useParams();
  const known = type in types;
  return known ? (
    <AssetPage key={type} type={type as AssetType} />
  ) : (
    <Page title={<Trans>我的资产</Trans>}>
      <section className={ui.card}>
        <p>
          <Trans>没有这种资产。</Trans>
        </p>
        <Link to="/my/asset/$type" params={{ type: 'balance' }}>
          <Trans>查看余额</Trans>
        </Link>
      </section>
    </Page>
  );
}

function AssetPage({ type }: { type: AssetType }) {
  const { i18n } = useLingui();
  const l = i18n.locale;
  const [page, setPage] = useState(1);
  const [changing, setChanging] = useState(false);
  const account = useQuery(call('userAccount'));
  const logs = useQuery({ ...call('userAccountLogs', { type: types[type], page: String(page), page_size: String(PAGE_SIZE) }), ...keepPage });
  return (
    <Page title={<Trans>我的资产</Trans>}>
      <div className={css.chips} role="tablist">
        {(Object.keys(types) as AssetType[]).map((k) => (
          <Link key={k} to="/my/asset/$type" params={{ type: k }} className={css.chipLink} aria-pressed={k === type} role="tab" aria-selected={k === type}>
            {i18n._(typeLabels[k])}
          </Link>
        ))}
      </div>
      <section className={ui.card} data-testid="asset-balance">
        <div className={ui.muted}>{i18n._(typeLabels[type])}</div>
        <div className={css.big} data-figure={types[type] === 'usdt' ? 'quote' : undefined}>
          {account.data ? platformAmount(account.data[types[type]], types[type], l) : '—'}
        </div>
        {type === 'fuel' ? (
          <p className={ui.muted}>
            <Trans>策略每完成一轮盈利，按收益的一定比例扣除燃料；燃料用完时运行中的策略会自动暂停。</Trans>
          </p>
        ) : null}
        <div className={funds.assetActions}>
          {type === 'balance' ? (
            <Link to="/my/deposit" className={css.primarySmallLink} data-testid="asset-deposit">
              <Trans>充值</Trans>
            </Link>
          ) : null}
          {type === 'balance' ? (
            <Link to="/my/withdraw" className={css.smallLink}>
              <Trans>提现</Trans>
            </Link>
          ) : null}
          <button type="button" className={css.smallButton} onClick={() => setChanging(true)} data-testid="asset-change">
            <Trans>兑换</Trans>
          </button>
        </div>
      </section>
      <ChangeDialog open={changing} onOpenChange={setChanging} from={types[type]} />
      {type === 'balance' ? <PortfolioCard detail /> : null}
      <LoadState
        loading={loading(logs)}
        failed={failed(logs) || failed(account)}
        failedText={<Trans>加载失败。</Trans>}
        onRetry={() => {
          void logs.refetch();
          void account.refetch();
        }}
      />
      <section className={ui.card}>
        <h2 className={css.sectionTitle}>
          <Trans>明细</Trans>
        </h2>
        {logs.data && logs.data.list.length === 0 ? (
          <p className={ui.muted}>
            <Trans>暂无记录。</Trans>
          </p>
        ) : null}
        <ul className={css.plainList} data-testid="asset-logs">
          {logs.data?.list.map((g) => (
            <li key={g.id} className={css.logItem}>
              <div className={css.rowTight}>
                <span>{i18n._(reasonLabels[g.reason])}</span>
                <strong className={css.profit[trend(g.amount)]} data-figure={types[type] === 'usdt' ? 'quote' : undefined}>
                  {platformAmount(g.amount, types[type], l, true)}
                </strong>
              </div>
              <div className={css.rowTight}>
                <span className={css.figureLabel}>{time(g.createdAt)}</span>
                <span className={css.figureLabel}>
                  <Trans>余额</Trans> <span data-figure={types[type] === 'usdt' ? 'quote' : undefined}>{platformAmount(g.balance, types[type], l)}</span>
                </span>
              </div>
            </li>
          ))}
        </ul>
        {logs.data ? <Pager page={page} pageSize={PAGE_SIZE} total={logs.data.total} onPage={setPage} /> : null}
      </section>
    </Page>
  );
}
