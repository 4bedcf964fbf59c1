import { useEffect, useMemo, useRef } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Field } from '../../../../components/ui/field.tsx';
import * as ui from '../../../../components/ui/ui.css.ts';
import { amount, num, price, usdt } from '../../../../shared/format.ts';
import { checkGrid, defaultGridValues, gridMakerSaving, gridParamsFromValues, gridPreview, gridStopNote, gridTrailingNote, gridValuesFromParams, type GridValues } from './grid-form.ts';
import { useResting } from '../../use-resting.ts';
import { useBotTarget } from '../../use-bot-target.ts';
import { useBotForm } from '../../use-bot-form.ts';
import { useBotValues, useSubmitBot } from '../../use-bot-values.ts';
import { BotFormShell } from '../../components/bot-form-shell.tsx';
import { BacktestPanel } from '../../components/backtest-panel.tsx';
import { GridLevelsList } from './grid-levels.tsx';
import { AvailableHint } from '../../components/available-hint.tsx';
import * as css from '../../../../shared/blocks.css.ts';
import * as styles from '../../components/bots.css.ts';
import type { FormPageProps } from '../strategy-ui.ts';

type Editable = Exclude<keyof GridValues, 'spacing' | 'trailingStop'>;

/** /strategy/grid/{id?}: create a grid bot, or edit a stopped or paused one; the profit per grid shows before the start. */
export function GridFormPage({ id, exchange, copy }: FormPageProps<'grid'>) {
  const { t, i18n } = useLingui();
  const l = i18n.locale;
  const target = useBotTarget(id, exchange);
  const { market, exchangeId, symbol } = target;
  // A copy (a ranked bot, a clone) fills the form at the start, its range as it was; a pair's chart only picks the pair.
  const [values, setValues] = useBotValues('grid', target, copy, gridValuesFromParams, (): GridValues | null => null);
  const keepCopy = useRef(values !== null);
  // Only when the pair (or the bot) changes, not at each refresh of the market's price: what the trader typed stays.
  const filledFor = useRef<string | null>(null);
  useEffect(() => {
    const pair = JSON.stringify([id, market?.symbol]);
    if (filledFor.current === pair) return;
    filledFor.current = pair;
    if (!id && market) {
      // The copied range stays for its own pair; another pair chosen later starts around its price.
      if (keepCopy.current) {
        keepCopy.current = false;
        return;
      }
      setValues(defaultGridValues(market.price, market.tickSize));
    }
  }, [id, market, setValues]);

  const v = values ?? defaultGridValues(undefined);
  const problems = useMemo(() => (market && values ? checkGrid(values, market) : {}), [values, market]);
  const preview = useMemo(() => (market && values ? gridPreview(values, market) : null), [values, market]);
  const params = useMemo(() => gridParamsFromValues(v), [v]);
  // Where this server rests a grid's orders, what that saves against market orders.
  const resting = useResting('grid');
  const saving = resting && preview && market ? gridMakerSaving(preview.quantity, market) : null;
  // The trailing exits' notes (README "Trailing exits"): the worst trailing sale, and the trailing stop's fall at the price now.
  const trailing = gridTrailingNote(v, market?.tickSize ?? '0.01');
  const stopFall = market ? gridStopNote(v, market.price) : null;
  const worst = trailing ? price(trailing.worst, l, market?.tickSize) : '';
  const deviation = v.trailingDeviation.trim();
  const form = useBotForm<Editable>(problems);
  const { err, blur } = form;
  const set = (field: keyof GridValues) => (e: { target: { value: string } }) => setValues((x) => ({ ...(x ?? v), [field]: e.target.value }));

  const saveBot = useSubmitBot('grid', id, target, form);
  const submit = saveBot(() => params);

  return (
    <BotFormShell title={id ? <Trans>编辑网格策略</Trans> : <Trans>创建网格策略</Trans>} target={target} id={id} copy={copy} form={form} onSubmit={submit}>
      <section className={ui.card}>
        <div className={css.grid2}>
          <Field label={<Trans>最低价</Trans>} name="lower" inputMode="decimal" value={v.lower} onChange={set('lower')} onBlur={blur('lower')} error={err('lower')} />
          <Field label={<Trans>最高价</Trans>} name="upper" inputMode="decimal" value={v.upper} onChange={set('upper')} onBlur={blur('upper')} error={err('upper')} />
        </div>
        <Field label={<Trans>网格数量</Trans>} name="grids" inputMode="numeric" value={v.grids} onChange={set('grids')} onBlur={blur('grids')} error={err('grids')} />
        <div className={css.chips} role="radiogroup" aria-label={t`网格类型`}>
          <label className={css.chipOption}>
            <input type="radio" name="spacing" value="arithmetic" checked={v.spacing === 'arithmetic'} onChange={set('spacing')} className={ui.coverInput} />
            <Trans>等差</Trans>
          </label>
          <label className={css.chipOption}>
            <input type="radio" name="spacing" value="geometric" checked={v.spacing === 'geometric'} onChange={set('spacing')} className={ui.coverInput} />
            <Trans>等比</Trans>
          </label>
        </div>
        <Field label={<Trans>投资金额（USDT）</Trans>} name="investment" inputMode="decimal" value={v.investment} onChange={set('investment')} onBlur={blur('investment')} error={err('investment')} />
        <AvailableHint available={target.available} reserved={target.reserved} quote={target.quote} needed={v.investment || null} locale={i18n.locale} />
        <div className={css.grid2}>
          <Field label={<Trans>止损价（可选）</Trans>} name="stopLoss" inputMode="decimal" value={v.stopLoss} onChange={set('stopLoss')} onBlur={blur('stopLoss')} error={err('stopLoss')} />
          <Field label={<Trans>止盈价（可选）</Trans>} name="takeProfit" inputMode="decimal" value={v.takeProfit} onChange={set('takeProfit')} onBlur={blur('takeProfit')} error={err('takeProfit')} />
        </div>
        <Field
          label={<Trans>追踪止盈回调 %（可选）</Trans>}
          title={t`百分比`}
          name="trailingDeviation"
          inputMode="decimal"
          placeholder={t`不设置`}
          value={v.trailingDeviation}
          onChange={set('trailingDeviation')}
          onBlur={blur('trailingDeviation')}
          error={err('trailingDeviation')}
        />
        {trailing?.warn ? (
          <p className={styles.trailingWarning} role="alert">
            <Trans>回调幅度较大：追踪卖出价最低约 {worst}，不高于最高价，可能在网格区间内卖出，低于网格自身的卖出价。</Trans>
          </p>
        ) : null}
        {trailing ? (
          <p className={styles.trailingNote}>
            <Trans>
              达到止盈价后跟踪最高价，从最高价回落 {deviation}% 时全部卖出并停止（期间不再挂网格单）；最低卖出价约 {worst}。
            </Trans>
          </p>
        ) : null}
        <label className={css.switchRow}>
          <span>
            <Trans>追踪止损（止损价随启动以来的最高价上移）</Trans>
          </span>
          <input type="checkbox" name="trailingStop" className={css.checkbox} checked={v.trailingStop} onChange={(e) => setValues((x) => ({ ...(x ?? v), trailingStop: e.target.checked }))} />
        </label>
        {stopFall ? (
          <p className={styles.trailingNote}>
            <Trans>止损价与启动价保持同一比例：按最新价启动，从最高价回落 {stopFall}% 时全部卖出并停止。</Trans>
          </p>
        ) : null}
      </section>
      <section className={ui.card} aria-label={t`网格预览`}>
        <h2 className={css.sectionTitle}>
          <Trans>网格预览（按最新价）</Trans>
        </h2>
        {preview ? (
          <>
            <div className={styles.figuresSpaced}>
              <div>
                <div className={css.figureValue} data-testid="grid-profit">
                  {num(preview.profit.minPct, l, 2)}% ~ {num(preview.profit.maxPct, l, 2)}%
                </div>
                <div className={css.figureLabel}>
                  <Trans>每格利润</Trans>
                </div>
              </div>
              <div>
                <div className={css.figureValue}>
                  {num(preview.profit.min, l, 4)} ~ {num(preview.profit.max, l, 4)}
                </div>
                <div className={css.figureLabel}>
                  <Trans>每格利润 (USDT)</Trans>
                </div>
              </div>
              <div>
                <div className={css.figureValue} data-testid="grid-quantity">
                  {amount(preview.quantity, l, market?.stepSize)}
                </div>
                <div className={css.figureLabel}>
                  <Trans>每格数量</Trans>
                </div>
              </div>
            </div>
            {preview.density === 'thin' ? (
              <p className={styles.trailingWarning} data-testid="grid-thin">
                <Trans>网格较密：每格扣除买卖手续费后利润低于 {num(preview.thinPct, l, 1)}%，小幅波动的收益大多被手续费抵消。可减少网格数或扩大区间。</Trans>
              </p>
            ) : null}
            <p className={css.mutedTight.top}>
              <Trans>启动时按市价买入上方卖单所需的币：约 {usdt(preview.startBuy, l)} USDT；其余资金留给下方买单。</Trans>
            </p>
            <p className={css.mutedTight.top}>
              <Trans>手续费从买到的币中扣除，所以每格多买一点，使扣费后仍能卖出每格数量；每格利润已扣除买卖两次手续费。</Trans>
            </p>
            {saving ? <MakerSaving maker={saving.maker} taker={saving.taker} per100={usdt(saving.per100, l)} /> : null}
            <GridLevelsList levels={preview.levels as { index: number; price: string; side: 'buy' | 'sell' | null }[]} tick={market?.tickSize} />
          </>
        ) : (
          <p className={ui.muted}>
            <Trans>填写有效参数后显示每格利润和各档价格。</Trans>
          </p>
        )}
      </section>
      <BacktestPanel exchangeId={exchangeId} symbol={symbol} config={{ type: 'grid', params }} ready={preview !== null} />
    </BotFormShell>
  );
}

/** What resting the levels saves against market orders (gridMakerSaving), in words. */
function MakerSaving({ maker, taker, per100 }: { maker: string; taker: string; per100: string }) {
  return (
    <p className={css.mutedTight.top} data-testid="grid-maker-saving">
      <Trans>
        每格挂限价单，在其价格按挂单费率 {maker}% 成交（市价单 {taker}%），不会越过价位成交：按最新价每 100 次成交约少付 {per100} USDT 手续费。
      </Trans>
    </p>
  );
}
