import { useMemo } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Field } from '../../../../components/ui/field.tsx';
import * as ui from '../../../../components/ui/ui.css.ts';
import * as css from '../../../../shared/blocks.css.ts';
import { AvailableHint } from '../../components/available-hint.tsx';
import { BacktestPanel } from '../../components/backtest-panel.tsx';
import { BotFormShell } from '../../components/bot-form-shell.tsx';
import { Figure } from '../../components/figure.tsx';
import { amount, price } from '../../../../shared/format.ts';
import { useBotForm } from '../../use-bot-form.ts';
import { useBotValues, useFieldBinder, useSubmitBot } from '../../use-bot-values.ts';
import { useBotTarget } from '../../use-bot-target.ts';
import type { FormPageProps } from '../strategy-ui.ts';
import { checkDip, defaultDipValues, dipParamsFromValues, dipPreview, dipValuesFromParams, type DipField } from './dip-form.ts';

/** /strategy/dip/{id?}: create a buy-the-dip bot, or edit a stopped or paused one; the strategy's own checks and plan as the trader types. */
export function DipFormPage({ id, exchange, copy }: FormPageProps<'dip'>) {
  const { t, i18n } = useLingui();
  const target = useBotTarget(id, exchange);
  const { market, exchangeId, symbol } = target;
  const [values, setValues] = useBotValues('dip', target, copy, dipValuesFromParams, () => defaultDipValues);

  const problems = useMemo(() => (market ? checkDip(values, market) : {}), [values, market]);
  const preview = useMemo(() => (market ? dipPreview(values, market) : null), [values, market]);
  const form = useBotForm<DipField>(problems);
  const bind = useFieldBinder(values, setValues, form);
  const params = dipParamsFromValues(values);

  const saveBot = useSubmitBot('dip', id, target, form);
  const submit = saveBot(() => params);

  const pct = t`百分比`;
  return (
    <BotFormShell title={id ? <Trans>编辑抄底策略</Trans> : <Trans>创建抄底策略</Trans>} target={target} id={id} copy={copy} form={form} onSubmit={submit}>
      <section className={ui.card}>
        <Field label={<Trans>买入金额（USDT）</Trans>} inputMode="decimal" {...bind('investment')} />
        <AvailableHint available={target.available} reserved={target.reserved} quote={target.quote} needed={preview ? values.investment : null} locale={i18n.locale} />
        <div className={css.grid2}>
          <Field label={<Trans>下跌幅度 %</Trans>} title={pct} inputMode="decimal" {...bind('dip')} />
          <Field label={<Trans>止盈 %</Trans>} title={pct} inputMode="decimal" {...bind('takeProfit')} />
        </div>
      </section>
      <section className={ui.card} aria-label={t`买入计划`}>
        <h2 className={css.sectionTitle}>
          <Trans>买入计划（按最新价估算）</Trans>
        </h2>
        {preview ? (
          <div className={css.figures}>
            <Figure label={<Trans>买入价</Trans>} kind="price" testId="dip-line">
              {price(preview.line, i18n.locale, target.market?.tickSize)}
            </Figure>
            <Figure label={<Trans>买入数量</Trans>} kind="amount" testId="dip-amount">
              {amount(preview.amount, i18n.locale, target.market?.stepSize)}
            </Figure>
            <Figure label={<Trans>止盈价</Trans>} kind="price" testId="dip-take-profit">
              {price(preview.takeProfit, i18n.locale, target.market?.tickSize)}
            </Figure>
          </div>
        ) : (
          <p className={ui.muted}>
            <Trans>填写有效参数后显示买入价和止盈价。</Trans>
          </p>
        )}
      </section>
      <BacktestPanel exchangeId={exchangeId} symbol={symbol} config={{ type: 'dip', params }} ready={preview !== null} />
    </BotFormShell>
  );
}
