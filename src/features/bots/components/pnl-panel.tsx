import { useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Trans, useLingui } from '@lingui/react/macro';
import { call, failed, keepPage } from '../../../shared/query.ts';
import * as ui from '../../../components/ui/ui.css.ts';
import { EquityChart } from './equity-chart.tsx';
import { Figure, Profit } from './figure.tsx';
import { Apr, Percent, Runtime } from './returns.tsx';
import * as css from '../../../shared/blocks.css.ts';
import * as styles from './bots.css.ts';

const windows = ['7', '30', '90', '365'] as const;
type Window = (typeof windows)[number];

/**
 * PnL over time: of one bot (`id`) or of the trader's live or simulated bots (`mode`).
 * The line is each day's total PnL: the realised sum plus that day's floating PnL (a past day's from the
 * daily snapshots, realised only before there were any; today's now), so it ends at the total. Above it: realised (a grid's: grid profit), floating, total, ROI, APR and runtime.
 */
export function PnlPanel({ id, mode, grid = false }: { id?: string; mode?: 'live' | 'simulation' | undefined; grid?: boolean }) {
  const { t, i18n } = useLingui();
  const [days, setDays] = useState<Window>('30');
  const pnl = useQuery({ ...call('userPnl', { ...(id ? { id } : {}), ...(mode ? { mode } : {}), days }, { show: false }), ...keepPage, refetchInterval: 15_000 });
  const p = pnl.data;
  const points = useMemo(() => {
    if (!p) return [];
    return p.points.map((x) => ({ time: Date.parse(`${x.day}T00:00:00Z`), value: Number(x.total) }));
  }, [p]);
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
              <Profit value={p.realized} max={2} />
            </Figure>
            <Figure label={<Trans>浮动盈亏 (USDT)</Trans>}>
              <Profit value={p.unrealized} max={2} />
            </Figure>
            <Figure label={<Trans>总收益 (USDT)</Trans>} testId="pnl-total">
              <Profit value={p.total} max={2} />
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
              <Trans>{p.unpriced} 个策略暂时读不到价格，浮动盈亏未计入。</Trans>
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
