import { useMemo, type ReactNode } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Field } from '../../../../components/ui/field.tsx';
import * as ui from '../../../../components/ui/ui.css.ts';
import { checkCustom, customParamsFromValues, customTrailingNote, customValuesFromParams, defaultCustomValues, entryQuote, explainLines, strategyParams, type RuleValues } from './custom-form.ts';
import { useBotTarget } from '../../use-bot-target.ts';
import { useBotForm } from '../../use-bot-form.ts';
import { useBotValues, useSubmitBot } from '../../use-bot-values.ts';
import { BotFormShell } from '../../components/bot-form-shell.tsx';
import { BacktestPanel } from '../../components/backtest-panel.tsx';
import { AvailableHint } from '../../components/available-hint.tsx';
import { RuleEditor, type FieldErrors } from './custom-rule.tsx';
import * as blocks from '../../../../shared/blocks.css.ts';
import * as css from '../../components/custom-form.css.ts';
import type { FormPageProps } from '../strategy-ui.ts';
import { TrailingNotes } from '../../components/trailing-notes.tsx';

/** The form's decimal fields. */
type Editable = 'investment' | 'quote' | 'percent' | 'takeProfit' | 'stopLoss' | 'trailingDeviation';

/**
 * /strategy/custom/{id?}: create a custom bot, or edit a stopped or paused one. The
 * trader composes the buy and sell rules from condition cards, the strategy's own checks run as they
 * type (each problem under its field, in words), and the rules read back in plain zh/en before the
 * backtest and the start; a trailing take profit shows its worst sale and warns when it can be a loss.
 */

