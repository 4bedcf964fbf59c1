// A 30-day backtest of one martin configuration answered over HTTP: POST
// /api/strategy/backtest on Paper (43,200 one-minute candles through the engine's strategy), as the
// create screen asks it; the median of `runs` after one warm-up, each with a different take profit so
// nothing can be reused between runs.
import { median } from './stats.ts';

export async function measureBacktestAnswer(base: string, token: string, runs = 10) {
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${token}` };
  await fetch(`${base}/api/exchanges/bind`, { method: 'POST', headers, body: JSON.stringify({ exchangeId: 1, apiKey: 'paperKey1234', secretKey: 'paperSecret1234' }) });
  const times: number[] = [];
  let candles = 0;
  for (let i = 0; i <= runs; i++) {
    const params = { investment: '1000', firstOrder: '20', multiplier: '2', maxPositions: 5, addTrigger: '2', takeProfit: (1 + i / 10).toFixed(1), stopLoss: '', repeat: true };
    const start = performance.now();
    const res = await fetch(`${base}/api/strategy/backtest`, { method: 'POST', headers, body: JSON.stringify({ type: 'martin', exchangeId: 1, symbol: 'BTC/USDT', params, days: 30 }) });
    const body = (await res.json()) as { code: number; data: { candles: number } };
    if (body.code !== 1) throw new Error(`backtest answered ${body.code}`);
    candles = body.data.candles;
    if (i > 0) times.push(performance.now() - start);
  }
  return { medianMs: Math.round(median(times)), maxMs: Math.round(Math.max(...times)), candles };
}
