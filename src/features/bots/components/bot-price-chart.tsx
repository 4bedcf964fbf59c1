import { useMemo } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import type { CandleData } from '../../../../contract/market.ts';
import type { BotDetail } from '../../../../contract/bots.ts';
import { PriceChart, type ChartEntry, type ChartLine, type ChartPane, type ChartSeries } from '../../../shared/price-chart.tsx';
import * as ui from '../../../components/ui/ui.css.ts';
import * as css from '../../../shared/blocks.css.ts';
import { vars } from '../../../styles/theme.css.ts';
import { partWords } from '../rule-words.ts';
import { useIndicatorPlots } from '../use-indicator-plots.ts';
import type { IndicatorPlot, Threshold } from '../indicator-plots.ts';
import type { IndicatorPart } from '../../../../strategy/custom/explain.ts';
import * as styles from './bots.css.ts';

const chartColors = { text: vars.color.textMuted, border: vars.color.border, up: vars.color.up, down: vars.color.down, primary: vars.color.primary, warning: vars.color.warning };

/**
 * A bot's pair by the minute with its entries and target lines; a custom bot's indicators with it: the
 * moving averages and Bollinger bands its rules read over the candles, each oscillator (RSI, MACD,
 * change) in a pane of its own with the levels its rules compare it with, and a legend saying which is
 * which and which still lacks candles.
 */
export function BotPriceChart({
  bot,
  history,
  failed,
  lines,
  entries,
  tick,
}: {
  bot: Pick<BotDetail, 'type' | 'params' | 'exchange' | 'symbol'>;
  history: CandleData[] | undefined;
  failed: boolean;
  lines: ChartLine[];
  entries: ChartEntry[];
  tick: string | undefined;
}) {
  const { t, i18n } = useLingui();
  const lang = i18n.locale === 'en' ? 'en' : 'zh';
  const plots = useIndicatorPlots(bot, history);
  const shown = useMemo(() => plots.filter((p) => p.had >= p.needs), [plots]);
  const ruleWord = useMemo(() => ({ entry: t`买入`, exit: t`卖出` }), [t]);
  const overlays = useMemo<ChartSeries[]>(() => shown.filter((p) => !p.pane).flatMap((p) => p.lines.map((l) => ({ title: shortWords(l.part, lang), values: l.values }))), [shown, lang]);
  const panes = useMemo<ChartPane[]>(
    () =>
      shown
        .filter((p) => p.pane)
        .map((p) => ({
          lines: p.lines.map((l) => ({ title: shortWords(l.part, lang), values: l.values })),
          levels: p.thresholds.map((th) => ({ value: th.value, title: ruleWord[th.rule] })),
        })),
    [shown, lang, ruleWord],
  );
  const levelText = (th: Threshold) => `${ruleWord[th.rule]} ${partWords(th.op, lang)} ${th.value}`;
  return (
    <section className={ui.card} aria-label={t`价格走势`}>
      <h2 className={css.sectionTitle}>
        <Trans>价格走势（1 分钟）</Trans>
      </h2>
      {history ? (
        <PriceChart candles={history} lines={lines} entries={entries} colors={chartColors} tick={tick} overlays={overlays} panes={panes} />
      ) : failed ? (
        <p className={ui.muted}>
          <Trans>行情加载失败。</Trans>
        </p>
      ) : (
        <div className={css.chart} aria-busy="true" />
      )}
      {plots.length > 0 ? (
        <ul className={styles.indicatorLegend} data-testid="indicator-legend" aria-label={t`策略指标`}>
          {plots.map((p) => (
            <li key={p.key} data-indicator={p.key}>
              <strong>{p.lines.map((l) => partWords(l.part, lang)).join(' · ')}</strong>
              {p.thresholds.length > 0 ? ` · ${p.thresholds.map(levelText).join(' · ')}` : ''}
              {' · '}
              <PlotPlace plot={p} />
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}

/** A line's name on the chart, short beside its value ("RSI(14)", "MACD 信号线"): the legend below has its settings. */
function shortWords(part: IndicatorPart, lang: 'zh' | 'en'): string {
  const full = partWords(part, lang);
  return part.indicator === 'bb' || part.indicator === 'macd' ? full.replace(/\(.*\)$/, '') : full.replace(/, [^,)]+\)$/, ')');
}

/** Where a plot is drawn, or why not yet. */
function PlotPlace({ plot }: { plot: IndicatorPlot }) {
  const needs = plot.needs;
  const had = plot.had;
  const timeframe = plot.timeframe;
  if (had < needs)
    return (
      <span className={ui.muted}>
        <Trans>
          需要 {needs} 根 {timeframe} K 线，图上只有 {had} 根，暂不绘制
        </Trans>
      </span>
    );
  return <span className={ui.muted}>{plot.pane ? <Trans>见下方副图</Trans> : <Trans>叠加在价格上</Trans>}</span>;
}
