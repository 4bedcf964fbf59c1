import { useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { useQuery } from '@tanstack/react-query';
import { call, failed, keepPage } from '../../../shared/query.ts';
import { Page } from '../../../components/ui/page.tsx';
import { LoadState } from '../../../components/ui/load-state.tsx';
import * as ui from '../../../components/ui/ui.css.ts';
import { vars } from '../../../styles/theme.css.ts';
import { num, pct, price, trend } from '../../../shared/format.ts';
import { PriceChart } from '../../../shared/price-chart.tsx';
import * as bots from '../../../shared/blocks.css.ts';
import { Link } from '@tanstack/react-router';

const timeframes = ['1m', '5m', '15m', '1h', '4h', '1d'] as const;
const indicators = [
  ['', '—'],
  ['ma20', 'MA20'],
  ['ema20', 'EMA20'],
  ['rsi14', 'RSI14'],
] as const;
// RSI in a pane of its own under the candles, with the usual oversold and overbought lines.
const RSI_LEVELS = [
  { value: 30, title: '' },
  { value: 70, title: '' },
];
const NO_PANES: [] = [];
const chartColors = { text: vars.color.textMuted, border: vars.color.border, up: vars.color.up, down: vars.color.down, primary: vars.color.primary, warning: vars.color.warning };

/** A pair's chart (GET /api/market/symbols with history, timeframe and indicator): candles with MA/EMA drawn over them, RSI in a pane under them and as its latest value. */
export function SymbolChart({ exchange, symbol }: { exchange: string; symbol: string }) {
  const { t, i18n } = useLingui();
  const l = i18n.locale;
  const [timeframe, setTimeframe] = useState<(typeof timeframes)[number]>('1h');
  const [indicator, setIndicator] = useState<(typeof indicators)[number][0]>('ma20');
  const data = useQuery({ ...call('marketSymbols', { exchange, symbol, history: '1', timeframe, ...(indicator ? { indicator } : {}) }, { show: false }), ...keepPage, refetchInterval: 15_000 });
  const reload = () => void data.refetch();
  const s = data.data?.[0];
  const values = s?.indicator?.values;
  const rsi = s?.indicator?.name === 'rsi14' ? values?.filter((v) => v !== null).at(-1) : undefined;
  return (
    <Page title={symbol}>
      <LoadState loading={!s && !failed(data)} failed={failed(data)} failedText={<Trans>行情加载失败。</Trans>} onRetry={reload} />
      {s ? (
        <section className={ui.card} data-testid="symbol-head" data-symbol={s.symbol}>
          <div className={bots.rowTight}>
            {/* The same answer as the chart below: its last candle closes at this price. */}
            <strong className={bots.big} data-testid="symbol-price" data-figure="price">
              {price(s.price, l, s.tickSize)}
            </strong>
            <span className={bots.profit[trend(s.change24h)]} data-figure="percent">
              {pct(s.change24h, l)}
            </span>
          </div>
          {/* A bot on this pair, from its chart: the create screen with the pair chosen. */}
          <Link to="/strategy/$type/{-$id}" params={{ type: 'martin' }} search={{ exchange, copy: JSON.stringify({ symbol }) }} className={bots.linkButton.secondary} data-testid="chart-create-bot">
            <Trans>在此交易对创建策略</Trans>
          </Link>
        </section>
      ) : null}
      <fieldset className={bots.chips} aria-label={t`周期`}>
        {timeframes.map((tf) => (
          <button key={tf} type="button" className={bots.chip} aria-pressed={tf === timeframe} onClick={() => setTimeframe(tf)}>
            {tf}
          </button>
        ))}
      </fieldset>
      <fieldset className={bots.chips} aria-label={t`指标`}>
        {indicators.map(([k, label]) => (
          <button key={label} type="button" className={bots.chip} aria-pressed={k === indicator} onClick={() => setIndicator(k)} data-testid={`indicator-${label}`}>
            {label}
          </button>
        ))}
      </fieldset>
      {s?.history ? (
        <section className={ui.card}>
          <PriceChart
            candles={s.history}
            lines={[]}
            entries={[]}
            colors={chartColors}
            tick={s.tickSize}
            overlay={indicator === 'ma20' || indicator === 'ema20' ? values : undefined}
            panes={indicator === 'rsi14' && values ? [{ lines: [{ title: 'RSI14', values }], levels: RSI_LEVELS }] : NO_PANES}
          />
          {rsi !== undefined && rsi !== null ? (
            <p className={ui.muted} data-testid="rsi">
              RSI14: {num(rsi, l, 2)}
            </p>
          ) : null}
        </section>
      ) : null}
    </Page>
  );
}
