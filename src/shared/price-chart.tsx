import { useEffect, useRef } from 'react';
import { useLingui } from '@lingui/react/macro';
import type { CandleData } from '../../contract/schemas.ts';
import * as css from './blocks.css.ts';
import { price as formatPrice } from './format.ts';

export interface ChartLine {
  price: string;
  title: string;
  /** trailing: an armed trailing take profit's sale line, which follows the high. */
  kind: 'average' | 'takeProfit' | 'nextAdd' | 'stopLoss' | 'trailing';
}
export interface ChartEntry {
  at: string;
  price: string;
  side: 'buy' | 'sell';
}

/** The colour behind a theme variable ("var(--x)"), as the canvas needs a concrete colour. */
export function resolveColor(variable: string, fallback: string): string {
  const name = /var\((--[^),]+)/.exec(variable)?.[1];
  const value = name ? getComputedStyle(document.documentElement).getPropertyValue(name).trim() : '';
  return value || fallback;
}

/**
 * The pair's candles with the bot's entries as markers and its average, take-profit, next-add and
 * stop-loss prices as lines. lightweight-charts loads with this component only (its own chunk).
 */
export function PriceChart({
  candles,
  lines,
  entries,
  colors,
  overlay,
  tick,
}: {
  candles: CandleData[];
  lines: ChartLine[];
  entries: ChartEntry[];
  colors: Record<'text' | 'border' | 'up' | 'down' | 'primary' | 'warning', string>;
  overlay?: (number | null)[] | undefined;
  /** The pair's price tick: the price axis and its labels at it, with thousands separators, as the figures beside the chart. */
  tick?: string | undefined;
}) {
  const { i18n, t } = useLingui();
  const locale = i18n.locale;
  const box = useRef<HTMLDivElement>(null);
  const chartRef = useRef<{ remove: () => void; update: (c: CandleData[], l: ChartLine[], e: ChartEntry[], o?: (number | null)[]) => void } | null>(null);
  // The data last rendered: a chart built after its library has loaded starts from it.
  const latest = useRef({ candles, lines, entries, overlay });

  // The chart is built once (again only for other colours or another language; callers pass constant colours); new data goes through `update` below.
  useEffect(() => {
    let cancelled = false;
    void import('lightweight-charts').then((lc) => {
      if (cancelled || !box.current) return;
      const c = Object.fromEntries(Object.entries(colors).map(([k, v]) => [k, resolveColor(v, '#888')])) as typeof colors;
      const chart = lc.createChart(box.current, {
        autoSize: true,
        // Dates on the time axis in the app's language, not the browser's; prices as every figure of the app shows them ("68,125.90").
        localization: { locale: locale === 'zh' ? 'zh-CN' : 'en-US', priceFormatter: (p: number) => formatPrice(p, locale, tick) },
        layout: { background: { type: lc.ColorType.Solid, color: 'transparent' }, textColor: c.text, attributionLogo: false, fontSize: 11 },
        grid: { vertLines: { color: c.border }, horzLines: { color: c.border } },
        rightPriceScale: { borderColor: c.border },
        timeScale: { borderColor: c.border, timeVisible: true, secondsVisible: false },
        handleScroll: false,
        handleScale: false,
      });
      const series = chart.addSeries(lc.CandlestickSeries, { upColor: c.up, downColor: c.down, borderVisible: false, wickUpColor: c.up, wickDownColor: c.down });
      const markers = lc.createSeriesMarkers(series, []);
      // An indicator over the candles (moving averages), drawn on the price scale.
      const line = chart.addSeries(lc.LineSeries, { color: c.warning, lineWidth: 2, priceLineVisible: false, lastValueVisible: false });
      let priceLines: ReturnType<typeof series.createPriceLine>[] = [];
      const lineColor = { average: c.primary, takeProfit: c.up, nextAdd: c.warning, stopLoss: c.down, trailing: c.up } as const;
      const update = (cs: CandleData[], ls: ChartLine[], es: ChartEntry[], o?: (number | null)[]) => {
        series.setData(cs.map((k) => ({ time: (k.time / 1000) as never, open: Number(k.open), high: Number(k.high), low: Number(k.low), close: Number(k.close) })));
        line.setData(o ? cs.flatMap((k, i) => (o[i] == null ? [] : [{ time: (k.time / 1000) as never, value: o[i]! }])) : []);
        for (const p of priceLines) series.removePriceLine(p);
        // The trailing line is solid and thicker: it moves with the high.
        priceLines = ls.map((l) =>
          series.createPriceLine({
            price: Number(l.price),
            color: lineColor[l.kind],
            lineWidth: l.kind === 'trailing' ? 2 : 1,
            lineStyle: l.kind === 'trailing' ? lc.LineStyle.Solid : lc.LineStyle.Dashed,
            axisLabelVisible: true,
            title: l.title,
          }),
        );
        const first = cs[0]?.time ?? 0;
        const step = cs.length > 1 ? cs[1]!.time - cs[0]!.time : 60_000;
        markers.setMarkers(
          es
            .map((e) => ({ t: Date.parse(e.at), e }))
            .filter(({ t }) => t >= first)
            .map(({ t, e }) => ({
              time: ((Math.floor((t - first) / step) * step + first) / 1000) as never,
              position: e.side === 'buy' ? ('belowBar' as const) : ('aboveBar' as const),
              shape: e.side === 'buy' ? ('arrowUp' as const) : ('arrowDown' as const),
              color: e.side === 'buy' ? c.up : c.down,
              text: e.price,
            }))
            .sort((a, b) => (a.time as number) - (b.time as number)),
        );
      };
      chartRef.current = { remove: () => chart.remove(), update };
      update(latest.current.candles, latest.current.lines, latest.current.entries, latest.current.overlay);
      chart.timeScale().fitContent();
    });
    return () => {
      cancelled = true;
      chartRef.current?.remove();
      chartRef.current = null;
    };
  }, [colors, locale, tick]);

  useEffect(() => {
    latest.current = { candles, lines, entries, overlay };
    chartRef.current?.update(candles, lines, entries, overlay);
  }, [candles, lines, entries, overlay]);

  // data-last-close: where the chart ends, to check it against the price shown beside it.
  return <div ref={box} className={css.chart} data-testid="price-chart" data-last-close={candles.at(-1)?.close} role="img" aria-label={t`价格走势图`} />;
}
