import { call, queryClient } from '../../shared/query.ts';
import { portfolioQuery } from '../../shared/portfolio.tsx';
import { storedTradingMode, type TradingMode } from '../../shared/use-trading-mode.ts';

const HOME_SYMBOLS = 'BTC/USDT,ETH/USDT,BNB/USDT,SOL/USDT';

/** Home's calls (the screen and its loader ask with the same keys, so the loader's answers are the screen's). */
export const homeQueries = {
  bindings: call('userApi', {}, { show: false }),
  bill: (mode: TradingMode) => call('userBill', { mode }, { show: false }),
  counts: (mode: TradingMode) => call('userBotCount', { mode }, { show: false }),
  prices: { ...call('marketPrice', { symbols: HOME_SYMBOLS }, { show: false }), refetchInterval: 5000 },
  banners: call('indexBanners', undefined, { show: false }),
};

/** How long home waits for its figures before it shows what it has (dashes where a figure is missing). */
const WAIT_MS = 2000;

/**
 * Home's figures asked for by its route's loader, alongside its code: the screen renders once, with its
 * figures, where it rendered dashes first and then grew card by card as each answer came (the cards
 * moving under the trader's finger: Lighthouse's layout shift 0.09-0.13 on home). A slow
 * or failed call does not hold the screen past WAIT_MS; the screen shows its error or keeps waiting.
 */
export function prefetchHome(): Promise<unknown> {
  // Before the trader's first choice, the bindings decide the mode: both modes' figures are asked for
  // beside them (once per device) rather than one round trip after them.
  const stored = storedTradingMode();
  const modes: TradingMode[] = stored ? [stored] : ['live', 'simulation'];
  const all = Promise.all([
    ...modes.flatMap((mode) => [queryClient.prefetchQuery(homeQueries.bill(mode)), queryClient.prefetchQuery(homeQueries.counts(mode))]),
    stored ? undefined : queryClient.prefetchQuery(homeQueries.bindings),
    queryClient.prefetchQuery(portfolioQuery),
    queryClient.prefetchQuery(homeQueries.prices),
    queryClient.prefetchQuery(homeQueries.banners),
  ]);
  return Promise.race([all, new Promise((resolve) => setTimeout(resolve, WAIT_MS))]);
}
