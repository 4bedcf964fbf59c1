import { useMemo } from 'react';
import { useQueries } from '@tanstack/react-query';
import type { CandleData } from '../../../contract/schemas.ts';
import type { BotDetail } from '../../../contract/bots.ts';
import type { CustomParams } from '../../../strategy/custom/rules.ts';
import { timeframeMs } from '../../../strategy/custom/rules.ts';
import { call } from '../../shared/query.ts';
import { aggregate, plotOn, ruleIndicators, sourceTimeframe, type AnsweredTimeframe, type IndicatorPlot } from './indicator-plots.ts';

/**
 * The indicators of a custom bot's rules on its 1-minute chart (`minutes`): each over the candles of its
 * own timeframe, asked of the market once a minute (1-minute ones are the chart's own). Other bots: none.
 */
export function useIndicatorPlots(bot: Pick<BotDetail, 'type' | 'params' | 'exchange' | 'symbol'> | undefined, minutes: CandleData[] | undefined): IndicatorPlot[] {
  const params = bot?.type === 'custom' ? (bot.params as Partial<CustomParams>) : undefined;
  const wanted = useMemo(() => (params ? ruleIndicators({ entry: params.entry, exit: params.exit }) : []), [params]);
  // The timeframes to ask for besides the chart's minutes.
  const sources = useMemo(() => [...new Set(wanted.map((w) => sourceTimeframe(w.operands[0]!.timeframe)))].filter((tf): tf is Exclude<AnsweredTimeframe, '1m'> => tf !== '1m'), [wanted]);
  const histories = useQueries({
    queries: sources.map((timeframe) => ({
      ...call('marketSymbols', { exchange: bot?.exchange ?? '', symbol: bot?.symbol ?? '', history: '1', timeframe }, { show: false }),
      enabled: bot !== undefined,
      refetchInterval: 60_000,
    })),
    combine: (results) => results.map((r) => r.data?.[0]?.history),
  });
  return useMemo(() => {
    if (!minutes) return [];
    return wanted.flatMap((w) => {
      const tf = w.operands[0]!.timeframe;
      const source = sourceTimeframe(tf);
      const from = source === '1m' ? minutes : histories[sources.indexOf(source as Exclude<AnsweredTimeframe, '1m'>)];
      if (!from) return [];
      return [plotOn(w, minutes, source === tf ? from : aggregate(from, timeframeMs[tf]))];
    });
  }, [wanted, minutes, histories, sources]);
}
