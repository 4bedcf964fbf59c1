import { useId, type ReactNode } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { operators, timeframes, type Operator } from '../../../../../strategy/custom/rules.ts';
import * as ui from '../../../../components/ui/ui.css.ts';
import * as blocks from '../../../../shared/blocks.css.ts';
import { maxConditions, newCondition, operandKinds, type ConditionValues, type OperandKind, type OperandValues, type RuleValues } from './custom-form.ts';
import * as css from '../../components/custom-form.css.ts';

/** A field's problem in words (or nothing), and the mark that the trader left it. */
export interface FieldErrors {
  err: (field: string) => string | undefined;
  blur: (field: string) => () => void;
}

const kindLabels: Record<OperandKind, MessageDescriptor> = {
  price: msg`价格`,
  value: msg`数值`,
  rsi: msg`RSI`,
  sma: msg`MA 均线`,
  ema: msg`EMA 均线`,
  bb: msg`布林带`,
  macd: msg`MACD`,
  change: msg`涨跌幅 %`,
};
const operatorLabels: Record<Operator, MessageDescriptor> = { '>': msg`大于 >`, '<': msg`小于 <`, crossesAbove: msg`上穿`, crossesBelow: msg`下穿` };
const bandLabels: Record<OperandValues['band'], MessageDescriptor> = { upper: msg`上轨`, middle: msg`中轨`, lower: msg`下轨` };
const lineLabels: Record<OperandValues['line'], MessageDescriptor> = { macd: msg`MACD 线`, signal: msg`信号线`, histogram: msg`柱` };

/** A small labelled select or input with its problem under it (the condition card's fields). */
function Small({ label, error, wide, children }: { label: ReactNode; error?: string | undefined; wide?: boolean; children: (id: string, describedBy: string | undefined) => ReactNode }) {
  const id = useId();
  return (
    <div className={wide ? `${css.compactField} ${css.sideWide}` : css.compactField}>
      <label htmlFor={id} className={ui.label}>
        {label}
      </label>
      {children(id, error ? `${id}-e` : undefined)}
      {error ? (
        <span id={`${id}-e`} role="alert" className={ui.fieldError}>
          {error}
        </span>
      ) : null}
    </div>
  );
}

function NumberInput({ path, value, onChange, label, errors, decimal }: { path: string; value: string; onChange: (v: string) => void; label: ReactNode; errors: FieldErrors; decimal?: boolean }) {
  const error = errors.err(path);
  return (
    <Small label={label} error={error}>
      {(id, describedBy) => (
        <input
          id={id}
          name={path}
          className={`${ui.input} ${css.compactInput}`}
          inputMode={decimal ? 'decimal' : 'numeric'}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          onBlur={errors.blur(path)}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
        />
      )}
    </Small>
  );
}

/** One side of a condition: its kind, then the indicator's settings and timeframe (or the number). */
function OperandEditor({ path, label, value, onChange, errors }: { path: string; label: ReactNode; value: OperandValues; onChange: (v: OperandValues) => void; errors: FieldErrors }) {
  const { t, i18n } = useLingui();
  const set = (over: Partial<OperandValues>) => onChange({ ...value, ...over });
  const kindError = errors.err(path) ?? errors.err(`${path}.kind`);
  const indicator = value.kind !== 'price' && value.kind !== 'value';
  return (
    <div className={css.side}>
      <Small label={label} error={kindError} wide={!indicator && value.kind !== 'value'}>
        {(id, describedBy) => (
          <select
            id={id}
            name={`${path}.kind`}
            className={css.compactSelect}
            value={value.kind}
            onChange={(e) => {
              // A choice is made at once: its problem (both sides the same) shows without waiting for the blur.
              errors.blur(path)();
              set({ kind: e.target.value as OperandKind });
            }}
            onBlur={errors.blur(path)}
            aria-describedby={describedBy}
          >
            {operandKinds.map((k) => (
              <option key={k} value={k}>
                {i18n._(kindLabels[k])}
              </option>
            ))}
          </select>
        )}
      </Small>
      {value.kind === 'value' ? <NumberInput path={`${path}.value`} label={<Trans>数值</Trans>} value={value.value} onChange={(v) => set({ value: v })} errors={errors} decimal /> : null}
      {indicator ? (
        <Small label={<Trans>K 线周期</Trans>} error={errors.err(`${path}.timeframe`)}>
          {(id) => (
            <select id={id} name={`${path}.timeframe`} className={css.compactSelect} value={value.timeframe} onChange={(e) => set({ timeframe: e.target.value as OperandValues['timeframe'] })}>
              {timeframes.map((tf) => (
                <option key={tf} value={tf}>
                  {tf}
                </option>
              ))}
            </select>
          )}
        </Small>
      ) : null}
      {value.kind === 'bb' ? (
        <Small label={<Trans>轨道</Trans>} error={errors.err(`${path}.band`)}>
          {(id) => (
            <select id={id} name={`${path}.band`} className={css.compactSelect} value={value.band} onChange={(e) => set({ band: e.target.value as OperandValues['band'] })}>
              {(['upper', 'middle', 'lower'] as const).map((b) => (
                <option key={b} value={b}>
                  {i18n._(bandLabels[b])}
                </option>
              ))}
            </select>
          )}
        </Small>
      ) : null}
      {value.kind === 'macd' ? (
        <Small label={<Trans>线</Trans>} error={errors.err(`${path}.line`)}>
          {(id) => (
            <select id={id} name={`${path}.line`} className={css.compactSelect} value={value.line} onChange={(e) => set({ line: e.target.value as OperandValues['line'] })}>
              {(['macd', 'signal', 'histogram'] as const).map((l) => (
                <option key={l} value={l}>
                  {i18n._(lineLabels[l])}
                </option>
              ))}
            </select>
          )}
        </Small>
      ) : null}
      {indicator && value.kind !== 'macd' ? <NumberInput path={`${path}.period`} label={<Trans>周期数</Trans>} value={value.period} onChange={(v) => set({ period: v })} errors={errors} /> : null}
      {value.kind === 'bb' ? (
        <NumberInput path={`${path}.deviation`} label={<Trans>标准差倍数</Trans>} value={value.deviation} onChange={(v) => set({ deviation: v })} errors={errors} decimal />
      ) : null}
      {value.kind === 'macd' ? (
        <>
          <NumberInput path={`${path}.fast`} label={t`快线周期`} value={value.fast} onChange={(v) => set({ fast: v })} errors={errors} />
          <NumberInput path={`${path}.slow`} label={t`慢线周期`} value={value.slow} onChange={(v) => set({ slow: v })} errors={errors} />
          <NumberInput path={`${path}.signal`} label={t`信号线周期`} value={value.signal} onChange={(v) => set({ signal: v })} errors={errors} />
        </>
      ) : null}
    </div>
  );
}

