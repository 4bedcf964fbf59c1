import { useMemo, useState } from 'react';
import { getRouteApi, Link, useNavigate } from '@tanstack/react-router';
import { useQuery } from '@tanstack/react-query';
import { Trans, useLingui } from '@lingui/react/macro';
import type { SymbolInfo } from '../../../../contract/market.ts';
import { Page } from '../../../components/ui/page.tsx';
import { LoadState } from '../../../components/ui/load-state.tsx';
import * as ui from '../../../components/ui/ui.css.ts';
import { pct, price, trend } from '../../../shared/format.ts';
import { call, exchangesQuery, failed, loading } from '../../../shared/query.ts';
import * as bots from '../../../shared/blocks.css.ts';
import { exchangeLabel } from '../../../shared/exchange-names.ts';
import { OfflineBanner } from '../../../shared/offline-banner.tsx';
import { favouritesOf, toggleFavourite } from '../favourites.ts';
import { Sparkline } from './sparkline.tsx';
import { SymbolChart } from './symbol-chart.tsx';
import * as css from './market.css.ts';

const route = getRouteApi('/_authed/market');

/** /market: an exchange's pairs with price, 24 h change and a day's sparkline, search and favourites; ?symbol= opens a pair's chart. */
export function MarketPage() {
  const search: Record<string, unknown> = route.useSearch();
  const exchange = typeof search.exchange === 'string' && /^[a-z0-9]{2,20}$/.test(search.exchange) ? search.exchange : 'paper';
  const symbol = typeof search.symbol === 'string' && /^[A-Z0-9]{2,20}\/[A-Z0-9]{2,20}$/.test(search.symbol) ? search.symbol : undefined;
  return symbol ? <SymbolChart key={`${exchange}:${symbol}`} exchange={exchange} symbol={symbol} /> : <MarketList key={exchange} exchange={exchange} />;
}

function MarketList({ exchange }: { exchange: string }) {
  const { t, i18n } = useLingui();
  const l = i18n.locale;
  const navigate = useNavigate();
  const exchanges = useQuery(exchangesQuery);
  const live = useQuery({ ...call('marketSymbols', { exchange, latest: '1' }, { show: false }), refetchInterval: 10_000 });
  // A live exchange that cannot be reached: the Paper market shows instead, saying so.
  const fallback = exchange !== 'paper' && failed(live);
  const paper = useQuery({ ...call('marketSymbols', { exchange: 'paper', latest: '1' }, { show: false }), refetchInterval: 10_000, enabled: fallback });
  const list = fallback ? paper : live;
  const shownExchange = fallback ? 'paper' : exchange;
  const [query, setQuery] = useState('');
  const [onlyFavourites, setOnlyFavourites] = useState(false);
  const [favourites, setFavourites] = useState(() => favouritesOf(exchange));
  const shown = useMemo(() => {
    const q = query.trim().toUpperCase();
    const rows = (list.data ?? []).filter((s) => (!q || s.symbol.includes(q)) && (!onlyFavourites || favourites.includes(s.symbol)));
    // Favourites first, then the list's order.
    return [...rows].sort((a, b) => Number(favourites.includes(b.symbol)) - Number(favourites.includes(a.symbol)));
  }, [list.data, query, onlyFavourites, favourites]);
  const go = (to: { exchange?: string; symbol?: string }) => void navigate({ to: '/market', search: { exchange: to.exchange ?? shownExchange, ...(to.symbol ? { symbol: to.symbol } : {}) } });

  return (
    <Page title={<Trans>行情</Trans>}>
      <OfflineBanner />
      <div className={bots.chips} role="tablist" aria-label={t`交易所`}>
        {(exchanges.data?.exchanges ?? [{ code: 'paper', name: 'Paper' }])
          .filter((e) => !('simulatedOf' in e && e.simulatedOf))
          .map((e) => (
            <button key={e.code} type="button" role="tab" aria-selected={e.code === exchange} className={bots.chip} onClick={() => go({ exchange: e.code })}>
              {exchangeLabel(i18n, e.code, exchanges.data?.exchanges)}
            </button>
          ))}
      </div>
      <input
        className={`${ui.input} ${css.search}`}
        type="search"
        placeholder={t`搜索交易对`}
        aria-label={t`搜索交易对`}
        value={query}
        onChange={(e) => setQuery(e.target.value)}
        data-testid="market-search"
      />
      <div className={bots.chips}>
        <Link to="/futures" className={bots.chipLink} data-testid="to-futures">
          <Trans>合约</Trans> ›
        </Link>
        <button type="button" className={bots.chip} aria-pressed={!onlyFavourites} onClick={() => setOnlyFavourites(false)}>
          <Trans>全部</Trans>
        </button>
        <button type="button" className={bots.chip} aria-pressed={onlyFavourites} onClick={() => setOnlyFavourites(true)} data-testid="only-favourites">
          <Trans>自选</Trans>
        </button>
      </div>
      {fallback ? (
        <p className={css.fallback} role="status" data-testid="market-fallback">
          <Trans>暂时无法连接 {exchangeLabel(i18n, exchange, exchanges.data?.exchanges)}，以下为模拟盘行情。</Trans>{' '}
          <button type="button" className={ui.smallButton} onClick={() => void live.refetch()}>
            <Trans>重试</Trans>
          </button>
        </p>
      ) : null}
      <LoadState loading={loading(list)} failed={failed(list)} failedText={<Trans>该交易所行情暂不可用，请稍后重试。</Trans>} onRetry={() => void list.refetch()} />
      {list.data ? (
        <section className={ui.card} data-testid="market-list">
          {shown.length === 0 ? <p className={ui.muted}>{onlyFavourites ? <Trans>还没有自选，点击星标添加。</Trans> : <Trans>没有匹配的交易对。</Trans>}</p> : null}
          {shown.map((s) => (
            <Row key={s.symbol} s={s} locale={l} favourite={favourites.includes(s.symbol)} onStar={() => setFavourites(toggleFavourite(exchange, s.symbol))} onOpen={() => go({ symbol: s.symbol })} />
          ))}
        </section>
      ) : null}
    </Page>
  );
}

function Row({ s, locale, favourite, onStar, onOpen }: { s: SymbolInfo; locale: string; favourite: boolean; onStar: () => void; onOpen: () => void }) {
  const { t } = useLingui();
  const up = Number(s.change24h) >= 0;
  return (
    <div className={css.row} data-testid="market-row" data-symbol={s.symbol}>
      <button
        type="button"
        className={favourite ? css.starOn : css.star}
        aria-pressed={favourite}
        aria-label={favourite ? t`取消自选 ${s.symbol}` : t`加入自选 ${s.symbol}`}
        onClick={onStar}
        data-testid="star"
      >
        {favourite ? '★' : '☆'}
      </button>
      <button type="button" className={css.pair} onClick={onOpen}>
        {s.symbol}
      </button>
      <Sparkline values={s.spark ?? []} up={up} />
      <div className={css.price}>
        <div data-figure="price">{price(s.price, locale, s.tickSize)}</div>
        <div className={`${bots.profit[trend(s.change24h)]} ${css.change}`} data-figure="percent">
          {pct(s.change24h, locale)}
        </div>
      </div>
    </div>
  );
}
