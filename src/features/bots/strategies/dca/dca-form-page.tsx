import { useMemo, type ReactNode } from 'react';
import { utcOffsetMinutes } from '../../../../shared/time-zone.ts';
import { Trans, useLingui } from '@lingui/react/macro';
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Field } from '../../../../components/ui/field.tsx';
import * as ui from '../../../../components/ui/ui.css.ts';
import { checkDca, dcaParamsFromValues, dcaPreview, dcaValuesFromParams, defaultDcaValues, explainStart, type DcaValues } from './dca-form.ts';
import type { RuleValues } from '../custom/custom-form.ts';
import { RuleEditor, type FieldErrors } from '../custom/custom-rule.tsx';
import * as customCss from '../../components/custom-form.css.ts';
import { trailingNote } from '../../trailing-note.ts';
import { useBotTarget } from '../../use-bot-target.ts';
import { useBotForm } from '../../use-bot-form.ts';
import { useBotValues, useSubmitBot } from '../../use-bot-values.ts';
import { BotFormShell } from '../../components/bot-form-shell.tsx';
import { BacktestPanel } from '../../components/backtest-panel.tsx';
import { AvailableHint } from '../../components/available-hint.tsx';
import { DcaTable } from './dca-table.tsx';
import * as css from '../../../../shared/blocks.css.ts';
import type { FormPageProps } from '../strategy-ui.ts';
import { TrailingNotes } from '../../components/trailing-notes.tsx';

type Editable = Exclude<keyof DcaValues, 'start' | 'utcOffset' | 'weekday' | 'time' | 'trailingStop' | 'rule'>;

/** The trader's offset from UTC in minutes (a schedule's time is their own clock's). */

const startChoices: { value: DcaValues['start']; label: MessageDescriptor }[] = [
  { value: 'now', label: msg`立即开单` },
  { value: 'day', label: msg`每天定时` },
  { value: 'week', label: msg`每周定时` },
  { value: 'indicator', label: msg`指标条件` },
  { value: 'signal', label: msg`仅外部信号` },
];
const weekdays: MessageDescriptor[] = [msg`周一`, msg`周二`, msg`周三`, msg`周四`, msg`周五`, msg`周六`, msg`周日`];

