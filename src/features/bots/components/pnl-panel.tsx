import { useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { call, failed, keepPage } from '../../../shared/query.ts';
import { utcOffsetMinutes } from '../../../shared/time-zone.ts';
import * as ui from '../../../components/ui/ui.css.ts';
import { EquityChart } from './equity-chart.tsx';
import { Figure, Profit } from './figure.tsx';
import { Apr, Percent, Runtime } from './returns.tsx';
import * as css from '../../../shared/blocks.css.ts';
import * as styles from './bots.css.ts';
import { livePoll } from '../../../shared/live/state.ts';

const windows = ['7', '30', '90', '365'] as const;
type Window = (typeof windows)[number];

/** A bot's figures now, as its detail's header shows them: the panel shows these, not figures of another moment. */
export interface BotNow {
  realized: string;
  unrealized: string | null;
  total: string | null;
  roi: string | null;
  apr: string | null;
  runtime: number;
  /** When it first started (ISO), or null: the chart starts there. */
  startedAt: string | null;
}

const DAY_MS = 86_400_000;
/** The trader's day (YYYY-MM-DD) of a moment, as the bars are labelled. */
const localDay = (ms: number) => {
  const d = new Date(ms);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
};
/** The shortest window that holds a bot's whole life: a bot minutes old is not drawn over 30 empty days. */
const lifetimeWindow = (runtimeSeconds: number): Window => windows.find((w) => Number(w) * DAY_MS >= runtimeSeconds * 1000) ?? '365';

/**
 * PnL over time: of one bot (`id`) or of the trader's live or simulated bots (`mode`).
 * The line is each day's total PnL: the realised sum plus that day's floating PnL (a past day's from the
 * daily snapshots, realised only before there were any; today's now), so it ends at the total. Above it: realised (a grid's: grid profit), floating, total, ROI, APR and runtime.
 * A bot's panel (`now`: its detail's figures) shows the header's figures, the line ending at its total,
 * and its chart starts at the bot's first start, over the shortest window that holds its life.
 */
export function PnlPanel({ id, mode, grid = false, now }: { id?: string; mode?: 'live' | 'simulation' | undefined; grid?: boolean; now?: BotNow | undefined }) {
  const { t, i18n } = useLingui();
  const [chosen, setDays] = useState<Window | null>(null);
  const days = chosen ?? (now ? lifetimeWindow(now.runtime) : '30');
  const pnl = useQuery({
    ...call('userPnl', { ...(id ? { id } : {}), ...(mode ? { mode } : {}), days, tz: String(utcOffsetMinutes()) }, { show: false }),
    ...keepPage,
    refetchInterval: livePoll(15_000),
  });
  const fetched = pnl.data;
  // One figure, one value: a bot's figures are its header's (the same answer), not the PnL call's own moment.
  const p =
    fetched && now
      ? { ...fetched, realized: now.realized, unrealized: now.unrealized ?? fetched.unrealized, total: now.total ?? fetched.total, roi: now.roi, apr: now.apr, runtime: now.runtime }
      : fetched;
  const startDay = now?.startedAt ? localDay(Date.parse(now.startedAt)) : null;
  const points = useMemo(() => {
    if (!p) return [];
    const all = p.points.map((x) => ({ day: x.day, time: Date.parse(`${x.day}T00:00:00Z`), value: Number(x.total) }));
    const lived = startDay === null ? all : all.filter((x) => x.day >= startDay);
    const last = lived[lived.length - 1];
    if (last && now?.total) last.value = Number(now.total);
    return lived;
  }, [p, startDay, now?.total]);
  return (
    <section className={ui.card} aria-label={t`收益曲线`} data-testid="pnl-panel">
      <h2 className={css.sectionTitle}>{id ? <Trans>收益曲线</Trans> : <Trans>账户收益</Trans>}</h2>
      {failed(pnl) ? (
        <p role="alert" className={css.errorLine}>
          <Trans>收益加载失败。</Trans>
        </p>
      ) : null}
      {p ? (
        <>
          <div className={styles.figuresSpaced}>
            <Figure label={grid ? <Trans>网格利润 (USDT)</Trans> : <Trans>已实现 (USDT)</Trans>}>
              <Profit value={p.realized} />
            </Figure>
            <Figure label={<Trans>浮动盈亏 (USDT)</Trans>}>
              <Profit value={p.unrealized} />
            </Figure>
            <Figure label={<Trans>总收益 (USDT)</Trans>} testId="pnl-total">
              <Profit value={p.total} />
            </Figure>
            <Figure label={<Trans>收益率</Trans>} testId="pnl-roi">
              <Percent value={p.roi} />
            </Figure>
            <Figure label={<Trans>年化收益率</Trans>} testId="pnl-apr">
              <Apr apr={p.apr} runtime={p.runtime} />
            </Figure>
            <Figure label={<Trans>运行时长</Trans>}>
              <Runtime seconds={p.runtime} />
            </Figure>
          </div>
          {p.unpriced > 0 ? (
            <p className={css.mutedTight.top}>
              <Plural value={p.unpriced} one="# 个策略暂时读不到价格，浮动盈亏未计入。" other="# 个策略暂时读不到价格，浮动盈亏未计入。" />
            </p>
          ) : null}
          <EquityChart points={points} investment={0} label={t`近 ${p.days} 天累计收益 (USDT)`} locale={i18n.locale} />
        </>
      ) : (
        <div className={styles.equityChart} aria-busy="true" />
      )}
      <fieldset className={css.chips} aria-label={t`时间范围`}>
        {windows.map((w) => (
          <button key={w} type="button" className={css.chip} aria-pressed={w === days} onClick={() => setDays(w)}>{t`${w} 天`}</button>
        ))}
      </fieldset>
    </section>
  );
}
