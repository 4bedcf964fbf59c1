import { Trans, useLingui } from '@lingui/react/macro';
import { Field } from '../../../components/ui/field.tsx';
import { num, usdt } from '../../../shared/format.ts';
import * as css from '../../../shared/blocks.css.ts';
import * as ui from '../../../components/ui/ui.css.ts';
import * as styles from './close-part.css.ts';
import { closePresets, type CloseEstimate, type CloseUnit } from '../close-estimate.ts';
import { Figure, Profit } from './figure.tsx';

/**
 * How much of a martin position to close (partial close): 25 / 50 / 75 / 100 % with one tap, or
 * a share or an amount of the base coin typed in; below, what the sale would bring at the price now, from
 * the engine's maths, or what stops it (the server refuses the same).
 */
export function ClosePart(props: { base: string; unit: CloseUnit; text: string; estimate: CloseEstimate | null; onChange: (unit: CloseUnit, text: string) => void }) {
  const { t, i18n } = useLingui();
  const l = i18n.locale;
  const { base, unit, text, estimate } = props;
  const refused = estimate && !estimate.ok ? estimate : null;
  const held = refused && 'held' in refused ? num(refused.held.toFixed(), l, 8) : '';
  const rest = refused && 'rest' in refused ? num(refused.rest.toFixed(), l, 8) : '';
  const problemText = !refused
    ? undefined
    : refused.problem === 'format' || refused.problem === 'share'
      ? unit === 'percent'
        ? t`请输入 1 到 100 之间的比例`
        : t`请输入卖出数量`
      : refused.problem === 'aboveHeld'
        ? t`超过持仓：最多可卖 ${held} ${base}`
        : refused.problem === 'belowMinimum'
          ? t`卖出部分低于市场最小下单量`
          : t`剩余 ${rest} ${base} 将低于最小下单量，之后无法单独卖出：请少卖一些，或全部平仓`;
  // Switching the unit keeps what was chosen: the amount the share sells, or the share the amount is.
  const switchTo = (next: CloseUnit) => {
    if (next === unit) return;
    if (next === 'base') props.onChange('base', estimate?.ok ? estimate.amount.toFixed() : '');
    else props.onChange('percent', estimate?.ok ? estimate.share : '100');
  };

  return (
    <div data-testid="close-part">
      <fieldset className={css.chips} aria-label={t`平仓比例`}>
        {closePresets.map((p) => (
          <button key={p} type="button" className={css.chip} aria-pressed={unit === 'percent' && text.trim() === p} onClick={() => props.onChange('percent', p)} data-testid={`close-preset-${p}`}>
            {p}%
          </button>
        ))}
      </fieldset>
      <div className={css.chips} role="radiogroup" aria-label={t`按比例或按数量`}>
        <label className={css.chipOption}>
          <input type="radio" name="close-unit" checked={unit === 'percent'} onChange={() => switchTo('percent')} className={ui.coverInput} data-testid="close-by-percent" />
          <Trans>按比例 %</Trans>
        </label>
        <label className={css.chipOption}>
          <input type="radio" name="close-unit" checked={unit === 'base'} onChange={() => switchTo('base')} className={ui.coverInput} data-testid="close-by-base" />
          <Trans>按数量 {base}</Trans>
        </label>
      </div>
      <Field
        label={unit === 'percent' ? <Trans>平仓比例（%，1-100）</Trans> : <Trans>卖出数量（{base}）</Trans>}
        inputMode="decimal"
        value={text}
        onChange={(e) => props.onChange(unit, e.target.value)}
        error={problemText}
        data-testid="close-amount"
      />
      {estimate?.ok ? (
        <div className={styles.estimate} data-testid="close-estimate">
          <Figure label={<Trans>卖出数量</Trans>}>
            {num(estimate.amount.toFixed(), l, 8)} {base}
            {estimate.all ? null : <span className={css.figureLabel}> ({estimate.share}%)</span>}
          </Figure>
          <Figure label={<Trans>预计收入（USDT）</Trans>} kind="quote">
            {usdt(estimate.close.proceeds.toFixed(), l)}
          </Figure>
          <Figure label={<Trans>预计盈亏（USDT）</Trans>} testId="close-profit">
            <Profit value={estimate.close.profit.toFixed()} />
          </Figure>
          <Figure label={<Trans>剩余持仓</Trans>}>{estimate.all ? <Trans>无，本轮结束</Trans> : `${num(estimate.rest.toFixed(), l, 8)} ${base}`}</Figure>
        </div>
      ) : null}
    </div>
  );
}
