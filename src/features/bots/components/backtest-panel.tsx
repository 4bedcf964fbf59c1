import { useState, type ReactNode } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import type { PerType } from '../../../../contract/bots.ts';
import type { BacktestAnswer } from '../../../../contract/strategy.ts';
import { api } from '../../../lib/api.ts';
import { errorText } from '../../../lib/http.ts';
import * as ui from '../../../components/ui/ui.css.ts';
import { pct, percent, price, profit, signed, trend, usdt } from '../../../shared/format.ts';
import { EquityChart } from './equity-chart.tsx';
import { defaultSlippage, type Slippage, slippagePercent, slippages } from '../slippage.ts';
import * as css from '../../../shared/blocks.css.ts';
import * as styles from './bots.css.ts';
import { RestingFillNote } from './resting-fill-note.tsx';

const windows = [7, 30, 90] as const;

/**
 * The backtest on the create screen: the configuration as it stands, replayed by the
 * server through the engine's strategy on the last 7, 30 or 90 days, before anything is saved. A result
 * belongs to the inputs it was run with: changing them clears it.
 */
export type BacktestConfig = PerType<object>;

export function BacktestPanel({ exchangeId, symbol, config, ready }: { exchangeId: number | null; symbol: string; config: BacktestConfig; ready: boolean }) {
  const { t, i18n } = useLingui();
  const l = i18n.locale;
  const [days, setDays] = useState<(typeof windows)[number]>(30);
  const [slip, setSlip] = useState<Slippage>(defaultSlippage);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<BacktestAnswer | null>(null);
  const [failure, setFailure] = useState('');
  const key = JSON.stringify([exchangeId, symbol, config, days, slip]);
  const [shownKey, setShownKey] = useState(key);
  if (key !== shownKey) {
    setShownKey(key);
    setResult(null);
    setFailure('');
  }

  const run = async () => {
    if (exchangeId === null || !ready) return;
    setBusy(true);
    setFailure('');
    try {
      setResult(await api.strategyBacktest({ ...config, exchangeId, symbol, days, slippage: slip }, { show: false }));
    } catch (e) {
      setFailure(errorText(e));
    } finally {
      setBusy(false);
    }
  };

  // The fill model the server used: at the trigger (a stop at the open on a gap; on Paper, the second that reached it), with this slippage.
  const slippage = result ? slippagePercent(result.fill.slippage, l) : '';

  return (
    <section className={ui.card} aria-labelledby="backtest-title" data-testid="backtest">
      <h2 id="backtest-title" className={css.sectionTitle}>
        <Trans>回测</Trans>
      </h2>
      <fieldset className={css.chips} aria-label={t`回测区间`}>
        {windows.map((d) => (
          <button key={d} type="button" className={css.chip} aria-pressed={d === days} onClick={() => setDays(d)}>
            <Trans>{d} 天</Trans>
          </button>
        ))}
      </fieldset>
      <div className={styles.riskLabel} aria-hidden="true">
        <Trans>滑点</Trans>
      </div>
      <fieldset className={css.chips} aria-label={t`滑点`} data-testid="bt-slippage">
        {slippages.map((s) => (
          <button key={s} type="button" className={css.chip} aria-pressed={s === slip} onClick={() => setSlip(s)}>
            {slippagePercent(s, l)}%
          </button>
        ))}
      </fieldset>
      <button type="button" className={ui.button.secondary} disabled={!ready || busy || exchangeId === null} onClick={() => void run()} data-testid="run-backtest">
        {busy ? <Trans>回测中…</Trans> : <Trans>用当前参数回测</Trans>}
      </button>
      {busy ? <progress className={styles.progress} aria-label={t`回测进度`} /> : null}
      {!ready ? (
        <p className={ui.muted}>
          <Trans>参数有效后即可回测。</Trans>
        </p>
      ) : null}
      {failure ? (
        <div role="alert" className={ui.formError}>
          {failure}
        </div>
      ) : null}
      {result ? (
        <div data-testid="backtest-result" className={styles.backtestResult}>
          <div className={css.figures}>
            <Figure
              label={<Trans>已实现收益</Trans>}
              value={
                <span className={css.profit[trend(result.realized)]} data-figure="quote">
                  {profit(result.realized, l)}
                </span>
              }
              testId="bt-realized"
            />
            <Figure
              label={<Trans>总收益率</Trans>}
              value={
                <span className={css.profit[trend(result.returnPct)]} data-figure="percent">
                  {pct(result.returnPct, l)}
                </span>
              }
              testId="bt-return"
            />
            <Figure label={<Trans>最大回撤</Trans>} value={<span data-figure="percent">{percent(result.maxDrawdownPct, l)}</span>} testId="bt-drawdown" />
            <Figure label={<Trans>完成轮次</Trans>} value={result.cycles} testId="bt-cycles" />
            <Figure label={<Trans>成交次数</Trans>} value={result.fills} />
            <Figure label={<Trans>手续费</Trans>} value={<span data-figure="quote">{usdt(result.fees, l)}</span>} />
          </div>
          <EquityChart points={result.equity} investment={Number(result.investment)} label={t`资金曲线`} locale={l} />
          <p className={css.mutedTight.bottom}>
            <Trans>
              {result.days} 天、{result.candles} 根 {result.timeframe} K 线，同期价格 {signed(result.priceChangePct, l, 2)}%。
            </Trans>{' '}
            {result.open ? (
              <>
                <Trans>
                  结束时仍持仓 {result.open.amount}，均价 {price(result.open.average, l)}。
                </Trans>{' '}
              </>
            ) : null}
            <Trans>回测按历史价格回放，不代表未来收益。</Trans>{' '}
            <span data-testid="bt-fill">
              {result.fill.seconds ? (
                <Trans>按模拟盘逐秒行情回放：挂单在触发价成交，止损按触及那一秒的价格，滑点 {slippage}%。</Trans>
              ) : (
                <Trans>成交价：触发价（跳空时止损按开盘价），滑点 {slippage}%。</Trans>
              )}
              <RestingFillNote resting={result.fill.resting} />
            </span>
          </p>
        </div>
      ) : null}
    </section>
  );
}

function Figure({ label, value, testId }: { label: ReactNode; value: ReactNode; testId?: string }) {
  return (
    <div className={css.figure}>
      <div className={css.figureValue} data-testid={testId}>
        {value}
      </div>
      <div className={css.figureLabel}>{label}</div>
    </div>
  );
}
