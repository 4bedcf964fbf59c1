import { Link } from '@tanstack/react-router';
import { useQuery } from '@tanstack/react-query';
import { Trans, useLingui } from '@lingui/react/macro';
import type { PortfolioAccount } from '../../contract/exchanges.ts';
import * as ui from '../components/ui/ui.css.ts';
import { amount, isStable, price, usdt } from './format.ts';
import { call, failed } from './query.ts';
import { useExchangeNames } from './exchange-names.ts';
import { usePairRules } from './pair-rules.ts';
import * as css from './blocks.css.ts';
import { livePoll, PRICED_WHILE_UP_MS } from './live/state.ts';

/**
 * The equity across accounts, refreshed every 15 s while shown (home's loader asks for it ahead); with the live
 * stream up, at each trade or balance change and every 30 s for the prices.
 */
export const portfolioQuery = { ...call('userPortfolio', undefined, { show: false }), refetchInterval: livePoll(15_000, { whileUp: PRICED_WHILE_UP_MS }) };

/** An account's name ("Binance 模拟" / "Binance (simulated)") and whether its money is real: simulated accounts are always labelled so. */
function AccountName({ account }: { account: PortfolioAccount }) {
  const name = useExchangeNames()(account.exchange);
  return (
    <span>
      {name}{' '}
      <span className={account.kind === 'live' ? css.badge.running : css.badge.paused}>{account.kind === 'live' ? <Trans context="account">实盘</Trans> : <Trans context="account">模拟</Trans>}</span>
    </span>
  );
}

/**
 * The trader's equity across accounts, USDT at the price now: real money (bound
 * exchanges) and virtual money (Paper, simulated accounts) apart and together. `detail` adds each
 * account's coins; an account whose balance cannot be read says so (it is not 0).
 */
export function PortfolioCard({ detail = false }: { detail?: boolean }) {
  const { t, i18n } = useLingui();
  const l = i18n.locale;
  const p = useQuery(portfolioQuery);
  const d = p.data;
  return (
    <section className={ui.card} aria-label={t`资产总览`} data-testid="portfolio">
      <div className={css.botHead}>
        <h2 className={css.sectionTitle}>
          <Trans>资产总览 (USDT)</Trans>
        </h2>
        {detail ? null : (
          <Link to="/my/asset/$type" params={{ type: 'balance' }} className={ui.mutedLink}>
            <Trans>详情</Trans> ›
          </Link>
        )}
      </div>
      {failed(p) ? (
        <p role="alert" className={css.errorLine}>
          <Trans>资产加载失败。</Trans>{' '}
          <button type="button" className={css.smallButton} onClick={() => void p.refetch()}>
            <Trans>重试</Trans>
          </button>
        </p>
      ) : null}
      <div className={css.figures}>
        <div className={css.figure}>
          <div className={css.figureValue} data-testid="portfolio-total" data-figure="quote">
            {usdt(d?.total, l)}
          </div>
          <div className={css.figureLabel}>
            <Trans>总权益</Trans>
          </div>
        </div>
        <div className={css.figure}>
          <div className={css.figureValue} data-testid="portfolio-live" data-figure="quote">
            {usdt(d?.live, l)}
          </div>
          <div className={css.figureLabel}>
            <Trans>实盘</Trans>
          </div>
        </div>
        <div className={css.figure}>
          <div className={css.figureValue} data-testid="portfolio-simulation" data-figure="quote">
            {usdt(d?.simulation, l)}
          </div>
          <div className={css.figureLabel}>
            <Trans>模拟（虚拟资金）</Trans>
          </div>
        </div>
      </div>
      {d && d.unavailable > 0 ? (
        <p className={css.errorLine} role="status">
          <Trans>{d.unavailable} 个账户暂时读不到余额，未计入合计。</Trans>
        </p>
      ) : null}
      {d && d.accounts.length === 0 ? (
        <p className={ui.muted}>
          <Trans>还没有账户：绑定交易所或开通模拟账户后显示。</Trans>
        </p>
      ) : null}
      {d ? (
        <ul className={css.plainList}>
          {d.accounts.map((a) => (
            <li key={a.exchange} className={css.logItem} data-testid="portfolio-account" data-status={a.status}>
              <div className={css.rowTight}>
                <AccountName account={a} />
                <strong className={css.numeric}>
                  {a.status === 'ok' ? (
                    <span data-figure="quote">{usdt(a.equity, l)}</span>
                  ) : (
                    <span className={css.errorLine}>
                      <Trans>暂时无法读取</Trans>
                    </span>
                  )}
                </strong>
              </div>
              {a.status === 'ok' ? (
                <div className={css.figureLabel}>
                  <Trans>
                    可用 <span data-figure="quote">{usdt(a.available, l)}</span> USDT · {a.coinCount} 种币
                  </Trans>
                </div>
              ) : null}
              {detail && a.status === 'ok' && a.coins.length > 0 ? <AccountCoins account={a} /> : null}
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}

/**
 * An account's coins: each amount at its pair's step and each price at its tick (the pair against
 * USDT, from the exchange's market list, already cached by the market screen); a coin without such a
 * pair shows by its size.
 */
function AccountCoins({ account }: { account: PortfolioAccount }) {
  const { t, i18n } = useLingui();
  const l = i18n.locale;
  const rules = usePairRules(account.exchange);
  return (
    <table className={css.table}>
      <thead>
        <tr>
          <th>
            <Trans>币种</Trans>
          </th>
          <th>
            <Trans>数量</Trans>
          </th>
          <th>
            <Trans>价格</Trans>
          </th>
          <th>
            <Trans>估值 (USDT)</Trans>
          </th>
        </tr>
      </thead>
      <tbody>
        {account.coins.map((c) => {
          const pair = `${c.currency}/USDT`;
          const market = rules.get(pair);
          const stable = isStable(c.currency);
          return (
            <tr key={c.currency} data-symbol={market ? pair : undefined}>
              <td>{c.currency}</td>
              <td data-figure={stable ? 'quote' : market ? 'amount' : undefined}>{stable ? usdt(c.total, l) : amount(c.total, l, market?.stepSize)}</td>
              <td data-figure={market && c.price !== null ? 'price' : undefined}>{c.price === null ? t`无报价` : price(c.price, l, market?.tickSize)}</td>
              <td data-figure="quote">{usdt(c.value, l)}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
