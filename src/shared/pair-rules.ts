import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { SymbolInfo } from '../../contract/market.ts';
import { call } from './query.ts';

/**
 * An exchange's pairs by symbol ("BTC/USDT"), for their tick and step: figures of a pair shown away from
 * its market (a position, a coin of the portfolio) at the decimals the market trades in. One query per
 * exchange, shared and kept a minute (the market screen reads the same).
 */
export function usePairRules(exchange: string | undefined): Map<string, SymbolInfo> {
  const markets = useQuery({ ...call('marketSymbols', { exchange: exchange ?? '' }, { show: false }), enabled: Boolean(exchange), staleTime: 60_000 });
  return useMemo(() => new Map((markets.data ?? []).map((s) => [s.symbol, s])), [markets.data]);
}