export function CustomFormPage({ id, exchange, copy }: FormPageProps<'custom'>) {
  const { t, i18n } = useLingui();
  const target = useBotTarget(id, exchange);
  const { market, exchangeId, symbol } = target;
  const [values, setValues] = useBotValues('custom', target, copy, customValuesFromParams, () => defaultCustomValues);

  const problems = useMemo(() => checkCustom(values, market), [values, market]);
  const params = useMemo(() => customParamsFromValues(values), [values]);
  const lang = i18n.locale === 'en' ? 'en' : 'zh';
  const explained = useMemo(() => explainLines(strategyParams(values), lang, Object.keys(problems)), [values, lang, problems]);
  const form = useBotForm<string>(problems);
  const { err, blur } = form;
  const errors: FieldErrors = { err, blur };
  const set = (field: Editable) => (e: { target: { value: string } }) => setValues((v) => ({ ...v, [field]: e.target.value }));
  const setRule = (root: 'entry' | 'exit') => (rule: RuleValues) => setValues((v) => ({ ...v, [root]: rule }));

  const saveBot = useSubmitBot('custom', id, target, form);
  const submit = saveBot(() => params);

  const pct = t`百分比`;
  // The worst trailing sale over the average, and the warning when it can be a loss (martin's and DCA's note).
  const trailing = customTrailingNote(values);
  const decimal = (field: Editable, path: string, label: ReactNode, extra: { title?: string; placeholder?: string } = {}) => (
    <Field label={label} name={path} inputMode="decimal" value={values[field]} onChange={set(field)} onBlur={blur(path)} error={err(path)} {...extra} />
  );

  return (
    <BotFormShell title={id ? <Trans>编辑自定义策略</Trans> : <Trans>创建自定义策略</Trans>} target={target} id={id} copy={copy} form={form} onSubmit={submit}>
      <section className={ui.card} aria-label={t`资金与仓位`}>
        {decimal('investment', 'investment', <Trans>投资金额（USDT）</Trans>)}
        <AvailableHint available={target.available} reserved={target.reserved} quote={target.quote} needed={entryQuote(values)} locale={i18n.locale} />
        <div className={blocks.chips} role="radiogroup" aria-label={t`每次买入`}>
          <label className={blocks.chipOption}>
            <input type="radio" name="sizeKind" value="fixed" checked={values.sizeKind === 'fixed'} onChange={() => setValues((v) => ({ ...v, sizeKind: 'fixed' }))} className={ui.coverInput} />
            <Trans>固定金额</Trans>
          </label>
          <label className={blocks.chipOption}>
            <input type="radio" name="sizeKind" value="share" checked={values.sizeKind === 'share'} onChange={() => setValues((v) => ({ ...v, sizeKind: 'share' }))} className={ui.coverInput} />
            <Trans>投资比例</Trans>
          </label>
        </div>
        {values.sizeKind === 'fixed' ? decimal('quote', 'size.quote', <Trans>每次买入金额（USDT）</Trans>) : decimal('percent', 'size.percent', <Trans>每次买入占投资 %</Trans>, { title: pct })}
        <label className={blocks.switchRow}>
          <span>
            <Trans>卖出后继续等待买入条件</Trans>
          </span>
          <input type="checkbox" name="repeat" className={blocks.checkbox} checked={values.repeat} onChange={(e) => setValues((v) => ({ ...v, repeat: e.target.checked }))} />
        </label>
      </section>
      <section className={ui.card} aria-labelledby="custom-entry-title">
        <h2 id="custom-entry-title" className={blocks.sectionTitle}>
          <Trans>买入条件</Trans>
        </h2>
        <label className={blocks.switchRow}>
          <span>
            <Trans>只在收到外部买入信号时买入</Trans>
          </span>
          <input
            type="checkbox"
            name="signalsOnly"
            className={blocks.checkbox}
            checked={values.signalsOnly}
            onChange={(e) => setValues((v) => ({ ...v, signalsOnly: e.target.checked }))}
            data-testid="custom-signals-only"
          />
        </label>
        {values.signalsOnly ? (
          <p className={ui.muted}>
            <Trans>不按条件买入：只在收到外部买入信号（如 TradingView 警报）时买入，卖出或平仓信号会卖出全部持仓。创建后在策略详情页获取信号地址。</Trans>
          </p>
        ) : (
          <RuleEditor root="entry" rule={values.entry} onChange={setRule('entry')} errors={errors} />
        )}
      </section>
      <section className={ui.card} aria-labelledby="custom-exit-title">
        <h2 id="custom-exit-title" className={blocks.sectionTitle}>
          <Trans>卖出</Trans>
        </h2>
        <div className={blocks.grid2}>
          {decimal('takeProfit', 'takeProfit', <Trans>止盈 %（可选）</Trans>, { title: pct, placeholder: t`不设置` })}
          {decimal('stopLoss', 'stopLoss', <Trans>止损 %（可选）</Trans>, { title: pct, placeholder: t`不设置` })}
        </div>
        {decimal('trailingDeviation', 'trailingDeviation', <Trans>追踪止盈回调 %（可选）</Trans>, { title: pct, placeholder: t`不设置` })}
        <TrailingNotes note={trailing} deviation={values.trailingDeviation} />
        <label className={blocks.switchRow}>
          <span>
            <Trans>追踪止损（止损价跟随最高价上移）</Trans>
          </span>
          <input type="checkbox" name="trailingStop" className={blocks.checkbox} checked={values.trailingStop} onChange={(e) => setValues((v) => ({ ...v, trailingStop: e.target.checked }))} />
        </label>
        <label className={blocks.switchRow}>
          <span>
            <Trans>按卖出条件卖出</Trans>
          </span>
          <input type="checkbox" name="exitOn" className={blocks.checkbox} checked={values.exitOn} onChange={(e) => setValues((v) => ({ ...v, exitOn: e.target.checked }))} />
        </label>
        {values.exitOn ? <RuleEditor root="exit" rule={values.exit} onChange={setRule('exit')} errors={errors} /> : null}
        {err('exit') && !values.exitOn ? (
          <span role="alert" className={css.ruleError}>
            {err('exit')}
          </span>
        ) : null}
      </section>
      <section className={ui.card} aria-labelledby="custom-explain-title">
        <h2 id="custom-explain-title" className={blocks.sectionTitle}>
          <Trans>策略说明</Trans>
        </h2>
        {explained.entry ? (
          <div className={css.explanation} data-testid="custom-explain">
            <p className={css.explainLine}>{explained.entry}</p>
            {explained.exit ? <p className={css.explainLine}>{explained.exit}</p> : null}
            {explained.exits ? <p className={css.explainLine}>{explained.exits}</p> : null}
          </div>
        ) : (
          <p className={ui.muted}>
            <Trans>买入条件填写完整后，这里用文字说明策略何时买卖。</Trans>
          </p>
        )}
        <p className={ui.muted}>
          <Trans>每根 1 分钟 K 线收盘时检查条件；指标只使用已收盘的 K 线。止盈、止损随时按最新价检查。</Trans>
        </p>
      </section>
      <BacktestPanel exchangeId={exchangeId} symbol={symbol} config={{ type: 'custom', params }} ready={market !== undefined && Object.keys(problems).length === 0} />
    </BotFormShell>
  );
}
