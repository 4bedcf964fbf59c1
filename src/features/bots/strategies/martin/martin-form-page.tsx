import { useMemo } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Field } from '../../../../components/ui/field.tsx';
import * as ui from '../../../../components/ui/ui.css.ts';
import { checkMartin, defaultMartinValues, levelTable, paramsFromValues, trailingNote, valuesFromParams, type MartinValues } from './martin-form.ts';
import { LevelTable } from '../../components/level-table.tsx';
import { AvailableHint } from '../../components/available-hint.tsx';
import { useBotTarget } from '../../use-bot-target.ts';
import { useBotForm } from '../../use-bot-form.ts';
import { useBotValues, useFieldBinder, useSubmitBot } from '../../use-bot-values.ts';
import { BotFormShell } from '../../components/bot-form-shell.tsx';
import { BacktestPanel } from '../../components/backtest-panel.tsx';
import * as css from '../../../../shared/blocks.css.ts';
import type { FormPageProps } from '../strategy-ui.ts';
import { TrailingNotes } from '../../components/trailing-notes.tsx';

type Editable = Exclude<keyof MartinValues, 'repeat' | 'trailingStop'>;

/** /strategy/martin/{id?}: create a martin bot, or edit a stopped or paused one; the engine's own checks run as the trader types. */
export function MartinFormPage({ id, exchange, copy }: FormPageProps<'martin'>) {
  const { t, i18n } = useLingui();
  const target = useBotTarget(id, exchange);
  const { market, exchangeId, symbol } = target;
  // A copy (a ranked bot, a clone, a pair's chart) fills the form at the start.
  const [values, setValues] = useBotValues('martin', target, copy, valuesFromParams, () => defaultMartinValues);

  const problems = useMemo(() => (market ? checkMartin(values, market) : {}), [values, market]);
  const table = useMemo(() => (market ? levelTable(values, market) : null), [values, market]);
  const backtestParams = useMemo(() => {
    const p = paramsFromValues(values);
    return { ...p, stopLoss: p.stopLoss ?? '' };
  }, [values]);
  const form = useBotForm<Editable>(problems);
  const bind = useFieldBinder(values, setValues, form);

  const saveBot = useSubmitBot('martin', id, target, form);
  const submit = saveBot(() => {
    const params = paramsFromValues(values);
    return { ...params, stopLoss: params.stopLoss ?? '' };
  });

  const trailing = trailingNote(values);
  const pct = t`百分比`;

  return (
    <BotFormShell title={id ? <Trans>编辑马丁格尔策略</Trans> : <Trans>创建马丁格尔策略</Trans>} target={target} id={id} copy={copy} form={form} onSubmit={submit}>
      <section className={ui.card}>
        <Field label={<Trans>投资金额（USDT）</Trans>} inputMode="decimal" {...bind('investment')} />
        <AvailableHint available={target.available} reserved={target.reserved} quote={target.quote} needed={table?.total ?? null} locale={i18n.locale} />
        <Field label={<Trans>首单金额（USDT）</Trans>} inputMode="decimal" {...bind('firstOrder')} />
        <div className={css.grid2}>
          <Field label={<Trans>补仓倍数</Trans>} inputMode="decimal" {...bind('multiplier')} />
          <Field label={<Trans>最大持仓数</Trans>} inputMode="numeric" {...bind('maxPositions')} />
          <Field label={<Trans>补仓跌幅 %</Trans>} title={pct} inputMode="decimal" {...bind('addTrigger')} />
          <Field label={<Trans>止盈 %</Trans>} title={pct} inputMode="decimal" {...bind('takeProfit')} />
        </div>
        <Field label={<Trans>止损 %（可选）</Trans>} title={pct} inputMode="decimal" placeholder={t`不设置`} {...bind('stopLoss')} />
        <Field label={<Trans>追踪止盈回调 %（可选）</Trans>} title={pct} inputMode="decimal" placeholder={t`不设置`} {...bind('trailingDeviation')} />
        <TrailingNotes note={trailing} deviation={values.trailingDeviation} />
        <label className={css.switchRow}>
          <span>
            <Trans>追踪止损（止损价跟随最高价上移）</Trans>
          </span>
          <input type="checkbox" name="trailingStop" className={css.checkbox} checked={values.trailingStop} onChange={(e) => setValues((v) => ({ ...v, trailingStop: e.target.checked }))} />
        </label>
        <label className={css.switchRow}>
          <span>
            <Trans>止盈后自动开始下一轮</Trans>
          </span>
          <input type="checkbox" name="repeat" className={css.checkbox} checked={values.repeat} onChange={(e) => setValues((v) => ({ ...v, repeat: e.target.checked }))} />
        </label>
      </section>
      <section className={ui.card} aria-label={t`资金计划`}>
        <h2 className={css.sectionTitle}>
          <Trans>每层所需资金（按最新价估算）</Trans>
        </h2>
        {table ? (
          <LevelTable rows={table.rows} total={table.total} investment={values.investment} tick={target.market?.tickSize} />
        ) : (
          <p className={ui.muted}>
            <Trans>填写有效参数后显示每层的价格和资金。</Trans>
          </p>
        )}
      </section>
      <BacktestPanel exchangeId={exchangeId} symbol={symbol} config={{ type: 'martin', params: backtestParams }} ready={market !== undefined && Object.keys(problems).length === 0} />
    </BotFormShell>
  );
}
