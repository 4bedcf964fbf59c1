import { useEffect, useRef } from 'react';
import { vars } from '../../../styles/theme.css.ts';
import { resolveColor } from '../../../shared/price-chart.tsx';
import * as styles from './bots.css.ts';
import { axisPrice } from '../axis-price.ts';

/** A backtest's equity over time, with the investment as a dashed line; lightweight-charts loads with it. */
export function EquityChart({ points, investment, label, locale }: { points: { time: number; value: number }[]; investment: number; label: string; locale: string }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    let chart: { remove: () => void } | null = null;
    let cancelled = false;
    void import('lightweight-charts').then((lc) => {
      if (cancelled || !box.current) return;
      const color = (v: string) => resolveColor(v, '#888');
      const created = lc.createChart(box.current, {
        autoSize: true,
        localization: { locale: locale === 'zh' ? 'zh-CN' : 'en-US', priceFormatter: axisPrice },
        layout: { background: { type: lc.ColorType.Solid, color: 'transparent' }, textColor: color(vars.color.textMuted), attributionLogo: false, fontSize: 11 },
        grid: { vertLines: { visible: false }, horzLines: { color: color(vars.color.border) } },
        rightPriceScale: { borderColor: color(vars.color.border) },
        timeScale: { borderColor: color(vars.color.border), timeVisible: true, secondsVisible: false },
        handleScroll: false,
        handleScale: false,
      });
      const primary = color(vars.color.primary);
      const series = created.addSeries(lc.AreaSeries, { lineColor: primary, topColor: `${primary}55`, bottomColor: `${primary}05`, lineWidth: 2, priceLineVisible: false });
      // One point per second at most: the chart needs strictly increasing times.
      const seen = new Set<number>();
      series.setData(points.filter((p) => !seen.has(Math.floor(p.time / 1000)) && seen.add(Math.floor(p.time / 1000))).map((p) => ({ time: Math.floor(p.time / 1000) as never, value: p.value })));
      series.createPriceLine({ price: investment, color: color(vars.color.textMuted), lineWidth: 1, lineStyle: lc.LineStyle.Dashed, axisLabelVisible: false, title: '' });
      created.timeScale().fitContent();
      chart = created;
    });
    return () => {
      cancelled = true;
      chart?.remove();
    };
  }, [points, investment, locale]);
  return <div ref={box} className={styles.equityChart} data-testid="equity-chart" role="img" aria-label={label} />;
}
