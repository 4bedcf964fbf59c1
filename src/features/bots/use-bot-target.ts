import { useEffect, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { ApiBinding } from '../../../contract/exchanges.ts';
import { call, failed } from '../../shared/query.ts';
import { ApiError } from '../../lib/http.ts';

/** Code.StrategyNotFound, as a number: the contract's code table stays out of the forms' chunk. */
const STRATEGY_NOT_FOUND = 3101;

/**
 * Where a bot trades, for the create and edit screens of every strategy: the trader's bound exchanges,
 * the bot being edited (if any), the chosen exchange and pair, and that pair's market now (its rules
 * and price, refreshed every 10 s), so the engine's own checks can run as the trader types. A new bot
 * starts on `exchange` (a code) when the trader has bound it, else on the first bound exchange.
 */
export function useBotTarget(id: string | undefined, exchange?: string) {
  const bindings = useQuery(call('userApi', {}, { show: false }));
  // The bot being edited is read once per visit: it fills the form, which a refetch must not overwrite.
  const bot = useQuery({ ...call('userBotInfo', { id: id ?? '' }), enabled: id !== undefined, gcTime: 0, refetchOnWindowFocus: false, refetchOnReconnect: false });
  const [exchangeId, setExchangeId] = useState<number | null>(null);
  const [symbol, setSymbol] = useState('BTC/USDT');
  const [name, setName] = useState('');
  useEffect(() => {
    if (!bot.data) return;
    setExchangeId(bot.data.exchangeId);
    setSymbol(bot.data.symbol);
    setName(bot.data.name);
  }, [bot.data]);
  useEffect(() => {
    const first = bindings.data?.find((b) => b.exchange === exchange) ?? bindings.data?.[0];
    if (!id && exchangeId === null && first) setExchangeId(first.exchangeId);
  }, [bindings.data, exchangeId, id, exchange]);
  const binding: ApiBinding | undefined = bindings.data?.find((b) => b.exchangeId === exchangeId);
  const exchangeCode = binding?.exchange ?? bot.data?.exchange;
  const symbols = useQuery({ ...call('marketSymbols', { exchange: exchangeCode ?? '' }, { show: false }), enabled: exchangeCode !== undefined, refetchInterval: 10_000 });
  const market = symbols.data?.find((s) => s.symbol === symbol);
  // What the account has free in the pair's quote currency and the trader's other running or paused
  // bots have not reserved: the create screens show it beside the investment, since a bot whose worst
  // case does not fit in it is refused at its start.
  const quote = symbol.split('/')[1] ?? 'USDT';
  const assets = useQuery({ ...call('userAsset', { exchange: exchangeCode ?? '' }, { show: false }), enabled: exchangeCode !== undefined });
  const balance = assets.data?.balances.find((b) => b.currency === quote);
  const available = assets.data ? (balance?.available ?? '0') : null;
  const reserved = balance?.reserved ?? '0';
  return {
    bindings,
    bot,
    binding,
    symbols,
    market,
    quote,
    available,
    reserved,
    exchangeId,
    setExchangeId,
    symbol,
    setSymbol,
    name,
    setName,
    loading: (!bindings.data && !failed(bindings)) || (id !== undefined && !bot.data && !failed(bot)),
    noBinding: !id && bindings.data?.length === 0,
    // The bot asked for is not the trader's (deleted, another's, a typo): no form to fill, a way back.
    missing: id !== undefined && bot.error instanceof ApiError && bot.error.code === STRATEGY_NOT_FOUND,
    running: bot.data?.status === 'running',
  };
}

export type BotTarget = ReturnType<typeof useBotTarget>;
