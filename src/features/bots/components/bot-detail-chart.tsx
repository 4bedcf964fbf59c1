import { useMemo } from 'react';
import { useLingui } from '@lingui/react/macro';
import type { BotDetail, BotOrder } from '../../../../contract/bots.ts';
import { endAtPrice } from '../../../../contract/candles.ts';
import type { CandleData } from '../../../../contract/market.ts';
import type { ChartEntry, ChartLine } from '../../../shared/price-chart.tsx';
import { strategies } from '../strategies/index.ts';
import { BotPriceChart } from './bot-price-chart.tsx';

/** The detail's chart: the pair's minutes up to the bot's last price, its entries, and lines at its average, targets and stops. */
export function BotDetailChart({
  bot: d,
  history: pairHistory,
  failed,
  adds,
  tick,
}: {
  bot: BotDetail;
  history: CandleData[] | undefined;
  failed: boolean;
  adds: BotOrder[] | undefined;
  tick: string | undefined;
}) {
  const { t, i18n } = useLingui();
  // The chart's lines change with these prices (and the language), not with each refresh of the detail.
  const averagePrice = d.averagePrice;
  const takeProfitPrice = d.takeProfitPrice;
  const nextAddPrice = d.nextAddPrice;
  // What the type calls its next buy (a DCA bot's adds are its safety orders).
  const nextAddLine = strategies[d.type].nextAddLine;
  const stopLossPrice = d.stopLossPrice;
  const trailingPrice = d.trailing?.price;
  // Any bot type with a trailing stop (martin, grid, DCA, custom): its stop line follows the high.
  const trailingStop = (d.params as { trailingStop?: boolean } | undefined)?.trailingStop === true;
  const lines = useMemo<ChartLine[]>(() => {
    const out: ChartLine[] = [];
    if (averagePrice) out.push({ kind: 'average', price: averagePrice, title: t`均价` });
    if (takeProfitPrice) out.push({ kind: 'takeProfit', price: takeProfitPrice, title: t`止盈` });
    if (nextAddPrice) out.push({ kind: 'nextAdd', price: nextAddPrice, title: i18n._(nextAddLine) });
    if (stopLossPrice) out.push({ kind: 'stopLoss', price: stopLossPrice, title: trailingStop ? t`追踪止损` : t`止损` });
    if (trailingPrice) out.push({ kind: 'trailing', price: trailingPrice, title: t`追踪止盈` });
    return out;
  }, [averagePrice, takeProfitPrice, nextAddPrice, stopLossPrice, trailingPrice, trailingStop, nextAddLine, t, i18n]);
  const entries = useMemo<ChartEntry[]>(() => (adds ?? []).filter((o) => o.status === 'filled' && o.price).map((o) => ({ at: o.at, price: o.price!, side: o.side })), [adds]);
  // The chart ends at the bot's last price (read every 3 s, the candles every 15 s), the one shown above it.
  const lastPrice = d.price;
  const history = useMemo(() => (pairHistory ? endAtPrice(pairHistory, lastPrice) : undefined), [pairHistory, lastPrice]);
  return <BotPriceChart bot={d} history={history} failed={failed} lines={lines} entries={entries} tick={tick} />;
}
