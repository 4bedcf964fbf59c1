import { Link } from '@tanstack/react-router';
import { useQuery } from '@tanstack/react-query';
import { Trans, useLingui } from '@lingui/react/macro';
import { failed } from '../../../shared/query.ts';
import { homeQueries } from '../home-data.ts';
import { Page } from '../../../components/ui/page.tsx';
import { OfflineBanner } from '../../../shared/offline-banner.tsx';
import { NoticeBell } from '../../../shared/unread.tsx';
import { HomeBanners } from './home-banners.tsx';
import * as ui from '../../../components/ui/ui.css.ts';
import { pct, price, trend } from '../../../shared/format.ts';
import { storedTradingMode, useTradingMode } from '../../../shared/use-trading-mode.ts';
import { Profit } from './figure.tsx';
import { TotalPnl } from './total-pnl.tsx';
import { PortfolioCard } from '../../../shared/portfolio.tsx';
import * as css from '../../../shared/blocks.css.ts';
import { starterTypes } from '../../../shared/bot-types.ts';
import * as styles from './bots.css.ts';

/** Home (/): the profit bill (today, total), the equity across accounts, the bots by state and a few market prices. */
export function HomePage() {
  const { t, i18n } = useLingui();
  const l = i18n.locale;
  // The figures of the bots the strategy list shows: live or simulated, never both.
  // The bindings are asked for only when the choice is not kept yet (they decide it the first time).
  const [mode] = useTradingMode(useQuery({ ...homeQueries.bindings, enabled: !storedTradingMode() }).data);
  const bill = useQuery({ ...homeQueries.bill(mode ?? 'live'), enabled: mode !== undefined });
  const counts = useQuery({ ...homeQueries.counts(mode ?? 'live'), enabled: mode !== undefined });
  const prices = useQuery(homeQueries.prices);
  const c = counts.data;
  return (
    <Page title={<Trans>首页</Trans>} root action={<NoticeBell />}>
      <OfflineBanner />
      <HomeBanners />
      <Link to="/strategy/bill" className={styles.billCard} aria-label={t`收益账单`}>
        <div>
          <div className={ui.muted}>
            <Trans>今日收益 (USDT)</Trans>
          </div>
          <div className={css.big} data-testid="home-today">
            {bill.data ? <Profit value={bill.data.today} /> : '—'}
          </div>
        </div>
        <div>
          <div className={ui.muted}>
            <Trans>已实现收益 (USDT)</Trans>
          </div>
          <div className={css.big} data-testid="home-total">
            {bill.data ? <Profit value={bill.data.total} /> : '—'}
          </div>
        </div>
        <TotalPnl bill={bill.data} testId="home-total-pnl" />
      </Link>
      <PortfolioCard />
      <Link to="/strategy" className={styles.cardLink}>
        <div className={css.botHead}>
          <strong>
            <Trans>我的策略</Trans>
          </strong>
          <span className={ui.muted}>›</span>
        </div>
        <div className={styles.figures4}>
          <div>
            <div className={css.figureValue} data-testid="home-total-bots">
              {c?.total ?? '—'}
            </div>
            <div className={css.figureLabel}>
              <Trans>全部</Trans>
            </div>
          </div>
          <div>
            <div className={`${css.figureValue} ${css.profit.up}`}>{c?.running ?? '—'}</div>
            <div className={css.figureLabel}>
              <Trans>运行中</Trans>
            </div>
          </div>
          <div>
            <div className={css.figureValue}>{c?.paused ?? '—'}</div>
            <div className={css.figureLabel}>
              <Trans>已暂停</Trans>
            </div>
          </div>
          <div>
            <div className={css.figureValue}>{c?.stopped ?? '—'}</div>
            <div className={css.figureLabel}>
              <Trans>已停止</Trans>
            </div>
          </div>
        </div>
      </Link>
      <section className={ui.card} aria-label={t`行情`}>
        <div className={css.botHead}>
          <h2 className={css.sectionTitle}>
            <Trans>行情</Trans>
          </h2>
          <Link to="/market" search={{}} className={ui.mutedLink} data-testid="home-market">
            <Trans>全部</Trans> ›
          </Link>
        </div>
        {failed(prices) ? (
          <p className={ui.muted}>
            <Trans>行情暂不可用。</Trans>
          </p>
        ) : null}
        {(prices.data ?? []).map((p) => (
          <div key={p.symbol} className={css.row} data-testid="home-price" data-symbol={p.symbol}>
            <span>{p.symbol}</span>
            <span className={css.numeric}>
              <span data-figure="price">{price(p.price, l)}</span>{' '}
              <span className={css.profit[trend(p.change24h)]} data-figure="percent">
                {pct(p.change24h, l)}
              </span>
            </span>
          </div>
        ))}
      </section>
      {c && c.total === 0 ? (
        <Link to="/strategy/$type/{-$id}" params={{ type: starterTypes.first }} className={css.linkButton.primary}>
          <Trans>创建第一个策略</Trans>
        </Link>
      ) : null}
    </Page>
  );
}
