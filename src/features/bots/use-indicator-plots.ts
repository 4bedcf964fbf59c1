import { useEffect, useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { CandleData } from '../../../contract/market.ts';
import type { BotDetail } from '../../../contract/bots.ts';
import { api } from '../../lib/api.ts';
import type { AnsweredTimeframe, IndicatorPlot } from './indicator-plots.ts';
import { strategies } from './strategies/index.ts';

type Plotting = typeof import('./indicator-plots.ts');

/**
 * The indicators of a bot's rules (a custom bot's: its type's chartRules) on its 1-minute chart (`minutes`): each over the candles of its
 * own timeframe, asked of the market once a minute (1-minute ones are the chart's own). Other bots: none.
 * The plotting code (with the engine's indicator streams) loads only for a custom bot, and only from
 * the network (vite.config.ts ONLINE_ONLY_CHUNKS): it draws on candles that came from there; without it
 * the chart shows the prices alone.
 */
export function useIndicatorPlots(bot: Pick<BotDetail, 'type' | 'params' | 'exchange' | 'symbol'> | undefined, minutes: CandleData[] | undefined): IndicatorPlot[] {
  const params = bot ? strategies[bot.type].chartRules?.(bot.params) : undefined;
  const [plotting, setPlotting] = useState<Plotting | null>(null);
  const custom = params !== undefined;
  useEffect(() => {
    if (!custom || plotting) return;
    let cancelled = false;
    import('./indicator-plots.ts').then(
      (m) => !cancelled && setPlotting(m),
      () => undefined,
    );
    return () => {
      cancelled = true;
    };
  }, [custom, plotting]);
  const wanted = useMemo(() => (params && plotting ? plotting.ruleIndicators({ entry: params.entry, exit: params.exit }) : []), [params, plotting]);
  // The timeframes to ask for besides the chart's minutes.
  const sources = useMemo(
    () => [...new Set(wanted.map((w) => plotting!.sourceTimeframe(w.operands[0]!.timeframe)))].filter((tf): tf is Exclude<AnsweredTimeframe, '1m'> => tf !== '1m'),
    [wanted, plotting],
  );
  // One query for them all (a custom bot reads one or two timeframes): useQueries' observer would add its code to the precached app.
  const candles = useQuery({
    queryKey: ['indicatorCandles', { exchange: bot?.exchange ?? '', symbol: bot?.symbol ?? '', sources }] as const,
    queryFn: () => Promise.all(sources.map((timeframe) => api.marketSymbols({ exchange: bot?.exchange ?? '', symbol: bot?.symbol ?? '', history: '1', timeframe }, { show: false }))),
    enabled: bot !== undefined && sources.length > 0,
    refetchInterval: 60_000,
  });
  const histories = useMemo(() => (candles.data ?? []).map((list) => list[0]?.history), [candles.data]);
  return useMemo(() => {
    if (!minutes || !plotting) return [];
    return wanted.flatMap((w) => {
      const tf = w.operands[0]!.timeframe;
      const source = plotting.sourceTimeframe(tf);
      const from = source === '1m' ? minutes : histories[sources.indexOf(source as Exclude<AnsweredTimeframe, '1m'>)];
      if (!from) return [];
      return [plotting.plotOn(w, minutes, source === tf ? from : plotting.aggregate(from, plotting.timeframeSpan(tf)))];
    });
  }, [wanted, minutes, histories, sources, plotting]);
}