/** /strategy/dca/{id?}: create a DCA bot, or edit a stopped or paused one; every safety order and the funds a deal needs show before the start. */
export function DcaFormPage({ id, exchange, copy }: FormPageProps<'dca'>) {
  const { t, i18n } = useLingui();
  const target = useBotTarget(id, exchange);
  const { market, exchangeId, symbol } = target;
  const [values, setValues] = useBotValues(
    'dca',
    target,
    copy,
    (p) => dcaValuesFromParams(p, utcOffsetMinutes()),
    () => defaultDcaValues(utcOffsetMinutes()),
  );

  const problems = useMemo(() => (market ? checkDca(values, market) : {}), [values, market]);
  const preview = useMemo(() => (market ? dcaPreview(values, market) : null), [values, market]);
  const params = useMemo(() => dcaParamsFromValues(values), [values]);
  const form = useBotForm<string>(problems);
  const { err, blur } = form;
  const errors: FieldErrors = { err, blur };
  const lang = i18n.locale === 'en' ? 'en' : 'zh';
  const explained = useMemo(() => explainStart(values, lang, Object.keys(problems)), [values, lang, problems]);
  const set = (field: keyof DcaValues) => (e: { target: { value: string } }) => setValues((v) => ({ ...v, [field]: e.target.value }));
  const setRule = (rule: RuleValues) => setValues((v) => ({ ...v, rule }));

  const saveBot = useSubmitBot('dca', id, target, form);
  const submit = saveBot(() => params);

  const pct = t`百分比`;
  // The worst trailing sale over the average, and the warning when it can be a loss (martin's note).
  const trailing = trailingNote(values);
  const decimal = (field: Editable, label: ReactNode, extra: { title?: string; placeholder?: string } = {}) => (
    <Field label={label} name={field} inputMode="decimal" value={values[field] as string} onChange={set(field)} onBlur={blur(field)} error={err(field)} {...extra} />
  );

  return (
    <BotFormShell title={id ? <Trans>编辑 DCA 策略</Trans> : <Trans>创建 DCA 策略</Trans>} target={target} id={id} copy={copy} form={form} onSubmit={submit}>
      <section className={ui.card}>
        {decimal('investment', <Trans>投资金额（USDT）</Trans>)}
        <AvailableHint available={target.available} reserved={target.reserved} quote={target.quote} needed={preview?.funds ?? null} locale={i18n.locale} />
        <div className={css.grid2}>
          {decimal('baseOrder', <Trans>底仓金额（USDT）</Trans>)}
          {decimal('safetyOrder', <Trans>安全单金额（USDT）</Trans>)}
          <Field
            label={<Trans>安全单数量</Trans>}
            name="maxSafetyOrders"
            inputMode="numeric"
            value={values.maxSafetyOrders}
            onChange={set('maxSafetyOrders')}
            onBlur={blur('maxSafetyOrders')}
            error={err('maxSafetyOrders')}
          />
          {decimal('deviation', <Trans>价格偏差 %</Trans>, { title: pct })}
          {decimal('stepScale', <Trans>偏差倍数</Trans>)}
          {decimal('volumeScale', <Trans>金额倍数</Trans>)}
          {decimal('takeProfit', <Trans>止盈 %</Trans>, { title: pct })}
          {decimal('stopLoss', <Trans>止损 %（可选）</Trans>, { title: pct, placeholder: t`不设置` })}
        </div>
        <label className={css.switchRow}>
          <span>
            <Trans>追踪止损（止损价跟随底仓后的最高价上移）</Trans>
          </span>
          <input type="checkbox" name="trailingStop" className={css.checkbox} checked={values.trailingStop} onChange={(e) => setValues((v) => ({ ...v, trailingStop: e.target.checked }))} />
        </label>
        {decimal('trailingDeviation', <Trans>追踪止盈回调 %（可选）</Trans>, { title: pct, placeholder: t`不设置` })}
        <TrailingNotes note={trailing} deviation={values.trailingDeviation} />
        <Field label={<Trans>两单间冷却（分钟）</Trans>} name="cooldown" inputMode="numeric" value={values.cooldown} onChange={set('cooldown')} onBlur={blur('cooldown')} error={err('cooldown')} />
        <div className={css.chipsWrap} role="radiogroup" aria-label={t`开单条件`}>
          {startChoices.map((c) => (
            <label key={c.value} className={css.chipOption}>
              <input type="radio" name="start" value={c.value} checked={values.start === c.value} onChange={set('start')} className={ui.coverInput} />
              {i18n._(c.label)}
            </label>
          ))}
        </div>
        {values.start === 'indicator' ? (
          <div data-testid="dca-start-rule">
            <RuleEditor root="start.rule" rule={values.rule} onChange={setRule} errors={errors} />
            {explained ? (
              <div className={customCss.explanation} data-testid="dca-start-explain">
                <p className={customCss.explainLine}>{explained}</p>
              </div>
            ) : null}
          </div>
        ) : null}
        {values.start === 'day' || values.start === 'week' ? (
          <div className={css.grid2}>
            {values.start === 'week' ? (
              <div className={ui.field}>
                <label className={ui.label} htmlFor="dca-weekday">
                  <Trans>星期</Trans>
                </label>
                <select id="dca-weekday" name="weekday" className={css.select} value={values.weekday} onChange={set('weekday')}>
                  {weekdays.map((d, i) => (
                    <option key={d.id} value={String(i + 1)}>
                      {i18n._(d)}
                    </option>
                  ))}
                </select>
              </div>
            ) : null}
            <Field label={<Trans>时间</Trans>} name="time" type="time" value={values.time} onChange={set('time')} onBlur={blur('start')} error={err('start')} />
          </div>
        ) : null}
        <p className={ui.muted}>
          {values.start === 'now' ? (
            <Trans>启动后立即开第一单；每单止盈或止损后，等待冷却时间再开下一单。</Trans>
          ) : values.start === 'indicator' ? (
            <Trans>每根 1 分钟 K 线收盘时检查条件（指标只用已收盘的 K 线）；条件成立且冷却时间已过时开单。</Trans>
          ) : values.start === 'signal' ? (
            <span data-testid="dca-start-signal">
              <Trans>不会自己开单：只在收到外部买入信号（如 TradingView 警报）时开单，卖出或平仓信号会卖出整单。创建后在策略详情页获取信号地址。</Trans>
            </span>
          ) : (
            <Trans>按本机时间定时开单；若上一单未结束，则在其结束后的下一个时间点开单。</Trans>
          )}
        </p>
      </section>
      <section className={ui.card} aria-label={t`安全单计划`}>
        <h2 className={css.sectionTitle}>
          <Trans>底仓与安全单（按最新价估算）</Trans>
        </h2>
        {preview ? (
          <DcaTable rows={preview.rows} funds={preview.funds} investment={values.investment} stop={preview.stop} tick={market?.tickSize} />
        ) : (
          <p className={ui.muted}>
            <Trans>填写有效参数后显示每个安全单的价格、金额、均价和止盈价。</Trans>
          </p>
        )}
      </section>
      <BacktestPanel exchangeId={exchangeId} symbol={symbol} config={{ type: 'dca', params }} ready={preview !== null} />
    </BotFormShell>
  );
}
