// The AI search on every pair of the Paper market (every pair answers within 10 s), one
// search per pair in this thread, on 30 days of 1-minute candles, with each pair's own market rules.
import { searchParameters } from '../strategy/ai/search.ts';
import { SimulatedMarket } from '../server/market/simulated.ts';
import { simSymbols } from '../server/market/symbols.ts';
import { paperMarket } from '../server/exchanges/paper-fill.ts';

export function measureAiSearchPairs(symbols = simSymbols.map((s) => s.symbol)) {
  const feed = new SimulatedMarket();
  const now = Date.UTC(2026, 10, 1);
  const out: Record<string, { s: number; tried: number; proposals: number }> = {};
  for (const symbol of symbols) {
    const sim = simSymbols.find((s) => s.symbol === symbol)!;
    const market = paperMarket(symbol, sim.tick, sim.step);
    const history = feed.minuteColumns(symbol, now - 30 * 86_400_000, now);
    const start = performance.now();
    const r = searchParameters({ investment: '1000', risk: 'balanced', market, history, recent: 7 * 1440 });
    out[symbol] = { s: Math.round((performance.now() - start) / 10) / 100, tried: r.tried, proposals: r.proposals.length };
  }
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(measureAiSearchPairs(process.argv.slice(2).length ? process.argv.slice(2) : undefined));
