import { useEffect, useRef } from 'react';
import { useLingui } from '@lingui/react/macro';
import type { CandleData } from '../../contract/market.ts';
import * as css from './blocks.css.ts';
import { price as formatPrice } from './format.ts';
import { formatDecimal } from './decimal-display.ts';
import type { AutoscaleInfo } from 'lightweight-charts';

export interface ChartLine {
  price: string;
  title: string;
  /** trailing: an armed trailing take profit's sale line, which follows the high. */
  kind: 'average' | 'takeProfit' | 'nextAdd' | 'stopLoss' | 'trailing';
}
/** A line of values, one per candle (null: none there), drawn over the candles or in a pane under them. */
export interface ChartSeries {
  title: string;
  values: (number | null)[];
}
/** A pane under the prices (an oscillator: RSI, MACD): its lines and the levels its rules compare it with. */
export interface ChartPane {
  lines: ChartSeries[];
  levels: { value: number; title: string }[];
}
/** A pane's height under the 240 px of prices. */
const PANE_HEIGHT = 96;
export interface ChartEntry {
  at: string;
  price: string;
  side: 'buy' | 'sell';
}

const NO_SERIES: ChartSeries[] = [];
const NO_PANES: ChartPane[] = [];
interface ChartData {
  candles: CandleData[];
  lines: ChartLine[];
  entries: ChartEntry[];
  overlay?: (number | null)[] | undefined;
  overlays: ChartSeries[];
  panes: ChartPane[];
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
  overlays = NO_SERIES,
  panes = NO_PANES,
  tick,
}: {
  candles: CandleData[];
  lines: ChartLine[];
  entries: ChartEntry[];
  colors: Record<'text' | 'border' | 'up' | 'down' | 'primary' | 'warning', string>;
  overlay?: (number | null)[] | undefined;
  /** More lines over the candles (a bot's moving averages, Bollinger bands), titled. */
  overlays?: ChartSeries[];
  /** Panes under the candles, one per oscillator, on the same time axis. */
  panes?: ChartPane[];
  /** The pair's price tick: the price axis and its labels at it, with thousands separators, as the figures beside the chart. */
  tick?: string | undefined;
}) {
  const { i18n, t } = useLingui();
  const locale = i18n.locale;
  const box = useRef<HTMLDivElement>(null);
  const chartRef = useRef<{ remove: () => void; update: (d: ChartData) => void } | null>(null);
  // The data last rendered: a chart built after its library has loaded starts from it.
  const latest = useRef<ChartData>({ candles, lines, entries, overlay, overlays, panes });
  // The series and panes the chart is built with (their number and titles): another shape builds it again.
  const shape = JSON.stringify([overlays.map((o) => o.title), panes.map((p) => [p.lines.map((l) => l.title), p.levels])]);

  // The chart is built once (again only for other colours, another language or another shape of series and panes; callers pass constant colours); new data goes through `update` below.
  // biome-ignore lint/correctness/useExhaustiveDependencies: `shape` names the series and panes to build, whose data the builder reads from `latest`
  useEffect(() => {
    let cancelled = false;
    void import('lightweight-charts').then((lc) => {
      if (cancelled || !box.current) return;
      const c = Object.fromEntries(Object.entries(colors).map(([k, v]) => [k, resolveColor(v, '#888')])) as typeof colors;
      const chart = lc.createChart(box.current, {
        autoSize: true,
        // Dates on the time axis in the app's language, not the browser's.
        localization: { locale: locale === 'zh' ? 'zh-CN' : 'en-US' },
        layout: { background: { type: lc.ColorType.Solid, color: 'transparent' }, textColor: c.text, attributionLogo: false, fontSize: 11, panes: { separatorColor: c.border, enableResize: false } },
        grid: { vertLines: { color: c.border }, horzLines: { color: c.border } },
        rightPriceScale: { borderColor: c.border },
        timeScale: { borderColor: c.border, timeVisible: true, secondsVisible: false },
        handleScroll: false,
        handleScale: false,
      });
      // Prices as every figure of the app shows them ("68,125.90" at a tick of 0.01), on the axis too.
      const priceFormat = { type: 'custom' as const, formatter: (p: number) => formatPrice(p, locale, tick), minMove: Number(tick ?? 0.01) || 0.01 };
      const series = chart.addSeries(lc.CandlestickSeries, { upColor: c.up, downColor: c.down, borderVisible: false, wickUpColor: c.up, wickDownColor: c.down, priceFormat });
      const markers = lc.createSeriesMarkers(series, []);
      // An indicator over the candles (moving averages), drawn on the price scale.
      const line = chart.addSeries(lc.LineSeries, { color: c.warning, lineWidth: 2, priceLineVisible: false, lastValueVisible: false });
      const palette = [c.warning, c.primary, c.text, c.up, c.down];
      const { overlays: overlaid, panes: below } = latest.current;
      const overlaySeries = overlaid.map((o, i) =>
        chart.addSeries(lc.LineSeries, { color: palette[i % palette.length], lineWidth: 2, priceLineVisible: false, lastValueVisible: false, title: o.title, priceFormat }),
      );
      // An oscillator's values at 2 decimals, whatever the pair's tick; its scale holds its rules' levels too (RSI's 30 and 70 stay in sight).
      const oscillatorFormat = { type: 'custom' as const, formatter: (v: number) => formatDecimal(v, { min: 2, max: 2, signed: false, down: false }), minMove: 0.01 };
      // Each pane's lines (pane 1, 2, ... under the prices), its rules' levels as dashed lines across it.
      const paneSeries = below.map((p, i) =>
        p.lines.map((l, j) => {
          const levels = p.levels.map((level) => level.value);
          const series = chart.addSeries(
            lc.LineSeries,
            {
              color: palette[j % palette.length],
              lineWidth: 2,
              priceLineVisible: false,
              lastValueVisible: true,
              title: l.title,
              priceFormat: oscillatorFormat,
              autoscaleInfoProvider: (original: () => AutoscaleInfo | null) => {
                const r = original();
                if (!r?.priceRange || levels.length === 0) return r;
                return { ...r, priceRange: { minValue: Math.min(r.priceRange.minValue, ...levels), maxValue: Math.max(r.priceRange.maxValue, ...levels) } };
              },
            },
            i + 1,
          );
          if (j === 0)
            for (const level of p.levels) series.createPriceLine({ price: level.value, color: c.text, lineWidth: 1, lineStyle: lc.LineStyle.Dashed, axisLabelVisible: true, title: level.title });
          return series;
        }),
      );
      // The prices keep their 240 px, each pane its own height (the box grows by them).
      for (const [i, pane] of chart.panes().entries()) pane.setStretchFactor(i === 0 ? 240 : PANE_HEIGHT);
      const valuesOf = (cs: CandleData[], values: (number | null)[]) => cs.flatMap((k, i) => (values[i] == null ? [] : [{ time: (k.time / 1000) as never, value: values[i]! }]));
      let priceLines: ReturnType<typeof series.createPriceLine>[] = [];
      const lineColor = { average: c.primary, takeProfit: c.up, nextAdd: c.warning, stopLoss: c.down, trailing: c.up } as const;
      const update = ({ candles: cs, lines: ls, entries: es, overlay: o, overlays: os, panes: ps }: ChartData) => {
        series.setData(cs.map((k) => ({ time: (k.time / 1000) as never, open: Number(k.open), high: Number(k.high), low: Number(k.low), close: Number(k.close) })));
        line.setData(o ? valuesOf(cs, o) : []);
        for (const [i, s] of overlaySeries.entries()) s.setData(os[i] ? valuesOf(cs, os[i].values) : []);
        for (const [i, p] of paneSeries.entries()) for (const [j, s] of p.entries()) s.setData(ps[i]?.lines[j] ? valuesOf(cs, ps[i].lines[j].values) : []);
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
      update(latest.current);
      chart.timeScale().fitContent();
    });
    return () => {
      cancelled = true;
      chartRef.current?.remove();
      chartRef.current = null;
    };
  }, [colors, locale, tick, shape]);

  useEffect(() => {
    latest.current = { candles, lines, entries, overlay, overlays, panes };
    chartRef.current?.update(latest.current);
  }, [candles, lines, entries, overlay, overlays, panes]);

  // data-last-close: where the chart ends, to check it against the price shown beside it.
  return (
    <div
      ref={box}
      className={css.chart}
      style={panes.length > 0 ? { height: 240 + PANE_HEIGHT * panes.length } : undefined}
      data-testid="price-chart"
      data-last-close={candles.at(-1)?.close}
      data-panes={panes.length}
      role="img"
      aria-label={t`价格走势图`}
    />
  );
}
