import { afterAll, describe, expect, it } from 'vitest';
import { SimulatedMarket } from '../../market/simulated.ts';
import { paperMarket } from '../../exchanges/paper-fill.ts';
import { searchParameters } from '../../../strategy/ai/search.ts';
import { searchInWorker, stopSearchWorker } from './search-pool.ts';

/** The search in its worker thread tells how far it is while it runs, then answers. */
describe('the AI search worker', () => {
  afterAll(() => stopSearchWorker());

  it('reports candidates done of all, in order, ending with all of them', async () => {
    const now = Date.UTC(2026, 10, 1);
    const history = new SimulatedMarket().minuteColumns('ETH/USDT', now - 2 * 86_400_000, now); // a small window: the behaviour, not the size
    const seen: [number, number][] = [];
    const result = await searchInWorker({ investment: '1000', risk: 'balanced', market: paperMarket('ETH/USDT', '0.01', '0.0001'), history, recent: 720 }, (done, total) => seen.push([done, total]));
    expect(seen.length).toBeGreaterThanOrEqual(2); // the first candidate at once, the end at last (at most one every 100 ms between)
    // The first report has the whole size (a search split over threads reports once every part has said its own).
    expect(seen[0]![1]).toBe(result.tried);
    expect(seen[0]![0]).toBeLessThan(result.tried);
    expect(seen.at(-1)).toEqual([result.tried, result.tried]);
    for (let i = 1; i < seen.length; i++) expect(seen[i]![0]).toBeGreaterThan(seen[i - 1]![0]);
  });

  it('backtests on the market’s seconds as the app’s backtest does: the same proposals as the search in this thread', async () => {
    const now = Date.UTC(2026, 10, 1);
    const history = new SimulatedMarket().minuteColumns('BNB/USDT', now - 2 * 86_400_000, now);
    const market = paperMarket('BNB/USDT', '0.01', '0.001');
    const input = { investment: '1000', risk: 'aggressive' as const, market, recent: 720 };
    const worker = await searchInWorker({ ...input, history });
    const here = searchParameters({ ...input, history });
    const { path: _, ...fourPrices } = history;
    const withoutPath = searchParameters({ ...input, history: fourPrices });
    const figures = (r: typeof here) => r.proposals.map((p) => JSON.stringify([p.configuration, p.d30, p.d7]));
    expect(figures(worker)).toEqual(figures(here));
    // The path changes what the backtests find (the function did cross to the worker, made again there).
    expect(figures(here)).not.toEqual(figures(withoutPath));
  });
});
