import { useEffect, useMemo, useRef, useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { useQuery } from '@tanstack/react-query';
import { call, failed, loading } from '../../../../shared/query.ts';
import { Page } from '../../../../components/ui/page.tsx';
import { Field } from '../../../../components/ui/field.tsx';
import { LoadState } from '../../../../components/ui/load-state.tsx';
import * as ui from '../../../../components/ui/ui.css.ts';
import { defaultMartinValues, levelTable, type MartinValues } from './martin-form.ts';
import { LevelTable } from '../../components/level-table.tsx';
import * as css from '../../../../shared/blocks.css.ts';

type SizeValues = Pick<MartinValues, 'firstOrder' | 'multiplier' | 'addTrigger' | 'maxPositions' | 'takeProfit'>;

/**
 * /strategy/size: the position size calculator. From a first order, a multiplier, an add
 * trigger and a number of positions: each level's price, order, running total, average and take-profit
 * price, and the funds the whole cycle needs: the engine's own plan (planLevels), at a start price the
 * trader may change (the latest price by default).
 */
export function SizePage() {
  const { t } = useLingui();
  const symbols = useQuery(call('marketSymbols', { exchange: 'paper' }, { show: false }));
  const [symbol, setSymbol] = useState('BTC/USDT');
  const [price, setPrice] = useState('');
  const [values, setValues] = useState<SizeValues>({ ...defaultMartinValues });
  const market = symbols.data?.find((s) => s.symbol === symbol);
  // The start price follows the pair when it changes, not each refresh of the market: a price the trader typed stays.
  const pricedFor = useRef<string | undefined>(undefined);
  useEffect(() => {
    if (pricedFor.current === market?.symbol) return;
    pricedFor.current = market?.symbol;
    if (market) setPrice(market.price);
  }, [market]);
  const validPrice = /^\d+(\.\d+)?$/.test(price) && Number(price) > 0;
  const table = useMemo(() => {
    if (!market || !validPrice) return null;
    // The investment plays no part in the plan: a large one keeps the check on the other fields.
    return levelTable({ ...defaultMartinValues, ...values, investment: '1000000000', stopLoss: '', repeat: false }, { ...market, price });
  }, [market, price, values, validPrice]);
  const set = (k: keyof SizeValues) => (e: { target: { value: string } }) => setValues((v) => ({ ...v, [k]: e.target.value.trim() }));

  return (
    <Page title={<Trans>仓位计算器</Trans>}>
      <LoadState loading={loading(symbols)} failed={failed(symbols)} failedText={<Trans>行情加载失败。</Trans>} onRetry={() => void symbols.refetch()} />
      <section className={ui.card}>
        <div className={ui.field}>
          <label className={ui.label} htmlFor="size-symbol">
            <Trans>交易对</Trans>
          </label>
          <select id="size-symbol" className={css.select} value={symbol} onChange={(e) => setSymbol(e.target.value)}>
            {(symbols.data ?? [{ symbol }]).map((s) => (
              <option key={s.symbol} value={s.symbol}>
                {s.symbol}
              </option>
            ))}
          </select>
        </div>
        <Field
          label={<Trans>起始价格</Trans>}
          inputMode="decimal"
          value={price}
          onChange={(e) => setPrice(e.target.value.trim())}
          error={price && !validPrice ? t`请输入有效价格` : undefined}
          data-testid="size-price"
        />
        <div className={css.grid2}>
          <Field label={<Trans>首单金额</Trans>} inputMode="decimal" value={values.firstOrder} onChange={set('firstOrder')} data-testid="size-first" />
          <Field label={<Trans>加仓倍数</Trans>} inputMode="decimal" value={values.multiplier} onChange={set('multiplier')} data-testid="size-multiplier" />
          <Field label={<Trans>补仓跌幅 %</Trans>} inputMode="decimal" value={values.addTrigger} onChange={set('addTrigger')} data-testid="size-trigger" />
          <Field label={<Trans>最大持仓数</Trans>} inputMode="numeric" value={values.maxPositions} onChange={set('maxPositions')} data-testid="size-positions" />
        </div>
        <Field label={<Trans>止盈 %</Trans>} inputMode="decimal" value={values.takeProfit} onChange={set('takeProfit')} />
      </section>
      <section className={ui.card} aria-label={t`每层资金`}>
        {table ? (
          <>
            <LevelTable rows={table.rows} total={table.total} tick={market?.tickSize} />
            <p className={css.mutedTight.bottom}>
              <Trans>每层在上一层成交价再下跌补仓跌幅时成交；价格按交易对的最小变动取整，数量按最小下单量取整，与策略实际下单一致。</Trans>
            </p>
          </>
        ) : (
          <p className={ui.muted}>
            <Trans>填写有效参数后显示每层的价格和资金。</Trans>
          </p>
        )}
      </section>
    </Page>
  );
}
