import { useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { useQuery } from '@tanstack/react-query';
import { call, exchangesQuery, failed, keepPage, loading } from '../../../shared/query.ts';
import { Page } from '../../../components/ui/page.tsx';
import { LoadState } from '../../../components/ui/load-state.tsx';
import * as ui from '../../../components/ui/ui.css.ts';
import { pct, price, signed, time, trend } from '../../../shared/format.ts';
import * as bots from '../../../shared/blocks.css.ts';
import * as css from './market.css.ts';

/** /futures: the USDT-margined perpetuals of an exchange with price and funding rate, read only (no futures bots yet). */
export function FuturesPage() {
  const { t, i18n } = useLingui();
  const l = i18n.locale;
  const exchanges = useQuery(exchangesQuery);
  const live = (exchanges.data?.exchanges ?? []).filter((e) => e.code !== 'paper' && !e.simulatedOf);
  const [picked, setPicked] = useState('binance');
  const data = useQuery({ ...call('marketFutures', { exchange: picked }, { show: false }), ...keepPage });
  // The exchange cannot be reached: the Paper market's spot prices show instead, saying so.
  const paper = useQuery({ ...call('marketSymbols', { exchange: 'paper', latest: '1' }, { show: false }), enabled: failed(data) });
  return (
    <Page title={<Trans>合约</Trans>}>
      <p className={css.futuresNote} role="note" data-testid="futures-note">
        <Trans>合约策略暂未开放，此页仅展示行情。</Trans>
      </p>
      <div className={bots.chips} role="tablist" aria-label={t`交易所`}>
        {live.map((e) => (
          <button key={e.code} type="button" role="tab" aria-selected={e.code === picked} className={bots.chip} onClick={() => setPicked(e.code)}>
            {e.name}
          </button>
        ))}
      </div>
      <LoadState loading={loading(data)} failed={failed(data)} failedText={<Trans>无法连接该交易所，请稍后重试。</Trans>} onRetry={() => void data.refetch()} />
      {failed(data) && paper.data ? (
        <section className={ui.card} data-testid="futures-fallback">
          <p className={css.fallback}>
            <Trans>合约行情暂时无法获取，以下为模拟盘现货行情。</Trans>
          </p>
          <table className={bots.table}>
            <tbody>
              {paper.data.map((s) => (
                <tr key={s.symbol}>
                  <td>{s.symbol}</td>
                  <td>{price(s.price, l, s.tickSize)}</td>
                  <td className={bots.profit[trend(s.change24h)]}>{s.change24h ? pct(s.change24h, l) : ''}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      ) : null}
      {data.data ? (
        <section className={ui.card} data-testid="futures-list">
          <table className={bots.table}>
            <thead>
              <tr>
                <th>
                  <Trans>永续合约</Trans>
                </th>
                <th>
                  <Trans>价格</Trans>
                </th>
                <th>
                  <Trans>资金费率</Trans>
                </th>
                <th>
                  <Trans>下次结算</Trans>
                </th>
              </tr>
            </thead>
            <tbody>
              {data.data.list.map((r) => (
                <tr key={r.symbol}>
                  <td>
                    {r.symbol}
                    <div className={`${bots.profit[trend(r.change24h)]} ${css.futuresChange}`}>{r.change24h ? pct(r.change24h, l) : ''}</div>
                  </td>
                  <td>{price(r.price, l)}</td>
                  <td className={bots.profit[trend(r.fundingRate)]}>{r.fundingRate ? `${signed(Number(r.fundingRate) * 100, l, 4)}%` : '—'}</td>
                  <td>{r.nextFundingTime ? time(new Date(r.nextFundingTime).toISOString()).slice(6, 11) : '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      ) : null}
    </Page>
  );
}
