import { describe, expect, it } from 'vitest';
import { paperMarket } from '../../server/exchanges/paper-fill.ts';
import { SimulatedMarket } from '../../server/market/simulated.ts';
import { mergeSearches, searchParameters, searchPart } from './search.ts';

/**
 * A search split over threads (each part a share of the candidates, on a core of its own) answers what
 * one search over all of them answers: the same proposals in the same order, the same counts.
 */
describe('the AI search split in parts', () => {
  const now = Date.UTC(2026, 10, 1);
  const history = new SimulatedMarket().minuteColumns('ETH/USDT', now - 86_400_000, now); // a small window: the behaviour, not the size
  const input = { investment: '1000', risk: 'aggressive' as const, market: paperMarket('ETH/USDT', '0.01', '0.0001'), history, recent: 360 };

  it.each([2, 3])('merges %i parts into the one search’s answer', (of) => {
    const whole = searchParameters(input);
    const parts = Array.from({ length: of }, (_, index) => searchPart({ ...input, part: { index, of } }));
    expect(parts.reduce((n, p) => n + p.tried, 0)).toBe(whole.tried);
    const merged = mergeSearches(parts);
    expect(merged.kept).toBe(whole.kept);
    expect(merged.tried).toBe(whole.tried);
    expect(merged.proposals.map((p) => JSON.stringify([p.configuration, p.score, p.d30, p.d7]))).toEqual(whole.proposals.map((p) => JSON.stringify([p.configuration, p.score, p.d30, p.d7])));
    expect(whole.proposals.length).toBeGreaterThan(0);
  });
});
