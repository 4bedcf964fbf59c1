// The AI bot's parameter search (issue 6 §3) on one core: every candidate backtested on 30 days of
// Paper's 1-minute candles (43,200) and on the last 7 days, in this thread; median of `runs`.
import { searchParameters } from '../strategy/ai/search.ts';
import { money } from '../strategy/money.ts';
import { SimulatedMarket } from '../server/market/simulated.ts';
import { median } from './stats.ts';

export function measureAiSearch(runs = 3) {
  const feed = new SimulatedMarket();
  const now = Date.UTC(2026, 10, 1);
  const market = { tickSize: money('0.01'), stepSize: money('0.00001'), minAmount: money('0.00001'), minCost: money('5'), feeRate: money('0.001') };
  const history = feed.minuteColumns('BTC/USDT', now - 30 * 86_400_000, now);
  const times: number[] = [];
  let tried = 0;
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    tried = searchParameters({ investment: '1000', risk: 'balanced', market, history, recent: 7 * 1440 }).tried;
    times.push(performance.now() - start);
  }
  return { candidates: tried, candles: history.close.length, medianS: Math.round(median(times) / 10) / 100, runsS: times.map((t) => Math.round(t / 10) / 100) };
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(measureAiSearch());