/** A condition as a compact card: left side, comparison, right side, stacked (readable at 320 px). */
function ConditionCard({
  path,
  index,
  value,
  onChange,
  onRemove,
  errors,
}: {
  path: string;
  index: number;
  value: ConditionValues;
  onChange: (c: ConditionValues) => void;
  onRemove?: (() => void) | undefined;
  errors: FieldErrors;
}) {
  const { t, i18n } = useLingui();
  const n = index + 1;
  const own = errors.err(path);
  return (
    <fieldset className={css.condition} data-testid={path}>
      <legend className={ui.visuallyHidden}>{t`条件 ${n}`}</legend>
      <div className={css.conditionHead}>
        <span className={css.conditionTitle} aria-hidden="true">{t`条件 ${n}`}</span>
        {onRemove ? (
          <button type="button" className={css.removeButton} onClick={onRemove} aria-label={t`删除条件 ${n}`}>
            <Trans>删除</Trans>
          </button>
        ) : null}
      </div>
      <OperandEditor path={`${path}.left`} label={<Trans>左侧</Trans>} value={value.left} onChange={(left) => onChange({ ...value, left })} errors={errors} />
      <Small label={<Trans>比较</Trans>} error={errors.err(`${path}.op`)}>
        {(id) => (
          <select id={id} name={`${path}.op`} className={css.operator} value={value.op} onChange={(e) => onChange({ ...value, op: e.target.value as Operator })}>
            {operators.map((o) => (
              <option key={o} value={o}>
                {i18n._(operatorLabels[o])}
              </option>
            ))}
          </select>
        )}
      </Small>
      <OperandEditor path={`${path}.right`} label={<Trans>右侧</Trans>} value={value.right} onChange={(right) => onChange({ ...value, right })} errors={errors} />
      {own ? (
        <span role="alert" className={css.ruleError}>
          {own}
        </span>
      ) : null}
    </fieldset>
  );
}

/** A rule: up to 5 condition cards joined by AND or OR; `root`, its parameters' path (a DCA bot's start rule: 'start.rule'). */
export function RuleEditor({ root, rule, onChange, errors }: { root: 'entry' | 'exit' | 'start.rule'; rule: RuleValues; onChange: (r: RuleValues) => void; errors: FieldErrors }) {
  const { t } = useLingui();
  const setCondition = (i: number) => (c: ConditionValues) => onChange({ ...rule, conditions: rule.conditions.map((x, j) => (j === i ? c : x)) });
  const remove = (i: number) => () => onChange({ ...rule, conditions: rule.conditions.filter((_, j) => j !== i) });
  const rulesError = errors.err(`${root}.conditions`) ?? errors.err(root);
  return (
    <div>
      {rule.conditions.length > 1 ? (
        <div className={blocks.chips} role="radiogroup" aria-label={t`条件之间`}>
          <label className={blocks.chipOption}>
            <input type="radio" name={`${root}.join`} value="and" checked={rule.join === 'and'} onChange={() => onChange({ ...rule, join: 'and' })} className={ui.coverInput} />
            <Trans>全部满足（且）</Trans>
          </label>
          <label className={blocks.chipOption}>
            <input type="radio" name={`${root}.join`} value="or" checked={rule.join === 'or'} onChange={() => onChange({ ...rule, join: 'or' })} className={ui.coverInput} />
            <Trans>任一满足（或）</Trans>
          </label>
        </div>
      ) : null}
      {rule.conditions.map((c, i) => (
        <ConditionCard
          // biome-ignore lint/suspicious/noArrayIndexKey: a condition has no identity but its place; the paths are by place too.
          key={i}
          path={`${root}.conditions.${i}`}
          index={i}
          value={c}
          onChange={setCondition(i)}
          onRemove={rule.conditions.length > 1 ? remove(i) : undefined}
          errors={errors}
        />
      ))}
      {rulesError ? (
        <span role="alert" className={css.ruleError}>
          {rulesError}
        </span>
      ) : null}
      <button
        type="button"
        className={css.addButton}
        disabled={rule.conditions.length >= maxConditions}
        onClick={() => onChange({ ...rule, conditions: [...rule.conditions, newCondition()] })}
        data-testid={`${root}-add`}
      >
        {rule.conditions.length >= maxConditions ? <Trans>最多 {maxConditions} 个条件</Trans> : <Trans>+ 添加条件</Trans>}
      </button>
    </div>
  );
}
