import { useEffect, useState } from 'react';
import type { BotInfo } from '../../../contract/bots.ts';
import type { ApiBinding, SymbolInfo } from '../../../contract/schemas.ts';
import { api } from '../../lib/api.ts';
import { useResource } from '../../lib/use-resource.ts';
import { useRefresh } from '../../shared/use-refresh.ts';

/**
 * Where a bot trades, for the create and edit screens of every strategy: the trader's bound exchanges,
 * the bot being edited (if any), the chosen exchange and pair, and that pair's market now (its rules
 * and price, refreshed every 10 s), so the engine's own checks can run as the trader types.
 */
export function useBotTarget(id: string | undefined) {
  const bindings = useResource(() => api.userApi({}, { show: false }));
  const bot = useResource<BotInfo | null>(() => (id ? api.userBotInfo({ id }) : Promise.resolve(null)));
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
    if (!id && exchangeId === null && bindings.data?.[0]) setExchangeId(bindings.data[0].exchangeId);
  }, [bindings.data, exchangeId, id]);
  const binding: ApiBinding | undefined = bindings.data?.find((b) => b.exchangeId === exchangeId);
  const exchangeCode = binding?.exchange ?? bot.data?.exchange;
  const symbols = useResource<SymbolInfo[] | null>(() => (exchangeCode ? api.marketSymbols({ exchange: exchangeCode }, { show: false }) : Promise.resolve(null)));
  useEffect(() => symbols.reload(), [exchangeCode]);
  useRefresh(symbols.reload, 10_000, exchangeCode !== undefined);
  const market = symbols.data?.find((s) => s.symbol === symbol);
  // What the account has free in the pair's quote currency: the create screens show it beside the
  // investment, since a bot whose worst case it cannot fund is refused at its start (issue 14 §5).
  const quote = symbol.split('/')[1] ?? 'USDT';
  const assets = useResource<string | null>(() =>
    exchangeCode ? api.userAsset({ exchange: exchangeCode }, { show: false }).then((a) => a.balances.find((b) => b.currency === quote)?.free ?? '0', () => null) : Promise.resolve(null),
  );
  useEffect(() => assets.reload(), [exchangeCode, quote]);
  return {
    bindings, bot, binding, symbols, market, quote, available: assets.data ?? null,
    exchangeId, setExchangeId, symbol, setSymbol, name, setName,
    loading: (!bindings.data && !bindings.failed) || (id !== undefined && !bot.data && !bot.failed),
    noBinding: !id && bindings.data?.length === 0,
    running: bot.data?.status === 'running',
  };
}

export type BotTarget = ReturnType<typeof useBotTarget>;
